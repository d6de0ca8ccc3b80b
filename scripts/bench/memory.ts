import { readFileSync } from 'node:fs';
import { childLabel, childrenOf } from './cpu.js';

/** A `Name:   123 kB` line of a /proc file, in bytes; 0 when the process is gone or the line missing. */
function kbLine(file: string, name: string): number {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return 0;
  }
  const line = text.split('\n').find((l) => l.startsWith(`${name}:`));
  return Number(line?.replace(/\D+/g, '') ?? 0) * 1024;
}

/** Resident memory of a process, from the kernel. */
export const rssOf = (pid: number): number => kbLine(`/proc/${pid}/status`, 'VmRSS');

/**
 * A process's proportional share of memory: its own pages, and each page it shares with others
 * (the Node binary's, a library's) divided among them. Summed over processes, a page is counted once.
 */
const pssOf = (pid: number): number => kbLine(`/proc/${pid}/smaps_rollup`, 'Pss');

/** A process and all it started, and what they started. */
export function treeOf(pid: number): number[] {
  const all = [pid];
  for (let i = 0; i < all.length; i++) all.push(...childrenOf(all[i] as number));
  return all;
}

export interface MemoryPeak {
  /** The largest sum of resident memory seen over the tree (shared pages counted in each process). */
  rss: number;
  /** The largest sum of proportional memory (shared pages counted once), the board's own count. */
  pss: number;
  /** At the resident peak: each process by what it is, in bytes. */
  parts: [string, number][];
  samples: number;
}

/**
 * The peak memory of a service and all its children, sampled every `everyMs` while it runs:
 * the sum over the tree at each sample (the children come and go: an export, a worker, rclone).
 */
export class MemorySampler {
  private peak: MemoryPeak = { rss: 0, pss: 0, parts: [], samples: 0 };
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly pid: number,
    everyMs = 500,
  ) {
    this.sample();
    this.timer = setInterval(() => this.sample(), everyMs);
  }

  stop(): MemoryPeak {
    clearInterval(this.timer);
    this.sample();
    return this.peak;
  }

  private sample(): void {
    const tree = treeOf(this.pid);
    const parts: [string, number][] = tree.map((pid) => [pid === this.pid ? 'the service' : childLabel(pid), rssOf(pid)]);
    const rss = parts.reduce((sum, [, bytes]) => sum + bytes, 0);
    const pss = tree.reduce((sum, pid) => sum + pssOf(pid), 0);
    this.peak.samples++;
    if (rss > this.peak.rss) this.peak = { ...this.peak, rss, parts };
    this.peak.pss = Math.max(this.peak.pss, pss);
  }
}

/** The parts of a peak by program, largest first: "the service 96 MB, the background workers 2 × 61 MB". */
export function describeParts(parts: [string, number][]): string {
  const byLabel = new Map<string, number[]>();
  for (const [label, bytes] of parts) byLabel.set(label, [...(byLabel.get(label) ?? []), bytes]);
  const mb = (bytes: number): string => `${Math.round(bytes / 1048576)} MB`;
  return [...byLabel]
    .sort((a, b) => b[1].reduce((s, n) => s + n, 0) - a[1].reduce((s, n) => s + n, 0))
    .map(([label, sizes]) =>
      sizes.length === 1 ? `${label} ${mb(sizes[0] as number)}` : `${label} ${sizes.length} × ${mb(Math.max(...sizes))} at most`,
    )
    .join(', ');
}

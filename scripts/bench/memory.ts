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

export interface MemoryPart {
  label: string;
  rss: number;
  pss: number;
}

export interface MemoryPeak {
  /** The largest sum of resident memory seen over the tree (a page shared by two processes counted twice). */
  rss: number;
  /** The largest sum of proportional memory (a shared page split among its processes): what the board gives Boothdeck. */
  pss: number;
  /** At the peak (shared pages counted once): each process by what it is, resident and proportional bytes. */
  parts: MemoryPart[];
  samples: number;
}

/**
 * A new resident peak this much above the last one measured is measured again with its
 * proportional share: reading smaps_rollup walks the process's pages (about 5 ms of the kernel
 * for a 250 MB process, here), too costly to do every half second beside the stand-in.
 */
const REMEASURE_ABOVE = 1.02;

/**
 * The peak memory of a service and all its children, sampled every `everyMs` while it runs: the
 * sum of resident sizes over the tree at each sample (the children come and go: an export, a
 * worker, rclone), from /proc/<pid>/status (microseconds), and at each new resident peak the
 * tree's proportional shares too, the board's own count.
 */
export class MemorySampler {
  private peak: MemoryPeak = { rss: 0, pss: 0, parts: [], samples: 0 };
  /** The resident sum at which the proportional shares were last read. */
  private measuredAt = 0;
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
    const resident = tree.map((pid) => rssOf(pid));
    const rss = resident.reduce((sum, bytes) => sum + bytes, 0);
    this.peak.samples++;
    this.peak.rss = Math.max(this.peak.rss, rss);
    if (rss <= this.measuredAt * REMEASURE_ABOVE) return;
    this.measuredAt = rss;
    const parts: MemoryPart[] = tree.map((pid, i) => ({
      label: pid === this.pid ? 'the service' : childLabel(pid),
      rss: resident[i] ?? 0,
      pss: pssOf(pid),
    }));
    const pss = parts.reduce((sum, p) => sum + p.pss, 0);
    if (pss > this.peak.pss) this.peak = { ...this.peak, pss, parts };
  }
}

/** The parts of a peak by program, largest first: "the service 96 MB (PSS 71), the background workers 2 × 61 MB (PSS 40)". */
export function describeParts(parts: MemoryPart[]): string {
  const byLabel = new Map<string, MemoryPart[]>();
  for (const part of parts) byLabel.set(part.label, [...(byLabel.get(part.label) ?? []), part]);
  const mb = (bytes: number): string => `${Math.round(bytes / 1048576)}`;
  const total = (list: MemoryPart[]): number => list.reduce((sum, p) => sum + p.pss, 0);
  return [...byLabel]
    .sort((a, b) => total(b[1]) - total(a[1]))
    .map(([label, list]) => {
      const rss = Math.max(...list.map((p) => p.rss));
      const pss = Math.max(...list.map((p) => p.pss));
      return `${label} ${list.length > 1 ? `${list.length} × ` : ''}${mb(rss)} MB resident, ${mb(pss)} MB own share`;
    })
    .join('; ');
}

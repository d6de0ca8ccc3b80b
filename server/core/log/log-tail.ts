import { open, readdir } from 'node:fs/promises';
import path from 'node:path';

export type LogLevel = 'info' | 'warn' | 'error';

export interface LogLine {
  time: string;
  level: LogLevel;
  message: string;
  /** The error's message, when the line carries one. */
  error: string | null;
}

const PINO_LEVELS: Record<number, LogLevel> = { 30: 'info', 40: 'warn', 50: 'error', 60: 'error' };
const RANK: Record<LogLevel, number> = { info: 0, warn: 1, error: 2 };
/** Read at most this much from the end of each file: enough for hundreds of lines, never a whole file. */
const TAIL_BYTES = 256 * 1024;

async function readTail(file: string): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const start = Math.max(0, size - TAIL_BYTES);
    const buffer = Buffer.alloc(size - start);
    await handle.read(buffer, 0, buffer.length, start);
    const text = buffer.toString('utf8');
    // A cut through the first line leaves half a line: drop it.
    return start > 0 ? text.slice(text.indexOf('\n') + 1) : text;
  } finally {
    await handle.close();
  }
}

function parse(line: string): LogLine | null {
  try {
    const raw = JSON.parse(line) as { level?: unknown; time?: unknown; msg?: unknown; err?: { message?: unknown } };
    const level = typeof raw.level === 'number' ? PINO_LEVELS[raw.level] : undefined;
    if (!level || typeof raw.msg !== 'string') return null;
    return {
      time: typeof raw.time === 'string' ? raw.time : new Date(Number(raw.time)).toISOString(),
      level,
      message: raw.msg,
      error: typeof raw.err?.message === 'string' ? raw.err.message : null,
    };
  } catch {
    return null;
  }
}

/**
 * The last lines of the rolling log files (`<stem>.N.log`, the highest N being the newest),
 * oldest first, at or above `minLevel`.
 */
export async function readLogTail(dir: string, stem: string, options: { limit: number; minLevel: LogLevel }): Promise<LogLine[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const pattern = new RegExp(`^${stem}\\.(\\d+)\\.log$`);
  const files = names
    .map((name) => ({ name, n: Number(pattern.exec(name)?.[1] ?? NaN) }))
    .filter((f) => Number.isFinite(f.n))
    .sort((a, b) => b.n - a.n);
  const out: LogLine[] = [];
  for (const file of files) {
    const lines = (await readTail(path.join(dir, file.name)))
      .split('\n')
      .map(parse)
      .filter((l): l is LogLine => l !== null && RANK[l.level] >= RANK[options.minLevel]);
    out.unshift(...lines);
    if (out.length >= options.limit) break;
  }
  return out.slice(-options.limit);
}

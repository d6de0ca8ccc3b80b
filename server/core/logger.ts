import path from 'node:path';
import pino from 'pino';
import pinoRoll from 'pino-roll';

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string, err?: unknown): void;
}

/** A logger that holds a file open: the service closes it last, after everything else has logged. */
export interface FileLogger extends Logger {
  /** The folder of the rotating files, read back by the dashboard's log tail. */
  readonly dir: string;
  close(): Promise<void>;
}

export const LOG_FILE_STEM = 'boothdeck';

const errorFields = (err: unknown): Record<string, unknown> =>
  err === undefined
    ? {}
    : {
        err:
          err instanceof Error
            ? { message: err.message, stack: err.stack }
            : { message: typeof err === 'string' ? err : JSON.stringify(err) },
      };

const LEVEL_NAMES: Record<number, string> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };

/**
 * The terminal and the journal get one readable line per entry ("23:09:26 warn  message"); the
 * files keep pino's JSON for the dashboard's tail.
 */
export const readableStdout = {
  write(line: string): void {
    let text = line;
    try {
      const entry = JSON.parse(line) as { level?: number; time?: string; msg?: string; err?: { message?: string } };
      const level = (LEVEL_NAMES[entry.level ?? 30] ?? 'info').padEnd(5);
      const cause = entry.err?.message ? ` (${entry.err.message})` : '';
      text = `${(entry.time ?? '').slice(11, 19)} ${level} ${entry.msg ?? ''}${cause}\n`;
    } catch {
      // Not one of pino's lines: passed on as it came.
    }
    process.stdout.write(text);
  },
};

/**
 * Structured JSON lines with pino, into `<dir>/boothdeck.N.log`, rolled at 5 MB and kept to 5
 * files, and echoed on stdout (the journal, for a headless service under systemd). Writes are
 * synchronous: a booth logs little, and the last lines before a crash are the ones that matter.
 */
export async function createFileLogger(dir: string, options: { echo?: Logger; stdout?: boolean } = {}): Promise<FileLogger> {
  const file = await pinoRoll({
    file: path.join(dir, LOG_FILE_STEM),
    extension: '.log',
    size: '5m',
    mkdir: true,
    limit: { count: 4, removeOtherLogFiles: true },
    sync: true,
  });
  const streams: pino.StreamEntry[] = [{ level: 'info', stream: file }];
  if (options.stdout) streams.push({ level: 'info', stream: readableStdout });
  const logger = pino({ base: undefined, timestamp: pino.stdTimeFunctions.isoTime }, pino.multistream(streams));
  const echo = options.echo;
  let closed = false;
  return {
    dir,
    info(message) {
      echo?.info(message);
      if (!closed) logger.info(message);
    },
    warn(message) {
      echo?.warn(message);
      if (!closed) logger.warn(message);
    },
    error(message, err) {
      echo?.error(message, err);
      if (!closed) logger.error(errorFields(err), message);
    },
    close() {
      if (closed) return Promise.resolve();
      closed = true;
      return new Promise<void>((resolve) => {
        file.once('close', () => resolve());
        file.end();
      });
    },
  };
}

export function createConsoleLogger(): Logger {
  const stamp = (): string => new Date().toISOString();
  return {
    info: (m) => console.log(`${stamp()} INFO  ${m}`),
    warn: (m) => console.warn(`${stamp()} WARN  ${m}`),
    error: (m, err) => console.error(`${stamp()} ERROR ${m}`, err instanceof Error ? (err.stack ?? err.message) : (err ?? '')),
  };
}

export interface RecordingLogger extends Logger {
  lines: string[];
}

/** Keeps lines in memory, for tests that check what was logged without noise on the console. */
export function createRecordingLogger(): RecordingLogger {
  const lines: string[] = [];
  return {
    lines,
    info: (m) => lines.push(`info ${m}`),
    warn: (m) => lines.push(`warn ${m}`),
    error: (m, err) => lines.push(`error ${m} ${err instanceof Error ? err.message : err === undefined ? '' : JSON.stringify(err)}`),
  };
}

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string, err?: unknown): void;
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

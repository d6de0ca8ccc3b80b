import { appendFileSync } from 'node:fs';
import type { BoothPaths } from './paths.js';

/**
 * Every line goes to ~/boothdeck/deploy.log (all deploys, stamped), and inside a run to
 * runs/<id>.log, which `follow` streams to whoever started it. Only attached commands write to
 * their output: the detached install has none, so a closed connection cannot stop it.
 */
export class DeployLog {
  runLog: string | undefined;

  constructor(
    private readonly paths: BoothPaths,
    public runId: string | undefined,
    private readonly attached: boolean,
    private readonly now: () => Date = () => new Date(),
  ) {}

  note(line: string): void {
    const stamp = this.now()
      .toISOString()
      .replace(/\.\d+Z$/, 'Z');
    try {
      appendFileSync(this.paths.log, `${stamp} [${this.runId ?? 'booth'}] ${line}\n`);
    } catch {
      // A full disk: the line still reaches whoever follows, if it can.
    }
    if (this.runLog) {
      try {
        appendFileSync(this.runLog, `${line}\n`);
      } catch {
        /* as above */
      }
    }
    if (this.attached) process.stdout.write(`${line}\n`);
  }
}

/** A refusal or a failure with its exit code: the command stops there, its sentence already said. */
export class DeployExit extends Error {
  override name = 'DeployExit';
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** Exit codes: 0 done, 1 failed (the booth runs what it ran before), 64 usage, 70 stopped unexpectedly, 73 another deploy, 74 no space, 75 event. */
export const EXIT = { done: 0, failed: 1, usage: 64, unexpected: 70, busy: 73, noSpace: 74, deferred: 75 } as const;

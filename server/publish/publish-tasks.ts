import { createWriteStream } from 'node:fs';
import type { TaskHandlers } from '../core/background/background.protocol.js';
import { needsZip64, writeZip, type ExportEntry } from '../events/export-zip.js';
import { sealFile } from './publish-lock.js';

/** What the service sends to seal a file; the key travels on the worker's channel, never in its arguments or environment. */
export interface SealTask {
  key: Uint8Array;
  from: string;
  to: string;
}

/** What the service sends to lay out an event's ZIP: its entries, and the file to write it to. */
export interface ZipFilesTask {
  entries: ExportEntry[];
  out: string;
}

/**
 * The online gallery's heavy file work, run by a background worker below the capture app (or in
 * the service where no worker can run): sealing a protected gallery's files (AES-256-GCM over every
 * byte) and writing the event's "Tout télécharger" ZIP (up to 500 MB, a CRC-32 of each byte).
 */
export function publishTasks(): TaskHandlers {
  return {
    'seal-file': async (raw) => {
      const task = raw as SealTask;
      await sealFile(Buffer.from(task.key), task.from, task.to);
    },
    'zip-files': async (raw) => {
      const task = raw as ZipFilesTask;
      const out = createWriteStream(task.out, { mode: 0o644 });
      const outcome = await writeZip(task.entries, out, {
        zip64: needsZip64(task.entries),
        now: Date.now(),
        hooks: { entry: () => undefined, missing: () => undefined },
      });
      return { state: outcome.state, missing: outcome.missing };
    },
  };
}

/** A background pool's `run`, as the publishing queue needs it. */
export type RunInBackground = <T>(name: string, input: unknown) => Promise<T>;

/** The queue's heavy file work, handed to the background pool. */
export interface PublishWork {
  seal(key: Buffer, from: string, to: string): Promise<void>;
  /** Writes the ZIP; `complete` is false when a photo's file was gone (the ZIP is then not to be sent). */
  zip(entries: ExportEntry[], out: string): Promise<{ complete: boolean }>;
}

export function publishWork(run: RunInBackground): PublishWork {
  return {
    seal: (key, from, to) => run<void>('seal-file', { key, from, to } satisfies SealTask),
    zip: async (entries, out) => {
      const done = await run<{ state: string; missing: string[] }>('zip-files', { entries, out } satisfies ZipFilesTask);
      return { complete: done.state === 'done' && done.missing.length === 0 };
    },
  };
}

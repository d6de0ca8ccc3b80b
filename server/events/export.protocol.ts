import type { ExportEntry } from './export-zip.js';

/**
 * The service asks a background process for one ZIP, written to its fd EXPORT_DATA_FD: a pipe the
 * service forwards (`raw`), or a copy of the client's own socket, whose response headers are sent
 * and whose body is chunked (`chunked`: the service then forwards nothing).
 */
export interface ExportJob {
  type: 'zip';
  entries: ExportEntry[];
  zip64: boolean;
  now: number;
  framing: 'raw' | 'chunked';
}

/** What the export process says on its channel while the bytes go down the pipe. */
export type ExportWorkerMessage =
  /** Lowered and about to write: from now on, a process that stops has cut the download. */
  | { type: 'started' }
  | { type: 'entry'; name: string }
  | { type: 'missing'; name: string }
  /** Every byte is in the kernel: the service may end the response (once it has read them from a pipe). */
  | { type: 'end'; state: 'done' | 'aborted'; filesDone: number }
  | { type: 'failed'; message: string };

/** The child's fd for the ZIP's bytes: 0–2 are the usual three, 3 the channel. */
export const EXPORT_DATA_FD = 4;

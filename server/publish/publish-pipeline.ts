import { mkdir, rename, rm } from 'node:fs/promises';
import type { Clock } from '../core/clock/clock.port.js';
import path from 'node:path';
import { namesList, SourceMissingError, type StagedPhoto } from './publish-files.js';
import type { PublishFileRow } from './publish.repository.js';

/** A row laid out for rclone in a folder of its own. */
export interface PreparedPhoto {
  row: PublishFileRow;
  staged: StagedPhoto;
}

/** What the pipeline does with rows; the queue gives it its rclone and its records. */
export interface PipelineSteps {
  /** Lays one row out under `dir` (its preview made if it is not kept yet); undefined when its photo left. */
  prepare(row: PublishFileRow, dir: string): Promise<StagedPhoto | undefined>;
  /** Sends the files `names` laid out under `dir`. */
  send(dir: string, names: string[]): Promise<void>;
  /** Checks a sent batch on the remote and records it; it runs while the next batch is sent. `last`: no batch follows. */
  confirm(batch: PreparedPhoto[], last: boolean): Promise<void>;
}

export interface PipelineOptions {
  /** A folder of the pipeline's own, removed when it ends. */
  workDir: string;
  /** Rows prepared at once: as many as the background workers that make previews. */
  parallel: number;
  /** The most rows one rclone run sends. */
  batchSize: number;
  /** Rows prepared ahead of the upload at most (a photo fetched from a remote capture app is a full copy on the card). */
  ahead: number;
  /**
   * While rows are still being prepared, a batch smaller than `batchSize` starts at most this long
   * after the previous one (the first starts at once): an event whose previews are being made is
   * sent in a few runs, not one per preview, and what waits at the end is at most this much making.
   */
  spacingMs: number;
  clock: Pick<Clock, 'monotonic' | 'setTimeout' | 'clearTimeout'>;
  stopped: () => boolean;
}

/** What a run did, for the log. */
export interface PipelineReport {
  sent: number;
  batches: number;
}

/**
 * Sends rows as a pipeline: preparing (previews made, files laid out) and uploading overlap.
 * The first rclone run starts with the first row ready; each next one takes every row prepared
 * meanwhile (up to `batchSize`) once there are twice as many as last time, or the spacing has
 * passed, and the check of a batch on the remote runs while the next is sent. So an event whose previews are kept goes at rclone's own pace, and one whose previews
 * must be made is bound by their making, not by waiting for a whole batch to be laid out.
 *
 * A row whose photo's file is missing is left pending; if no row could be sent for that reason,
 * the pipeline throws it (the queue says so). Any other failure stops the pipeline and is thrown
 * once the rows being prepared have finished.
 */
export async function runPipeline(
  rows: readonly PublishFileRow[],
  steps: PipelineSteps,
  options: PipelineOptions,
): Promise<PipelineReport> {
  const ready: { prepared: PreparedPhoto; dir: string }[] = [];
  let failure: { error: unknown } | undefined;
  let missing: SourceMissingError | undefined;
  let next = 0;
  let preparing = options.parallel;
  let senderWake: (() => void) | undefined;
  const roomWaiters: (() => void)[] = [];
  const over = (): boolean => failure !== undefined || options.stopped();
  const wakeSender = (): void => {
    const wake = senderWake;
    senderWake = undefined;
    wake?.();
  };
  const fail = (error: unknown): void => {
    failure ??= { error };
    wakeSender();
    roomWaiters.splice(0).forEach((wake) => wake());
  };

  const prepareRows = async (): Promise<void> => {
    while (!over() && next < rows.length) {
      if (ready.length >= options.ahead) {
        await new Promise<void>((resolve) => roomWaiters.push(resolve));
        continue;
      }
      const index = next++;
      const row = rows[index] as PublishFileRow;
      const dir = path.join(options.workDir, 'rows', String(index));
      try {
        const staged = await steps.prepare(row, dir);
        if (staged !== undefined) ready.push({ prepared: { row, staged }, dir });
        else await rm(dir, { recursive: true, force: true });
      } catch (err) {
        await rm(dir, { recursive: true, force: true });
        if (err instanceof SourceMissingError) missing = err;
        else fail(err);
      }
      wakeSender();
    }
  };
  const workers = Array.from({ length: options.parallel }, () =>
    prepareRows()
      .catch(fail)
      .finally(() => {
        preparing--;
        wakeSender();
      }),
  );

  let sent = 0;
  let batchNo = 0;
  let lastStart = -Infinity;
  let confirming: Promise<void> = Promise.resolve();
  const { clock } = options;
  let lastSize = 0;
  /**
   * Whether a batch starts now: a full one, the last one, one twice the size of the previous (rows
   * are being prepared faster than sent: the upload never waits for a full batch), or one whose
   * spacing has passed.
   */
  const due = (): boolean =>
    ready.length >= options.batchSize ||
    preparing === 0 ||
    (ready.length > 0 && (ready.length >= 2 * lastSize || clock.monotonic() - lastStart >= options.spacingMs));
  try {
    for (; ; batchNo++) {
      while (!due() && !over()) {
        const left = ready.length > 0 ? lastStart + options.spacingMs - clock.monotonic() : Infinity;
        const timer = Number.isFinite(left) ? clock.setTimeout(wakeSender, Math.max(0, left)) : undefined;
        await new Promise<void>((resolve) => (senderWake = resolve));
        if (timer !== undefined) clock.clearTimeout(timer);
      }
      if (over() || ready.length === 0) break;
      lastStart = clock.monotonic();
      const taken = ready.splice(0, options.batchSize);
      lastSize = taken.length;
      const last = preparing === 0 && ready.length === 0;
      roomWaiters.splice(0).forEach((wake) => wake());
      const dir = path.join(options.workDir, `batch-${batchNo}`);
      const names = await gather(taken, dir);
      await steps.send(dir, names);
      await confirming;
      if (over()) break;
      const batch = taken.map((t) => t.prepared);
      confirming = steps
        .confirm(batch, last)
        .catch(fail)
        .finally(() => rm(dir, { recursive: true, force: true }));
      sent += batch.length;
    }
    await confirming;
  } catch (err) {
    fail(err);
  } finally {
    roomWaiters.splice(0).forEach((wake) => wake());
    await Promise.all(workers);
    await confirming;
    await rm(options.workDir, { recursive: true, force: true });
  }
  if (failure !== undefined) throw failure.error;
  if (sent === 0 && missing !== undefined && !options.stopped()) throw missing;
  return { sent, batches: batchNo };
}

/** Moves each row's files from its own folder into the batch's, under their published names. */
async function gather(taken: readonly { prepared: PreparedPhoto; dir: string }[], dir: string): Promise<string[]> {
  const names: string[] = [];
  const made = new Set<string>();
  for (const { prepared, dir: from } of taken) {
    for (const name of namesList(prepared.staged.names)) {
      const folder = path.dirname(path.join(dir, name));
      if (!made.has(folder)) {
        await mkdir(folder, { recursive: true });
        made.add(folder);
      }
      await rename(path.join(from, name), path.join(dir, name));
      names.push(name);
    }
    await rm(from, { recursive: true, force: true });
  }
  return names;
}

import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { PublishSettings } from '../contract/publish.contract.js';
import type { Clock } from '../core/clock/clock.port.js';
import type { Logger } from '../core/logger.js';
import type { EventRow } from '../events/event.repository.js';
import { holdsWhole, listEvent, type Listing } from './publish-check.js';
import type { PublishTarget } from './publish-destination.js';
import { namesList, stagePhoto, type PublishSources } from './publish-files.js';
import { downloadNames, eventPageHtml } from './publish-index.js';
import type { StoredLogo } from './publish-brand.js';
import { renderPhotoPage } from './publish-photo-page.js';
import { runPipeline } from './publish-pipeline.js';
import { stageSealedPhoto } from './publish-sealed.js';
import type { PublishWork } from './publish-tasks.js';
import type { PublicationRow, PublishablePhoto, PublishFileRow, PublishRepository } from './publish.repository.js';
import { remoteJoin, type RclonePort } from './rclone.port.js';

export interface SendDeps {
  repo: PublishRepository;
  rclone: RclonePort;
  sources: PublishSources;
  work: PublishWork;
  clock: Clock;
  log: Logger;
  stageDir: string;
  /** How many previews were made since the start: the log says how many a sending had to make. */
  previewsMade: () => number;
}

export interface SendOptions {
  batchSize: number;
  prepareParallel: number;
  batchSpacingMs: number;
}

export interface EventToSend {
  pub: PublicationRow;
  event: EventRow | undefined;
  where: { target: PublishTarget; dest: string };
  settings: PublishSettings;
  /** The photos wanted online, by id. */
  photos: ReadonlyMap<string, PublishablePhoto>;
}

/**
 * Sends an event's pending rows through the pipeline. A row turns online only once a listing of
 * the event's folder showed each of its files whole (the size it was laid out with): what the
 * console counts is what the remote was seen to hold. `sentBatch` runs after each batch is
 * recorded (the queue writes the page then, now and then; after the last one, the queue writes it anyway).
 */
export async function sendPending(
  deps: SendDeps,
  e: EventToSend,
  rows: readonly PublishFileRow[],
  options: SendOptions,
  hooks: { stopped: () => boolean; sentBatch: (last: boolean, there: Listing) => Promise<void> },
): Promise<void> {
  const { repo, sources } = deps;
  const lock = repo.lock(e.pub.event_id);
  const eventName = e.event?.name ?? '';
  const downloads = downloadNames(eventName, [...e.photos.values()]);
  const started = deps.clock.monotonic();
  const made = deps.previewsMade();
  const report = await runPipeline(
    rows,
    {
      prepare: async (row, dir) => {
        const photo = e.photos.get(row.photo_id);
        if (!photo) return undefined;
        if (lock !== undefined) return stageSealedPhoto(dir, photo, sources, lock, e.settings.language, deps.work);
        return stagePhoto(dir, photo, sources, (names) =>
          renderPhotoPage({
            eventName,
            language: e.settings.language,
            media: names.media,
            shown: names.preview ?? names.media,
            thumb: names.thumb,
            kind: photo.kind,
            downloadName: downloads.get(photo.id) ?? path.basename(names.media),
          }),
        );
      },
      send: (dir, names) => deps.rclone.copyNew(e.where.target, dir, names, e.where.dest),
      confirm: async (batch, last) => {
        const there = await listEvent(deps.rclone, e.where);
        // Stopped meanwhile (the service is closing): the rows stay pending and the next start finds the files there.
        if (hooks.stopped()) return;
        const whole = batch.filter((b) => holdsWhole(there, namesList(b.staged.names), b.staged.sizes));
        repo.markOnline(
          e.pub.event_id,
          whole.map((b) => ({ photo_id: b.row.photo_id, version: b.row.version, sizes: b.staged.sizes, thumb: b.staged.thumb })),
          deps.clock.now(),
        );
        if (whole.length < batch.length)
          deps.log.warn(
            `Publishing: ${batch.length - whole.length} photo(s) sent were not found whole on the destination; sent again later`,
          );
        await hooks.sentBatch(last, there);
      },
    },
    {
      workDir: path.join(deps.stageDir, `${e.pub.token}-${randomBytes(4).toString('hex')}`),
      parallel: options.prepareParallel,
      batchSize: options.batchSize,
      ahead: options.batchSize * 2,
      spacingMs: options.batchSpacingMs,
      clock: deps.clock,
      stopped: hooks.stopped,
    },
  );
  const seconds = Math.round((deps.clock.monotonic() - started) / 100) / 10;
  deps.log.info(
    `Publishing: ${report.sent} photo(s) sent in ${report.batches} rclone run(s), ${deps.previewsMade() - made} preview(s) made meanwhile, in ${seconds} s`,
  );
}

/** What writing an event's page needs beyond the sending's own. */
export interface PageDeps extends Pick<SendDeps, 'repo' | 'rclone' | 'clock' | 'stageDir'> {
  event: (id: number) => EventRow | undefined;
  /** The pages' logo (its name relative to `brandDir`); null: none. */
  logo: () => StoredLogo | null;
  brandDir: string;
}

/** Writes the event's `index.html` from the rows online, with the logo beside it; a failure leaves it to write again. */
export async function writeEventPage(
  deps: PageDeps,
  pub: PublicationRow,
  where: EventToSend['where'],
  settings: PublishSettings,
  stopped: () => boolean,
): Promise<void> {
  const { repo } = deps;
  const event = deps.event(pub.event_id);
  if (!event) return;
  repo.takeIndexStale(pub.event_id);
  const logo = deps.logo();
  // The logo goes beside the page (sent once: its name is its content's hash); an old one is a stray for the check.
  if (logo !== null) await deps.rclone.copyNew(where.target, deps.brandDir, [logo.name], where.dest);
  const html = eventPageHtml({
    logo: logo?.name ?? null,
    event,
    rows: repo.onlineFiles(pub.event_id),
    settings,
    expiry: repo.publication(pub.event_id)?.expires_at ?? null,
    lock: repo.lock(pub.event_id),
    zip: repo.zip(pub.event_id),
  });
  await mkdir(deps.stageDir, { recursive: true });
  const file = path.join(deps.stageDir, `index-${pub.token}.html`);
  await writeFile(file, html);
  try {
    await deps.rclone.replace(where.target, file, remoteJoin(where.dest, 'index.html'));
    if (!stopped()) repo.setIndexWritten(pub.event_id, deps.clock.now());
  } catch (err) {
    if (!stopped()) repo.markIndexStale(pub.event_id);
    throw err;
  } finally {
    await rm(file, { force: true });
  }
}

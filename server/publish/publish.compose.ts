import path from 'node:path';
import type { EventHub } from '../core/event-hub.js';
import type { EventRepository } from '../events/event.repository.js';
import { copyBounded } from '../media/bounded-read.js';
import type { BackgroundMedia } from '../media/background-resize.js';
import { MAX_VIDEO_BYTES } from '../photos/image-limits.js';
import type { PhotoMedia } from '../photos/photo-media.js';
import type { PhotoRepository } from '../photos/photo.repository.js';
import type { SettingsRepository } from '../settings/settings.repository.js';
import type { CaptureAppPort } from '../capture/capture.port.js';
import type { Clock } from '../core/clock/clock.port.js';
import type { Logger } from '../core/logger.js';
import type { Db } from '../db/database.js';
import type { SystemPort } from '../system/system.port.js';
import type { PublishSources } from './publish-files.js';
import { defaultQueueOptions, PublishQueue, type PublishQueueOptions } from './publish.queue.js';
import { PublishRepository } from './publish.repository.js';
import { publishWork } from './publish-tasks.js';
import { PREVIEW_OPTIONS, PreviewsAhead, PreviewStore } from './publish-previews.js';
import { mediaVersion } from '../photos/media-version.js';
import { newEventToken, PublishService } from './publish.service.js';
import { RcloneProcess } from './rclone.process.js';
import type { SecretBox } from '../core/secrets/secret-box.js';
import { sealLegacySecrets } from './publish-secrets.js';
import type { RclonePort } from './rclone.port.js';

/** Where folder destinations may be without BOOTHDECK_PUBLISH_ROOT: USB sticks' mount points. */
export const DEFAULT_PUBLISH_ROOT = '/media';

export interface Publishing {
  service: PublishService;
  queue: PublishQueue;
  /** The 1600 px previews, kept per photo version. */
  previews: PreviewStore;
  /** Previews made as photos arrive, for events that go online. */
  previewsAhead: PreviewsAhead;
}

interface PublishingDeps {
  ports: { db: Db; system: SystemPort; clock: Clock; capture: CaptureAppPort; log: Logger; rclone?: RclonePort };
  options: { dataDir: string; publish?: Partial<PublishQueueOptions>; publishRoot?: string };
  hub: EventHub;
  settingsRepository: SettingsRepository;
  eventRepository: EventRepository;
  photoRepository: PhotoRepository;
  media: PhotoMedia;
  /** The low-priority workers: previews, sealing and ZIPs are made there. */
  background: BackgroundMedia;
  /** Whether guests see collage parts as photos of their own: only then are they put online. */
  partsShown?: () => boolean;
  /** Seals the destination's password and the galleries' keys in the database. */
  secrets: SecretBox;
}

/** The online galleries, wired: where files come from, where they go, and what wakes the queue. */
export function createPublishing(deps: PublishingDeps): Publishing {
  const { ports, options } = deps;
  const workDir = path.join(options.dataDir, 'publish');
  const rclone = ports.rclone ?? new RcloneProcess(ports.system, workDir);
  // Secrets stored in clear by an earlier version are sealed before anything reads them.
  sealLegacySecrets(ports.db, deps.secrets, ports.log);
  const repo = new PublishRepository(ports.db, deps.partsShown ?? (() => false), deps.secrets);
  const service = new PublishService(
    repo,
    deps.eventRepository,
    deps.settingsRepository,
    rclone,
    ports.clock,
    options.dataDir,
    workDir,
    deps.secrets,
    options.publishRoot ?? DEFAULT_PUBLISH_ROOT,
  );
  service.destinations.migrate(ports.log);
  const work = publishWork((name, input) => deps.background.files.run(name, input));
  const previews = new PreviewStore(path.join(options.dataDir, 'previews'), {
    make: (file) => deps.background.resize(file, PREVIEW_OPTIONS),
    seal: (key, from, to) => work.seal(key, from, to),
  });
  const sources: PublishSources = {
    localFile: (photo) => deps.media.localFile(photo),
    async fetchFull(photo, dest) {
      const file = await ports.capture.openMedia('full', photo.id);
      if (!file) return false;
      await copyBounded(file.stream, dest, MAX_VIDEO_BYTES, file.contentLength);
      return true;
    },
    preview: (photo, file) => previews.ensure(photo.id, mediaVersion(photo), () => Promise.resolve(file)),
    sealedPreview: (photo, plain, lock) => previews.ensureSealed(photo.id, mediaVersion(photo), lock, plain),
    async thumbnail(photo) {
      const row = deps.photoRepository.find(photo.id);
      if (!row) throw new Error(`Photo ${photo.id} left the index`);
      return (await deps.media.thumbnail(row, 'background')).data;
    },
  };
  const previewsAhead = new PreviewsAhead(async (id) => {
    const row = deps.photoRepository.find(id);
    const settings = service.settings();
    if (!row || row.kind !== 'photo' || row.event_id === null || settings.destination === null) return;
    if (row.processed !== 1 || row.visible !== 1 || row.missing === 1 || (row.part_of !== null && !(deps.partsShown?.() ?? false))) return;
    const pub = repo.publication(row.event_id);
    const goesOnline =
      pub?.state === 'publishing' || (settings.enabled && pub === undefined && deps.eventRepository.current()?.id === row.event_id);
    const file = deps.media.localFile(row);
    if (!goesOnline || file === undefined) return;
    const version = mediaVersion(row);
    const plain = await previews.ensure(id, version, () => Promise.resolve(file));
    const lock = repo.lock(row.event_id);
    if (plain !== null && lock !== undefined) await previews.ensureSealed(id, version, lock, plain);
  }, ports.log);
  const queue = new PublishQueue(
    {
      repo,
      rclone,
      sources,
      settings: () => service.settings(),
      target: () => service.target(),
      event: (id) => deps.eventRepository.list().find((e) => e.id === id),
      currentEvent: () => deps.eventRepository.current(),
      newToken: newEventToken,
      clock: ports.clock,
      log: ports.log,
      stageDir: path.join(workDir, 'stage'),
      work,
      logo: () => service.logos.current(),
      brandDir: service.logos.dir,
      // A withdrawn event's previews go: they are made again if it is published again.
      forgetPreviews: async (eventId) => {
        for (const photo of repo.wantedPhotos(eventId)) await previews.remove(photo.id);
      },
      previewsAhead,
      previewsMade: () => previews.made,
    },
    { ...defaultQueueOptions, ...options.publish },
  );
  service.attach(queue);
  // New, changed and deleted photos, and a new event, are news for the queue while the live toggle
  // is on; off, events published with their button are kept in line by the periodic check.
  deps.hub.subscribe('admin', (message) => {
    if (message.event === 'photo-removed') {
      previewsAhead.drop(message.data.id);
      void previews.remove(message.data.id);
    } else if (message.event === 'photo-added' || message.event === 'photo-updated') {
      const row = deps.photoRepository.find(message.data.id);
      // A filter applied at the booth: the old picture's previews go, the new one's is made.
      if (row) void previews.remove(row.id, mediaVersion(row));
      previewsAhead.push(message.data.id);
    }
    if ((message.event.startsWith('photo-') || message.event === 'event') && service.settings().enabled) queue.wake();
  });
  return { service, queue, previews, previewsAhead };
}

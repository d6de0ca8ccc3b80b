import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CaptureClient } from '../../server/capture/capture.client.js';
import type { CaptureConnectionState } from '../../server/capture/capture.port.js';
import type { CaptureEvent } from '../../server/capture/capture.types.js';
import { startSimulator, type SimulatorHandle, type SimulatorOptions } from '../../server/capture/simulator/simulator.server.js';
import { createSystemClock } from '../../server/core/clock/clock.system.js';

export async function startTestSimulator(
  options: Pick<SimulatorOptions, 'autoCaptureSeconds' | 'version' | 'systemdUnit' | 'timeScale' | 'timing'> = {},
): Promise<SimulatorHandle> {
  return startSimulator({
    dataDir: mkdtempSync(path.join(os.tmpdir(), 'boothdeck-sim-')),
    timeScale: 0.01,
    ...options,
  });
}

export const clientFor = (
  sim: { url: string },
  options: { password?: string; timeoutMs?: number; configWriteTimeoutMs?: number } = {},
): CaptureClient =>
  new CaptureClient({
    baseUrl: sim.url,
    password: options.password ?? '0000',
    clock: createSystemClock(),
    timeoutMs: options.timeoutMs,
    configWriteTimeoutMs: options.configWriteTimeoutMs,
  });

type Waiter<T> = { match: (value: T) => boolean; resolve: (value: T) => void };

/** Records what a subscription delivers and lets a test wait for a given event or state. */
export class StreamRecorder {
  readonly events: CaptureEvent[] = [];
  readonly states: CaptureConnectionState[] = [];
  private eventWaiters: Waiter<CaptureEvent>[] = [];
  private stateWaiters: Waiter<CaptureConnectionState>[] = [];

  private readonly listeners = new Set<(event: CaptureEvent) => void>();

  readonly onEvent = (event: CaptureEvent): void => {
    this.events.push(event);
    this.eventWaiters = this.eventWaiters.filter((w) => !(w.match(event) && (w.resolve(event), true)));
    for (const listener of this.listeners) listener(event);
  };

  /** Hears every event from now on, until the returned function is called. */
  listen(listener: (event: CaptureEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  readonly onState = (state: CaptureConnectionState): void => {
    this.states.push(state);
    this.stateWaiters = this.stateWaiters.filter((w) => !(w.match(state) && (w.resolve(state), true)));
  };

  /** Waits for an event that arrives from now on and satisfies `match`. */
  nextEvent(match: (e: CaptureEvent) => boolean): Promise<CaptureEvent> {
    return new Promise((resolve) => this.eventWaiters.push({ match, resolve }));
  }

  nextState(state: CaptureConnectionState): Promise<CaptureConnectionState> {
    return new Promise((resolve) => this.stateWaiters.push({ match: (s) => s === state, resolve }));
  }
}

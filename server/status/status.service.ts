import type { Hardware } from '../../native/hardware.js';
import type { CaptureLink } from '../capture/capture-link.js';
import type { CaptureAppPort } from '../capture/capture.port.js';
import type { Clock } from '../core/clock/clock.port.js';
import type { ServiceStatus } from '../contract/status.contract.js';
import type { EventRepository } from '../events/event.repository.js';
import type { DiskState } from './disk-state.js';

export class StatusService {
  private readonly startedAt: number;

  constructor(
    private readonly version: string,
    private readonly capture: CaptureAppPort,
    private readonly link: CaptureLink,
    private readonly hardware: Hardware,
    private readonly clock: Clock,
    private readonly events: EventRepository,
    private readonly disk: DiskState,
  ) {
    this.startedAt = clock.now();
  }

  /** Photos still join the current event (the indexer sees to it), but their times will be wrong. */
  clockBehind(): boolean {
    const current = this.events.current();
    return current !== undefined && this.clock.now() < current.created_at;
  }

  async status(): Promise<ServiceStatus> {
    return {
      version: this.version,
      started_at: new Date(this.startedAt).toISOString(),
      capture: { url: this.capture.baseUrl, reachable: await this.capture.isReachable(), stream: this.link.state },
      hardware: {
        relay: this.hardware.relay.driver,
        lux: this.hardware.lux.driver,
        led: this.hardware.led.driver,
        notes: this.hardware.notes,
      },
      warnings: { disk_full: this.disk.isFull(), clock_behind: this.clockBehind() },
    };
  }
}

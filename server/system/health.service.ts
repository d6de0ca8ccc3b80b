import type { Clock } from '../core/clock/clock.port.js';
import type { EventRepository } from '../events/event.repository.js';
import type { HealthStatus } from '../contract/health.contract.js';

/**
 * What `/healthz` reports: enough for the deploy script to tell the new version from the old one
 * and to see whether guests are using the booth right now, and nothing private.
 */
export class HealthService {
  constructor(
    private readonly version: string,
    readonly simulator: boolean,
    private readonly events: EventRepository,
    private readonly clock: Clock,
  ) {}

  status(): HealthStatus {
    const current = this.events.current();
    const last = current ? this.events.stats().find((s) => s.event_id === current.id)?.last_taken : undefined;
    return {
      ok: true,
      version: this.version,
      simulator: this.simulator,
      event_active: current !== undefined,
      last_photo_age_seconds: last == null ? null : Math.max(0, Math.floor((this.clock.now() - last) / 1000)),
      event_age_seconds: current ? Math.max(0, Math.floor((this.clock.now() - current.created_at) / 1000)) : null,
    };
  }
}

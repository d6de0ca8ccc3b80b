import type { CaptureLink } from '../capture/capture-link.js';
import type { CaptureAppPort } from '../capture/capture.port.js';
import type { DashboardStatus, DiskStatus } from '../contract/dashboard.contract.js';
import type { LedDriverChoice, RelayGpioStatus } from '../contract/hardware.contract.js';
import type { PrintQueueSummary } from '../contract/print.contract.js';
import type { Clock } from '../core/clock/clock.port.js';
import type { EventRepository } from '../events/event.repository.js';
import type { PhotoRepository } from '../photos/photo.repository.js';
import type { CaptureRestartService } from '../system/capture-restart.service.js';
import type { HostProbe } from './host-probe.js';

export const LOW_DISK_BYTES = 1024 ** 3;
const HOUR = 3_600_000;
/** The chart shows at most the last two days of an event. */
const MAX_HOURS = 48;
/**
 * The capture app keeps three files per photo (camera original, unprocessed, processed) of
 * about the same size as the processed one that Boothdeck indexes.
 */
const FILES_PER_PHOTO = 3;

export interface DashboardSources {
  capture: CaptureAppPort;
  link: CaptureLink;
  /** The version the capture app announced on its stream (its `OnetimeInformationRecord`). */
  captureVersion?: () => string | null;
  restarter: CaptureRestartService;
  events: EventRepository;
  photos: PhotoRepository;
  probe: HostProbe;
  clock: Clock;
  version: string;
  build: string | null;
  dataDir: string;
  captureDataDir: string;
  /** The print queue's summary. */
  printStatus?: () => PrintQueueSummary | Promise<PrintQueueSummary>;
  /** How many guests' phones have the gallery open now (its live streams). */
  guestsOnline?: () => number;
  /** The LED ring's driver choice (real hardware only). */
  ledDriver?: () => LedDriverChoice | null | undefined;
  /** Which GPIO interface drives the flash relay (real hardware only). */
  gpioDriver?: () => RelayGpioStatus | undefined;
}

/** Everything the maintenance dashboard shows at a glance, read fresh at each request. */
export class DashboardService {
  private readonly startedAt: number;
  /** For the uptime: a duration, so on the monotonic clock. */
  private readonly startedMono: number;
  private captureBackAt: number | null = null;
  private seenDisconnect = false;

  constructor(private readonly s: DashboardSources) {
    this.startedAt = s.clock.now();
    this.startedMono = s.clock.monotonic();
    // A stream that comes back after breaking is the capture app back from a restart.
    s.link.onState((state) => {
      if (state === 'disconnected') this.seenDisconnect = true;
      if (state === 'connected' && this.seenDisconnect) {
        this.seenDisconnect = false;
        this.captureBackAt = s.clock.now();
      }
    });
  }

  async status(): Promise<DashboardStatus> {
    const { s } = this;
    const now = s.clock.now();
    const [reachable, temperature, throttle, disks, print] = await Promise.all([
      s.capture.isReachable(),
      s.probe.cpuTemperature(),
      s.probe.throttle(),
      this.disks(),
      s.printStatus ? Promise.resolve(s.printStatus()).catch(() => undefined) : Promise.resolve(undefined),
    ]);
    const current = s.events.current();
    const restartDone = s.restarter.status();
    const restartAt = restartDone.state === 'done' && restartDone.finished_at ? Date.parse(restartDone.finished_at) : null;
    const lastRestart = Math.max(this.captureBackAt ?? 0, restartAt ?? 0);
    const status: DashboardStatus = {
      version: s.version,
      build: s.build,
      started_at: new Date(this.startedAt).toISOString(),
      process_uptime_seconds: Math.round((s.clock.monotonic() - this.startedMono) / 1000),
      system_uptime_seconds: s.probe.uptimeSeconds(),
      capture: {
        url: s.capture.baseUrl,
        reachable,
        stream: s.link.state,
        version: s.captureVersion?.() ?? null,
        last_restart_at: lastRestart > 0 ? new Date(lastRestart).toISOString() : null,
      },
      event: null,
      photos_per_hour: [],
      disks,
      cpu: { temperature_c: temperature, throttle },
      guests_online: s.guestsOnline?.() ?? 0,
    };
    if (current) {
      const stats = s.events.stats().find((e) => e.event_id === current.id);
      status.event = {
        slug: current.slug,
        name: current.name,
        photo_count: stats?.photo_count ?? 0,
        created_at: new Date(current.created_at).toISOString(),
      };
      status.photos_per_hour = this.hourly(current.id, current.created_at, now);
    }
    if (print) status.print = print;
    const led = s.ledDriver?.();
    if (led !== undefined) status.led_driver = led;
    const gpio = s.gpioDriver?.();
    if (gpio !== undefined) status.gpio_driver = gpio;
    return status;
  }

  /** Every hour from the event's start (or the window's) to now, zeros included, for the chart. */
  private hourly(eventId: number, createdAt: number, now: number): { hour: string; count: number }[] {
    const counts = new Map(this.s.photos.hourlyCounts(eventId).map((r) => [r.hour, r.count]));
    const last = Math.floor(now / HOUR);
    const firstPhoto = Math.min(...counts.keys());
    const first = Math.max(Math.min(Math.floor(createdAt / HOUR), Number.isFinite(firstPhoto) ? firstPhoto : last), last - MAX_HOURS + 1);
    const out: { hour: string; count: number }[] = [];
    for (let h = first; h <= last; h++) out.push({ hour: new Date(h * HOUR).toISOString(), count: counts.get(h) ?? 0 });
    return out;
  }

  private async disks(): Promise<DiskStatus[]> {
    const average = this.s.photos.recentAverageSize();
    const perPhoto = average === null ? null : average * FILES_PER_PHOTO;
    const folders = [
      { id: 'data' as const, path: this.s.dataDir },
      { id: 'capture' as const, path: this.s.captureDataDir },
    ];
    return Promise.all(
      folders.map(async ({ id, path }): Promise<DiskStatus> => {
        const space = await this.s.probe.diskSpace(path);
        return {
          id,
          path,
          free_bytes: space?.free ?? null,
          total_bytes: space?.total ?? null,
          low: space !== null && space.free < LOW_DISK_BYTES,
          photos_left: space && perPhoto ? Math.floor(space.free / perPhoto) : null,
        };
      }),
    );
  }
}

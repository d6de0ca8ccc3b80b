import type { CaptureAppPort } from '../capture/capture.port.js';
import type { Settings } from '../contract/settings.contract.js';
import { CaptureNotKeptError, ValidationError } from '../core/errors.js';
import { issuesOf } from '../http/validate.js';
import type { CaptureRestartService } from '../system/capture-restart.service.js';
import { Mutex } from '../core/util/mutex.js';
import type { SettingsRepository } from './settings.repository.js';
import { deepMerge, defaultSettings, settingsSchema, withPrintLimits } from './settings.schema.js';
import { applyPrintLimits, changedFields, checkSettingsKey } from './settings.keys.js';
import type { AdminKey } from '../contract/session.contract.js';
import { isObject } from '../core/util/json.js';

export const SETTINGS_KEY = 'console.settings';

/**
 * Hardware, print and gallery settings. They live in SQLite, except the gallery's delete button,
 * which is the capture app's own setting: it is written there, and the capture app restarted.
 */
export class SettingsService {
  private readonly lock = new Mutex();
  private readonly listeners = new Set<(settings: Settings) => Promise<void> | void>();
  private pending = 0;

  constructor(
    private readonly repository: SettingsRepository,
    private readonly capture: CaptureAppPort,
    private readonly restarter: CaptureRestartService,
  ) {}

  /** Called after each saved change, before update() answers (the hardware applies its part at once). */
  onChange(listener: (settings: Settings) => Promise<void> | void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The stored settings, completed with defaults for anything added since they were saved. */
  stored(): Settings {
    const parsed = settingsSchema.safeParse(deepMerge(defaultSettings, withPrintLimits(this.repository.get(SETTINGS_KEY) ?? {})));
    return parsed.success ? applyPrintLimits(parsed.data, []) : defaultSettings;
  }

  /** Reads the delete-button setting from the capture app when it answers; else the last known. */
  async get(): Promise<Settings> {
    const settings = this.stored();
    try {
      const config = await this.capture.getConfig();
      const ui = isObject(config.uisettings) ? config.uisettings : {};
      if (typeof ui.gallery_show_delete === 'boolean') settings.gallery.show_delete = ui.gallery_show_delete;
    } catch {
      /* the capture app is down: the stored value is the best we know */
    }
    return settings;
  }

  /** True while a save is under way (from its request to its listeners' end). */
  saving(): boolean {
    return this.pending > 0;
  }

  /** Resolves once every save asked so far has ended (whether it succeeded or not). */
  settled(): Promise<void> {
    return this.lock.run(() => Promise.resolve());
  }

  /** `key` is the session's (the HTTP route gives it; the service's own callers change any field). */
  update(patch: unknown, key: AdminKey = 'owner'): Promise<Settings> {
    this.pending++;
    return this.lock.run(() => this.apply(patch, key)).finally(() => this.pending--);
  }

  private async apply(patch: unknown, key: AdminKey): Promise<Settings> {
    if (!isObject(patch)) throw new ValidationError('Invalid settings: (body): must be an object');
    const current = await this.get();
    // Nothing asked, nothing done: no write, no restart of the capture app.
    if (Object.keys(patch).length === 0) return current;
    const parsed = settingsSchema.safeParse(deepMerge(current, patch));
    if (!parsed.success) {
      const issues = issuesOf(parsed.error);
      throw new ValidationError(`Invalid settings: ${issues.map((i) => `${i.field}: ${i.message}`).join('; ')}`, { issues });
    }
    checkSettingsKey(current, parsed.data, key);
    const next = applyPrintLimits(parsed.data, changedFields(current, parsed.data));
    if (next.gallery.show_delete !== current.gallery.show_delete) {
      const write = await this.capture.updateConfig((config) => ({
        ...config,
        uisettings: { ...(isObject(config.uisettings) ? config.uisettings : {}), gallery_show_delete: next.gallery.show_delete },
      }));
      if (write.notKept.length > 0) {
        const paths = write.notKept.map((d) => d.path.join('.'));
        throw new CaptureNotKeptError(`The capture app did not keep ${paths.join(', ')}; nothing was saved`, {
          not_kept: [
            {
              index: null,
              field: 'gallery.show_delete',
              known: true,
              outcome: write.notKept.some((d) => d.stored === undefined) ? 'dropped' : 'changed',
            },
          ],
        });
      }
      this.restarter.request('gallery settings');
    }
    this.repository.set(SETTINGS_KEY, next);
    for (const listener of this.listeners) await listener(next);
    return next;
  }
}

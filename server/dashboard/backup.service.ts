import type { ActionsService } from '../actions/actions.service.js';
import type { NotKeptField } from '../contract/actions.contract.js';
import { newActionEntry, rebuildEntry, type StoredAction } from '../actions/action.mapper.js';
import type { CaptureAppPort } from '../capture/capture.port.js';
import { ValidationError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { isObject } from '../core/util/json.js';
import type { Db } from '../db/database.js';
import { issuesOf } from '../http/validate.js';
import type { PresetRepository } from '../presets/preset.repository.js';
import { problemsOf } from '../presets/presets.service.js';
import type { SettingsRepository } from '../settings/settings.repository.js';
import { SETTINGS_KEY, type SettingsService } from '../settings/settings.service.js';
import type { CaptureRestartService } from '../system/capture-restart.service.js';
import type { Clock } from '../core/clock/clock.port.js';
import type { PublishBackup } from '../publish/publish.schema.js';
import { BACKUP_FORMAT, BACKUP_VERSION, backupSchema, type Backup } from './backup.schema.js';

export interface BackupSources {
  db: Db;
  settings: SettingsService;
  settingsRepository: SettingsRepository;
  actions: ActionsService;
  presets: PresetRepository;
  capture: CaptureAppPort;
  restarter: CaptureRestartService;
  clock: Clock;
  log: Logger;
  /** The publishing settings (no secret), composed later than backups: asked for when needed. */
  publish?: () => {
    backup(): PublishBackup;
    checkBackup(input: PublishBackup): Promise<void>;
    restoreBackup(input: PublishBackup): Promise<void>;
  };
}

/** A backup's action as the capture app will get it: Boothdeck's mapped fields, over `base` or a new action. */
function mapped(action: StoredAction, base?: Record<string, unknown>): StoredAction {
  const name = typeof action.entry.name === 'string' ? action.entry.name : 'Action';
  return { kind: action.kind, entry: rebuildEntry(action.kind, base ?? newActionEntry(action.kind, name), action.entry) };
}

export interface RestoreSummary {
  actions: number;
  presets: number;
  /** Values the capture app did not keep, read back after each write; empty when it kept all. */
  not_kept: NotKeptField[];
}

/** Backup and restore of settings, actions and presets as one JSON document. */
export class BackupService {
  constructor(private readonly s: BackupSources) {}

  async create(): Promise<Backup> {
    const [settings, actions] = await Promise.all([this.s.settings.get(), this.s.actions.current()]);
    return {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      created_at: new Date(this.s.clock.now()).toISOString(),
      settings,
      actions,
      presets: this.s.presets
        .list()
        .map((p) => ({ name: p.name, description: p.description, created_at: p.created_at, actions: p.actions })),
      ...(this.s.publish ? { publish: this.s.publish().backup() } : {}),
    };
  }

  /** Checks the whole file before anything is replaced; throws a ValidationError naming every fault. */
  validate(input: unknown): Backup {
    const parsed = backupSchema.safeParse(input);
    if (!parsed.success) {
      const issues = issuesOf(parsed.error);
      throw new ValidationError(`Invalid backup: ${issues.map((i) => `${i.field}: ${i.message}`).join('; ')}`, { issues });
    }
    const backup = parsed.data;
    const problems = [
      ...problemsOf(backup.actions).map((p) => ({ field: 'actions', message: p })),
      ...backup.presets.flatMap((p, i) => problemsOf(p.actions).map((m) => ({ field: `presets.${i}`, message: `${p.name}: ${m}` }))),
    ];
    if (problems.length > 0) {
      throw new ValidationError(`Invalid backup: ${problems.map((i) => `${i.field}: ${i.message}`).join('; ')}`, { issues: problems });
    }
    return backup;
  }

  /**
   * The capture app's part first (actions, delete button): it is the one that may refuse, and
   * then nothing local has changed. Boothdeck's own settings and presets follow in one SQLite
   * transaction.
   */
  async restore(input: unknown): Promise<RestoreSummary> {
    const backup = this.validate(input);
    if (backup.publish && this.s.publish) await this.s.publish().checkBackup(backup.publish);
    const booth = await this.s.actions.current();
    // Unmapped settings of an action (its collage layout, its GPIO trigger) come from the
    // capture app's own entry at the same place, never from the file.
    const actions = backup.actions.map((a, i) => {
      const here = booth[i];
      return mapped(a, here?.kind === a.kind ? here.entry : undefined);
    });
    const presets = backup.presets.map((p) => ({ ...p, actions: p.actions.map((a) => mapped(a)) }));
    const notKept = [...((await this.s.actions.replaceAll(actions)).not_kept ?? [])];
    const current = await this.s.settings.get();
    let settings = backup.settings;
    if (current.gallery.show_delete !== backup.settings.gallery.show_delete) {
      const write = await this.s.capture.updateConfig((config) => ({
        ...config,
        uisettings: { ...(isObject(config.uisettings) ? config.uisettings : {}), gallery_show_delete: backup.settings.gallery.show_delete },
      }));
      if (write.notKept.length > 0) {
        // The setting stays what the capture app holds; the operator is told, never "restored" alone.
        const dropped = write.notKept.some((d) => d.stored === undefined);
        notKept.push({ index: null, field: 'gallery.show_delete', known: true, outcome: dropped ? 'dropped' : 'changed' });
        settings = { ...settings, gallery: { ...settings.gallery, show_delete: current.gallery.show_delete } };
      }
      this.s.restarter.request('backup restored');
    }
    this.s.db.transaction(() => {
      this.s.settingsRepository.set(SETTINGS_KEY, settings);
      this.s.presets.deleteAll();
      for (const p of presets) this.s.presets.insert(p);
    })();
    if (backup.publish && this.s.publish) await this.s.publish().restoreBackup(backup.publish);
    this.s.log.info(`Backup restored: ${backup.actions.length} actions, ${backup.presets.length} presets`);
    return { actions: backup.actions.length, presets: backup.presets.length, not_kept: notKept };
  }
}

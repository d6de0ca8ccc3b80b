import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { SECRET_TYPES } from '../../common/publish-destinations.js';
import type { Destination, DestinationInput, DestinationView, PublishSettings } from '../contract/publish.contract.js';
import { AppError, ValidationError } from '../core/errors.js';
import { writeFileAtomic, writeFileAtomicSync } from '../core/fs/atomic-write.js';
import type { Logger } from '../core/logger.js';
import type { PublishStop } from './publish-failure.js';
import { secretsDir, type SecretBox } from '../core/secrets/secret-box.js';
import type { SettingsRepository } from '../settings/settings.repository.js';
import { migrateLegacy } from './publish-migrate.js';
import { storedPublishSettings, type StoredPublishSettings } from './publish.schema.js';
import { destinationRoot, renderRcloneConfig } from './rclone-config.js';
import { RcloneError, type RclonePort, type RcloneTarget } from './rclone.port.js';

const SETTINGS_KEY = 'publish';
/**
 * The remote's password or secret key, kept apart from the settings so no answer, backup or page
 * built from them can carry it, and sealed (SecretBox): the database holds it only as ciphertext.
 */
const SECRET_KEY = 'publish.secret';
const SECRET_PURPOSE = 'publish.destination.password';
const TRIAL_FILE = /^trial-[0-9a-f]{12}\.conf$/;

/** A destination ready for rclone: which file describes it, and the path of its root. */
export interface PublishTarget extends RcloneTarget {
  root: string;
}

export interface DestinationFiles {
  /** Boothdeck's file, written from the typed fields (0600), in the secrets folder: it holds the password. */
  generated: string;
  /** The file in Boothdeck's data folder an owner may describe remotes in by hand. */
  owner: string;
}

export function destinationFiles(dataDir: string): DestinationFiles {
  return { generated: path.join(secretsDir(dataDir), 'rclone', 'boothdeck.conf'), owner: path.join(dataDir, 'rclone', 'rclone.conf') };
}

/** Where Boothdeck's rclone file was before it moved into the secrets folder. */
const formerGenerated = (files: DestinationFiles): string => path.join(path.dirname(files.owner), 'boothdeck.conf');

/** The place a password was given for: a password is never sent to another server than the one it came with. */
function addressOf(d: Destination): string {
  switch (d.type) {
    case 'webdav':
      return `webdav ${d.url} ${d.user}`;
    case 'sftp':
      return `sftp ${d.host} ${d.port} ${d.user}`;
    case 's3':
      return `s3 ${d.provider} ${d.endpoint} ${d.access_key_id}`;
    default:
      return d.type;
  }
}

/** A path with its symlinks resolved as far as it exists (a folder not made yet resolves through its parent). */
function resolved(p: string): string {
  const rest: string[] = [];
  for (let current = p; ; current = path.dirname(current)) {
    try {
      return path.join(realpathSync(current), ...rest.reverse());
    } catch {
      if (path.dirname(current) === current) return p;
      rest.push(path.basename(current));
    }
  }
}

/**
 * A folder destination must lie in the root the owner chose when installing the booth
 * (BOOTHDECK_PUBLISH_ROOT, /media by default: USB sticks), never anywhere the console says: the
 * booth's user could otherwise be made to write files into its own configuration.
 */
export function checkFolderRoot(dest: Destination, root: string): void {
  if (dest.type !== 'local') return;
  const base = resolved(root);
  const folder = resolved(dest.path);
  if (folder === base || folder.startsWith(base.endsWith('/') ? base : `${base}/`)) return;
  throw new FolderOutsideRootError(root);
}

/** 400 to the console that chose the folder; for the queue, a reason the console says in words (PublishStop). */
export class FolderOutsideRootError extends AppError implements PublishStop {
  readonly publishReason = 'outside_root' as const;

  constructor(root: string) {
    const message = `must be inside ${root} (the folder chosen for galleries when the booth was installed)`;
    super(400, 'folder_outside_root', `Invalid publishing settings: destination.path ${message}`, {
      issues: [{ field: 'destination.path', message }],
      root,
    });
  }
}

const stripSecret = (input: DestinationInput): Destination => {
  const { password: _secret, ...rest } = input;
  return rest;
};

/**
 * The publishing settings as stored, the remote's secret kept apart, and the rclone file written
 * from them. Nothing here ever hands rclone a path or an option typed by the operator: only
 * `boothdeck:<path>` with Boothdeck's own file, or a name the owner's file lists.
 */
export class DestinationStore {
  private saving: Promise<void> = Promise.resolve();

  constructor(
    private readonly repo: SettingsRepository,
    private readonly rclone: RclonePort,
    readonly files: DestinationFiles,
    private readonly defaults: () => Omit<StoredPublishSettings, 'destination' | 'notice'>,
    private readonly box: SecretBox,
    private readonly folderRoot: string,
  ) {}

  /** The stored settings, read back through the schema: anything stored unchecked reads as no destination. */
  stored(): StoredPublishSettings {
    const raw = this.repo.get(SETTINGS_KEY);
    const value = migrateLegacy(raw)?.settings ?? raw;
    const merged = { ...this.defaults(), destination: null, ...(value !== null && typeof value === 'object' ? value : {}) };
    const parsed = storedPublishSettings.safeParse(merged);
    return parsed.success ? parsed.data : { ...this.defaults(), destination: null, notice: null };
  }

  /** The stored secret; one stored in clear before sealing existed is read as it is (and sealed at start, `migrate`). */
  private secret(): string | null {
    const value = this.repo.get(SECRET_KEY);
    if (value === null || typeof value !== 'object') return null;
    if ('sealed' in value && typeof value.sealed === 'string') return this.box.openText(SECRET_PURPOSE, value.sealed) ?? null;
    return 'password' in value && typeof value.password === 'string' ? value.password : null;
  }

  private storeSecret(secret: string | null): void {
    if (secret === null) this.repo.delete(SECRET_KEY);
    else this.repo.set(SECRET_KEY, { sealed: this.box.sealText(SECRET_PURPOSE, secret) });
  }

  view(): PublishSettings {
    const { notice: _notice, destination, ...rest } = this.stored();
    const view: DestinationView | null =
      destination === null ? null : { ...destination, password_set: SECRET_TYPES.includes(destination.type) && this.secret() !== null };
    return { ...rest, destination: view };
  }

  notice(): 'destination_dropped' | null {
    return this.stored().notice ?? null;
  }

  /**
   * Settings stored in the old free-text form are turned into typed ones once, at start; a
   * connection string is dropped and said in words (never its text: it may hold a password).
   * Boothdeck's file is written again from what is stored, in case it was lost or edited.
   */
  migrate(log: Logger): void {
    const legacy = migrateLegacy(this.repo.get(SETTINGS_KEY));
    if (legacy) {
      this.repo.set(SETTINGS_KEY, this.stored());
      if (legacy.dropped)
        log.warn(
          'Publishing: the stored destination was an rclone connection string; it was set aside without being run. Choose a destination by type in the console.',
        );
      else log.info('Publishing: the stored destination was converted to a typed one');
    }
    const { destination } = this.stored();
    rmSync(formerGenerated(this.files), { force: true });
    const dir = path.dirname(this.files.generated);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // A test cut short by a crash may have left its file (and a password in it).
    for (const name of readdirSync(dir)) if (TRIAL_FILE.test(name)) rmSync(path.join(dir, name), { force: true });
    if (destination !== null && destination.type !== 'rclone')
      writeFileAtomicSync(this.files.generated, renderRcloneConfig(destination, this.secret()), 0o600);
  }

  /** What the next save stores as the secret: kept only for the same type and address. */
  private nextSecret(input: DestinationInput, current: Destination | null): string | null {
    if (!SECRET_TYPES.includes(input.type)) return null;
    if (input.password === null) return null;
    if (input.password !== undefined) return input.password;
    return current !== null && addressOf(current) === addressOf(stripSecret(input)) ? this.secret() : null;
  }

  /** The checks a save runs before it writes anything (a restored backup runs them before restoring anything). */
  check(dest: Destination): Promise<void> {
    checkFolderRoot(dest, this.folderRoot);
    return this.checkOwnerRemote(dest);
  }

  /** A remote of the owner's file must be one the file lists: a name rclone would not find is refused now, not at the first upload. */
  private async checkOwnerRemote(dest: Destination): Promise<void> {
    if (dest.type !== 'rclone') return;
    let names: string[];
    try {
      names = await this.rclone.listRemotes({ configFile: this.targetFor(dest).configFile });
    } catch (err) {
      if (!(err instanceof RcloneError)) throw err;
      names = [];
    }
    if (!names.includes(dest.remote)) {
      const message = `has no remote named "${dest.remote}" in ${dest.config === 'user' ? 'your rclone file' : this.files.owner}`;
      throw new ValidationError(`Invalid publishing settings: destination.remote ${message}`, {
        issues: [{ field: 'destination.remote', message }],
      });
    }
  }

  /**
   * Stores new settings: the rclone file first (0600, atomic), so a failure to write it changes
   * nothing; the secret and the settings after.
   */
  save(next: Omit<StoredPublishSettings, 'destination' | 'notice'>, input: DestinationInput | null | undefined): Promise<void> {
    // One save at a time: the file and the stored settings always come from the same request.
    const turn = this.saving.then(() => this.saveNow(next, input));
    this.saving = turn.catch(() => undefined);
    return turn;
  }

  private async saveNow(
    next: Omit<StoredPublishSettings, 'destination' | 'notice'>,
    input: DestinationInput | null | undefined,
  ): Promise<void> {
    const current = this.stored();
    let destination = current.destination;
    let secret = this.secret();
    if (input !== undefined) {
      destination = input === null ? null : stripSecret(input);
      secret = input === null ? null : this.nextSecret(input, current.destination);
      if (destination !== null) await this.check(destination);
    }
    await mkdir(path.dirname(this.files.generated), { recursive: true, mode: 0o700 });
    if (destination !== null && destination.type !== 'rclone')
      await writeFileAtomic(this.files.generated, renderRcloneConfig(destination, secret), 0o600);
    else await rm(this.files.generated, { force: true });
    this.storeSecret(secret);
    this.repo.set(SETTINGS_KEY, { ...next, destination, notice: input === undefined ? (current.notice ?? null) : null });
  }

  private targetFor(dest: Destination): PublishTarget {
    // One saved before the rule, outside the root: the queue stops on it, saying why.
    checkFolderRoot(dest, this.folderRoot);
    const root = destinationRoot(dest);
    if (dest.type !== 'rclone') return { configFile: this.files.generated, root };
    return { configFile: dest.config === 'user' ? null : this.files.owner, root };
  }

  /** The saved destination, for the queue; null when there is none. */
  target(): PublishTarget | null {
    const { destination } = this.stored();
    return destination === null ? null : this.targetFor(destination);
  }

  /**
   * A destination typed in the console but not saved, for *Tester*: its own file for the length
   * of the test, with the stored secret when it is the same place.
   */
  async withTrial<T>(input: DestinationInput, work: (target: PublishTarget) => Promise<T>): Promise<T> {
    const dest = stripSecret(input);
    await this.check(dest);
    if (dest.type === 'rclone') return work(this.targetFor(dest));
    const file = path.join(path.dirname(this.files.generated), `trial-${randomBytes(6).toString('hex')}.conf`);
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await writeFileAtomic(file, renderRcloneConfig(dest, this.nextSecret(input, this.stored().destination)), 0o600);
    try {
      return await work({ configFile: file, root: destinationRoot(dest) });
    } finally {
      await rm(file, { force: true });
    }
  }
}

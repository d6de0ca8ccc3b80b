import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type {
  EventPublication,
  OnlineLink,
  PublishOverview,
  PublishSettings,
  PublishSettingsResponse,
  PublishTestResult,
} from '../contract/publish.contract.js';
import type { Clock } from '../core/clock/clock.port.js';
import type { SecretBox } from '../core/secrets/secret-box.js';
import { ConflictError, NotFoundError, ValidationError } from '../core/errors.js';
import { PASSWORD_MAX_LENGTH } from '../../common/passphrase.js';
import { refuseWeakPassword } from './publish-password.js';
import type { EventRepository, EventRow } from '../events/event.repository.js';
import { qrSvg } from '../gallery/qr-code.js';
import { parseInput } from '../http/validate.js';
import type { SettingsRepository } from '../settings/settings.repository.js';
import { renderCompanyIndex } from './publish-page.js';
import { dateLabel, eventDest, type PublishQueue } from './publish.queue.js';
import type { PublicationRow, PublishRepository } from './publish.repository.js';
import { z } from 'zod';
import { hasNoControl, NO_CONTROL_MESSAGE } from '../core/util/text.js';
import { deriveLock } from './publish-lock.js';
import { LogoStore } from './publish-brand.js';
import { destinationInput } from './destination.schema.js';
import { destinationFiles, DestinationStore, type PublishTarget } from './publish-destination.js';
import { BOOTH_NAME, publishSettingsPatch, type PublishBackup } from './publish.schema.js';
import { RcloneError, remoteJoin, type RclonePort } from './rclone.port.js';
import { describePlace, parsePlace, placeKey } from './publish-places.js';

/** A path nobody guesses: 128 random bits. */
export const newEventToken = (): string => randomBytes(16).toString('base64url');

function defaultBoothName(): string {
  const host = os
    .hostname()
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return BOOTH_NAME.test(host) ? host : 'boothdeck';
}

export function defaultPublishSettings(): PublishSettings {
  return {
    enabled: false,
    destination: null,
    public_base_url: '',
    booth_name: defaultBoothName(),
    language: 'fr',
    colors: null,
    company_index: null,
  };
}

/**
 * The event's address online, when the settings say where the remote is served from and the event
 * is at the place they name: one not yet sent again after a move has nothing there yet.
 */
function urlOf(settings: PublishSettings, pub: PublicationRow): string | null {
  if (settings.public_base_url === '' || !atPlace(settings, pub)) return null;
  return `${settings.public_base_url}/${settings.booth_name}/${pub.token}/`;
}

/** Whether the event's files were sent to the place the settings name (rows older than places are taken to be). */
const atPlace = (settings: PublishSettings, pub: PublicationRow): boolean => pub.place === null || pub.place === placeKey(settings);

const logoBody = z.strictObject({ data: z.string().max(400_000, 'must be at most 256 KB') });
const testBody = z.strictObject({ destination: destinationInput.optional() });
const eventBody = z
  .strictObject({
    expires_on: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a day written YYYY-MM-DD')
      .nullable(),
    /** The gallery's password (write-only): a string sets or replaces it, null removes it; its strength is judged with the event. */
    password: z
      .string()
      .max(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters`)
      .refine(hasNoControl, NO_CONTROL_MESSAGE)
      .nullable(),
  })
  .partial()
  .refine((b) => b.expires_on !== undefined || b.password !== undefined, 'must hold expires_on or password');

const invalidDay = (message: string): ValidationError =>
  new ValidationError(`Invalid expiry: expires_on ${message}`, { issues: [{ field: 'expires_on', message }] });

/** The booth's own calendar day of a moment, YYYY-MM-DD. */
function localDay(at: number): string {
  const d = new Date(at);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** The online galleries: settings, the remote's test, publishing and withdrawing events, links for guests. */
export class PublishService {
  private queue: PublishQueue | undefined;
  private qr: { url: string; svg: string } | undefined;
  readonly destinations: DestinationStore;
  readonly logos: LogoStore;

  constructor(
    private readonly repo: PublishRepository,
    private readonly events: EventRepository,
    settingsRepo: SettingsRepository,
    private readonly rclone: RclonePort,
    private readonly clock: Clock,
    dataDir: string,
    private readonly scratchDir: string,
    secrets: SecretBox,
    folderRoot: string,
  ) {
    this.destinations = new DestinationStore(
      settingsRepo,
      rclone,
      destinationFiles(dataDir),
      () => {
        const { destination: _none, ...rest } = defaultPublishSettings();
        return rest;
      },
      secrets,
      folderRoot,
    );
    this.logos = new LogoStore(settingsRepo, path.join(scratchDir, 'brand'));
  }

  /** The file in Boothdeck's data folder an owner may describe remotes in by hand. */
  get configPath(): string {
    return this.destinations.files.owner;
  }

  attach(queue: PublishQueue): void {
    this.queue = queue;
  }

  settings(): PublishSettings {
    return this.destinations.view();
  }

  target(): PublishTarget | null {
    return this.destinations.target();
  }

  get(): PublishSettingsResponse {
    return { settings: this.settings(), config_path: this.configPath, notice: this.destinations.notice(), logo: this.logos.view() };
  }

  async update(body: unknown): Promise<PublishSettingsResponse> {
    const patch = parseInput(publishSettingsPatch, body, 'publishing settings');
    const { destination, ...rest } = patch;
    const { destination: _current, notice: _notice, ...current } = this.destinations.stored();
    await this.destinations.save({ ...current, ...rest }, destination);
    // The pages carry the colours and the language: each is written again.
    this.repo.markAllIndexStale();
    this.queue?.retryNow();
    return this.get();
  }

  /** The pages' logo: checked by its bytes and size, then every page is written again with it. */
  async setLogo(body: unknown): Promise<PublishSettingsResponse> {
    const { data } = parseInput(logoBody, body, 'logo');
    await this.logos.save(data);
    this.repo.markAllIndexStale();
    this.queue?.wake(false);
    return this.get();
  }

  async clearLogo(): Promise<PublishSettingsResponse> {
    await this.logos.clear();
    this.repo.markAllIndexStale();
    this.queue?.wake(false);
    return this.get();
  }

  /**
   * Writes a small file to the remote, reads it back and deletes it: the remote works both ways.
   * The body may carry a destination typed but not saved; it goes through the same checks.
   */
  async test(body: unknown = {}): Promise<PublishTestResult> {
    const { destination } = parseInput(testBody, body ?? {}, 'destination test');
    if (destination !== undefined) return this.destinations.withTrial(destination, (target) => this.probe(target));
    const target = this.target();
    if (target === null) throw new ConflictError('No destination is set: choose one, save, then test it', 'publish_not_configured');
    const result = await this.probe(target);
    if (result.ok) this.queue?.retryNow();
    return result;
  }

  private async probe(target: PublishTarget): Promise<PublishTestResult> {
    const settings = this.settings();
    const started = this.clock.monotonic();
    const content = `boothdeck ${randomBytes(12).toString('hex')}\n`;
    const probeName = `.boothdeck-probe-${randomBytes(6).toString('hex')}.txt`;
    const remoteFile = remoteJoin(target.root, settings.booth_name, probeName);
    await mkdir(this.scratchDir, { recursive: true });
    const local = path.join(this.scratchDir, probeName);
    await writeFile(local, content);
    let step: PublishTestResult['step'] = 'write';
    try {
      await this.rclone.replace(target, local, remoteFile);
      step = 'read';
      const back = await this.rclone.read(target, remoteFile);
      if (back !== content) return this.result(false, 'failed', step, started);
      step = 'delete';
      await this.rclone.removeFile(target, remoteFile);
      return this.result(true, null, null, started);
    } catch (err) {
      if (err instanceof RcloneError) return this.result(false, err.reason, step, started);
      throw err;
    } finally {
      await rm(local, { force: true });
    }
  }

  private result(ok: boolean, reason: PublishTestResult['reason'], step: PublishTestResult['step'], started: number): PublishTestResult {
    return { ok, reason, step, elapsed_ms: Math.round(this.clock.monotonic() - started) };
  }

  private publicationOf(event: EventRow, settings: PublishSettings): EventPublication {
    const pub = this.repo.publication(event.id);
    const counts = this.repo.counts(event.id);
    const shown = pub !== undefined && pub.state !== 'withdrawn';
    // Only what was seen at the place the link points to: an event waiting to be sent to a new place has nothing there yet.
    const online = shown && atPlace(settings, pub) ? counts.online : 0;
    const base = {
      slug: event.slug,
      photos_online: online,
      photos_total: counts.total,
      photos_to_send: shown ? counts.total - online : 0,
      checked_at: pub?.checked_at == null ? null : new Date(pub.checked_at).toISOString(),
      expires_on: pub?.expires_at == null || !shown ? null : localDay(pub.expires_at),
      password_set: this.repo.lock(event.id) !== undefined,
    };
    if (!pub) return { ...base, state: 'none', url: null };
    if (pub.state !== 'publishing') return { ...base, state: pub.state, url: null };
    // Online once the remote was listed and matched: the queue's word alone is not enough.
    const complete = pub.index_at !== null && pub.checked_at !== null && online >= counts.total && pub.index_stale === 0;
    return { ...base, state: complete ? 'online' : 'publishing', url: pub.index_at === null ? null : urlOf(settings, pub) };
  }

  overview(): PublishOverview {
    // The console asks every few seconds, for every event: the settings are read once.
    const settings = this.settings();
    const events = this.events.list();
    return {
      status: this.queue?.status() ?? { state: 'off', last_error: null, retry_at: null, retry_in_s: null },
      events: events.map((e) => this.publicationOf(e, settings)),
      leftovers: this.repo.leftovers().flatMap((left) => {
        const place = parsePlace(left.place);
        const event = events.find((e) => e.id === left.event_id);
        if (!place || !event) return [];
        return [{ id: left.id, slug: event.slug, where: describePlace(place, left.token), removing: left.removable === 1 }];
      }),
    };
  }

  private event(slug: string): EventRow {
    const event = this.events.findBySlug(slug);
    if (!event) throw new NotFoundError('No event with that slug');
    return event;
  }

  publish(slug: string): EventPublication {
    const event = this.event(slug);
    const settings = this.settings();
    if (settings.destination === null)
      throw new ConflictError('No remote is set: fill in the publishing settings first', 'publish_not_configured');
    const existing = this.repo.publication(event.id);
    if (!existing || existing.state !== 'publishing')
      this.repo.requestPublish(event.id, existing?.token ?? newEventToken(), this.clock.now());
    this.queue?.wake(false);
    return this.publicationOf(event, settings);
  }

  /** The publishing settings for a backup: everything but the secret. */
  backup(): PublishBackup {
    const { destination, ...rest } = this.settings();
    if (destination === null) return { ...rest, destination: null };
    const { password_set: _set, ...plain } = destination;
    return { ...rest, destination: plain };
  }

  /** Checks a backup's publishing settings before anything is restored (a remote of the owner's file must be listed). */
  async checkBackup(input: PublishBackup): Promise<void> {
    if (input.destination !== null) await this.destinations.check(input.destination);
  }

  /** Restores them as a save without password would: the stored secret is kept only for the same place. */
  async restoreBackup(input: PublishBackup): Promise<void> {
    const { destination, colors, company_index, ...rest } = input;
    const current = this.settings();
    await this.destinations.save(
      {
        ...rest,
        colors: colors === undefined ? current.colors : colors,
        company_index: company_index === undefined ? current.company_index : company_index,
      },
      destination,
    );
    this.queue?.retryNow();
  }

  /**
   * The event's take-down day (withdrawn at the booth's first check that day) and its gallery
   * password. A password may be set before the event is published, so nothing ever goes up in the
   * clear; setting, changing or removing it sends the whole event again.
   */
  async updateEvent(slug: string, body: unknown): Promise<EventPublication> {
    const event = this.event(slug);
    const { expires_on, password } = parseInput(eventBody, body, 'event publication');
    let at: number | null | undefined;
    if (expires_on !== undefined) {
      const pub = this.repo.publication(event.id);
      if (!pub || pub.state === 'withdrawn' || pub.state === 'withdrawing')
        throw new ConflictError('The event is not online: publish it first', 'publish_not_published');
      at = null;
      if (expires_on !== null) {
        const [y = 0, m = 1, d = 1] = expires_on.split('-').map(Number);
        at = new Date(y, m - 1, d).getTime();
        if (localDay(at) !== expires_on) throw invalidDay('is not a day of the calendar');
        if (expires_on < localDay(this.clock.now())) throw invalidDay('is a day already past');
      }
    }
    if (typeof password === 'string') refuseWeakPassword(password, event);
    // Derived before anything is written: a bad day leaves the password as it was, and the other way round.
    const lock = password === undefined || password === null ? password : await deriveLock(password);
    if (at !== undefined) this.repo.setExpiry(event.id, at);
    if (lock !== undefined) this.repo.setLock(event.id, lock, this.clock.now());
    this.queue?.wake(false);
    return this.publicationOf(event, this.settings());
  }

  /** A copy at an old place the owner removed by hand: the console stops listing it. */
  forgetLeftover(id: number): void {
    if (!this.repo.dropLeftover(id)) throw new NotFoundError('No such old copy');
  }

  /** A photo's own page online, for the guest gallery's lightbox: photos of the current event only, once online. */
  async photoLink(photoId: string): Promise<OnlineLink> {
    const current = this.events.current();
    const pub = current ? this.repo.publication(current.id) : undefined;
    const page = current && pub?.state === 'publishing' && pub.index_at !== null ? this.repo.onlinePage(current.id, photoId) : null;
    const base = pub && page !== null ? urlOf(this.settings(), pub) : null;
    if (base === null || page === null) return { url: null, svg: null };
    const url = `${base}${page}`;
    return { url, svg: await qrSvg(url) };
  }

  withdraw(slug: string): EventPublication {
    const event = this.event(slug);
    this.repo.requestWithdraw(event.id);
    this.queue?.wake(false);
    return this.publicationOf(event, this.settings());
  }

  /** The current event's address online, once its page is there; guests are shown nothing before. */
  async onlineLink(): Promise<OnlineLink> {
    const current = this.events.current();
    const pub = current ? this.repo.publication(current.id) : undefined;
    const url = pub && pub.state === 'publishing' && pub.index_at !== null ? urlOf(this.settings(), pub) : null;
    if (url === null) return { url: null, svg: null };
    // Every guest's phone asks now and then: the code is drawn once per address.
    if (this.qr?.url !== url) {
      this.qr = { url, svg: await qrSvg(url) };
    }
    return this.qr;
  }

  /** A plain page listing this booth's events online, for the rental company. */
  companyIndex(): string {
    const settings = this.settings();
    const list = this.events
      .list()
      .map((event) => ({ event, pub: this.repo.publication(event.id) }))
      .filter(
        (e): e is { event: EventRow; pub: PublicationRow } =>
          e.pub !== undefined && e.pub.state === 'publishing' && e.pub.index_at !== null,
      )
      .map(({ event, pub }) => ({
        name: event.name,
        dateLabel: dateLabel(event.created_at, settings.language),
        url: urlOf(settings, pub) ?? `${eventDest(this.target()?.root ?? '', settings.booth_name, pub.token)}/index.html`,
        photos: this.repo.counts(event.id).online,
      }));
    return renderCompanyIndex(settings.booth_name, settings.language, list);
  }
}

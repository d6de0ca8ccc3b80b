import { Readable } from 'node:stream';
import { CaptureUnavailableError } from '../core/errors.js';
import type { CaptureAppPort, CaptureConnectionState, CaptureFile, CaptureSubscription } from './capture.port.js';
import { isUuid, type ActionKind, type CaptureConfig, type CaptureEvent, type MediaItem, type MediaVariant } from './capture.types.js';
import { defaultConfig } from './simulator/simulator.defaults.js';
import { compareWrite, type ConfigWrite } from './config-readback.js';

/**
 * An in-memory capture app for unit tests: it keeps a configuration, media items and file
 * bytes, records restarts and triggers, and lets a test emit live events or take it down.
 */
export class FakeCaptureApp implements CaptureAppPort {
  readonly baseUrl = 'http://capture.fake';
  config: CaptureConfig = defaultConfig('0000');
  items: MediaItem[] = [];
  files = new Map<string, Buffer>();
  userFiles: string[] = ['userdata/demoassets/frames/frame_image_photobooth-app.png'];
  restarts = 0;
  configWrites = 0;
  triggers: { kind: ActionKind; index: number }[] = [];
  down = false;
  private readonly subscribers = new Set<{ onEvent: (e: CaptureEvent) => void; onState: (s: CaptureConnectionState) => void }>();

  private guard(): void {
    if (this.down) throw new CaptureUnavailableError('The capture app at http://capture.fake is not reachable (ECONNREFUSED)');
  }

  async getConfig(): Promise<CaptureConfig> {
    this.guard();
    return structuredClone(this.config);
  }

  async updateConfig(change: (config: CaptureConfig) => CaptureConfig | null): Promise<ConfigWrite> {
    this.guard();
    const before = this.config;
    const next = change(structuredClone(this.config));
    if (next === null) return { config: structuredClone(this.config), notKept: [], verified: true, written: false };
    this.config = structuredClone(next);
    this.configWrites++;
    return { config: structuredClone(next), notKept: compareWrite(before, next, this.config), verified: true, written: true };
  }

  async listMedia(offset: number, limit: number): Promise<MediaItem[]> {
    this.guard();
    return this.items.slice(offset, offset + limit);
  }

  async getMediaItem(id: string): Promise<MediaItem | null> {
    this.guard();
    return this.items.find((i) => i.id === id) ?? null;
  }

  private file(key: string): CaptureFile | null {
    const data = this.files.get(key);
    return data ? { stream: Readable.from([data]), contentType: 'image/jpeg', contentLength: data.length } : null;
  }

  async openMedia(variant: MediaVariant, id: string): Promise<CaptureFile | null> {
    this.guard();
    return isUuid(id) ? this.file(`/media/${variant}/${id}`) : null;
  }

  async openFile(urlPath: string): Promise<CaptureFile | null> {
    this.guard();
    return this.file(urlPath);
  }

  async listUserFiles(query: string): Promise<string[]> {
    this.guard();
    return this.userFiles.filter((f) => f.toLowerCase().includes(query.toLowerCase()));
  }

  async deleteMedia(id: string): Promise<boolean> {
    this.guard();
    const before = this.items.length;
    this.items = this.items.filter((i) => i.id !== id);
    return this.items.length < before;
  }

  async triggerAction(kind: ActionKind, index: number): Promise<void> {
    this.guard();
    this.triggers.push({ kind, index });
  }

  /** Called after each restart, for a test to script what the app does next (stay down…). */
  onRestart: (() => void) | undefined;

  async restart(): Promise<void> {
    this.guard();
    this.restarts++;
    this.onRestart?.();
  }

  reloads = 0;
  /** Called after each reload, like onRestart. */
  onReload: (() => void) | undefined;

  async reload(): Promise<void> {
    this.guard();
    this.reloads++;
    this.onReload?.();
  }

  async isReachable(): Promise<boolean> {
    return !this.down;
  }

  subscribe(
    onEvent: (event: CaptureEvent) => void,
    onState: (state: CaptureConnectionState) => void = () => undefined,
  ): CaptureSubscription {
    const entry = { onEvent, onState };
    this.subscribers.add(entry);
    onState('connected');
    return { close: () => this.subscribers.delete(entry) };
  }

  emit(event: CaptureEvent): void {
    for (const s of this.subscribers) s.onEvent(event);
  }

  /** What the stream tells its subscribers when it breaks (`disconnected`) or comes back. */
  streamState(state: CaptureConnectionState): void {
    for (const s of this.subscribers) s.onState(state);
  }
}

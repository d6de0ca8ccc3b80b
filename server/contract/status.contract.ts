export type CaptureStreamState = 'connecting' | 'connected' | 'disconnected';

export interface ServiceStatus {
  version: string;
  started_at: string;
  capture: { url: string; reachable: boolean; stream: CaptureStreamState };
  hardware: { relay: string; lux: string; led: string; notes: string[] };
  /** Conditions the operator should act on; the console words them. */
  warnings: {
    /** The booth's storage is full: new photos, events and settings cannot be saved. */
    disk_full: boolean;
    /** The booth's clock reads earlier than the current event's creation (no network time yet). */
    clock_behind: boolean;
  };
}

export type CaptureStreamState = 'connecting' | 'connected' | 'disconnected';

export interface ServiceStatus {
  version: string;
  started_at: string;
  capture: { url: string; reachable: boolean; stream: CaptureStreamState };
  hardware: { relay: string; lux: string; led: string; notes: string[] };
}

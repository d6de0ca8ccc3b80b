export interface LuxSensorPort {
  readonly driver: string;
  /** Ambient light in lux. */
  read(): Promise<number>;
  close(): Promise<void>;
}

export interface LuxOptions {
  bus: number;
  address: number;
}

declare module 'pino-roll' {
  import type { DestinationStream } from 'pino';

  interface PinoRollOptions {
    file: string | (() => string);
    size?: number | string;
    frequency?: number | 'daily' | 'hourly';
    extension?: string;
    mkdir?: boolean;
    symlink?: boolean;
    limit?: { count?: number; removeOtherLogFiles?: boolean };
    dateFormat?: string;
    sync?: boolean;
  }

  interface RollStream extends DestinationStream {
    end(): void;
    flushSync(): void;
    once(event: 'close' | 'finish', listener: () => void): void;
  }

  export default function build(options: PinoRollOptions): Promise<RollStream>;
}

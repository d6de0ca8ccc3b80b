/** The only programs Boothdeck ever runs; anything else is refused before a process starts. */
export const ALLOWED_COMMANDS = [
  'systemctl',
  'wtype',
  'reboot',
  'lp',
  'lpstat',
  'lpoptions',
  'cancel',
  // Resuming a queue CUPS stopped, and its error policy: the booth's user must be in the lpadmin group.
  'cupsenable',
  'cupsaccept',
  'lpadmin',
  'vcgencmd',
  'ffmpeg',
  'rclone',
] as const;
export type SystemCommand = (typeof ALLOWED_COMMANDS)[number];

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string>;
  timeoutMs?: number;
  /**
   * 'background': the program runs below the capture app (nice 19, set on its pid as it starts):
   * uploads and video frames, never what a guest or the operator waits on.
   */
  priority?: 'background';
}

/** System commands as argv arrays: no shell, no string ever parsed into a command line. */
export interface SystemPort {
  run(command: SystemCommand, args: readonly string[], options?: RunOptions): Promise<CommandResult>;
}

/** What may refresh the booth's screen: keystroke tools only, never a command with wider effects (reboot…). */
export const SCREEN_REFRESH_COMMANDS = ['wtype'] as const satisfies readonly SystemCommand[];
export const isScreenRefreshCommand = (value: string): value is (typeof SCREEN_REFRESH_COMMANDS)[number] =>
  (SCREEN_REFRESH_COMMANDS as readonly string[]).includes(value);

export const isAllowedCommand = (value: string): value is SystemCommand => (ALLOWED_COMMANDS as readonly string[]).includes(value);

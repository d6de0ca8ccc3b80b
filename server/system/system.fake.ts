import { isAllowedCommand, type CommandResult, type RunOptions, type SystemCommand, type SystemPort } from './system.port.js';

export interface RecordedCommand {
  command: SystemCommand;
  args: string[];
  env: Record<string, string> | undefined;
}

/** Records every command instead of running it; answers with a scripted result. */
export class FakeSystem implements SystemPort {
  readonly calls: RecordedCommand[] = [];
  private readonly results = new Map<SystemCommand, CommandResult>();

  respond(command: SystemCommand, result: CommandResult): void {
    this.results.set(command, result);
  }

  async run(command: SystemCommand, args: readonly string[], options: RunOptions = {}): Promise<CommandResult> {
    if (!isAllowedCommand(command)) throw new Error(`Command not allowed: ${String(command)}`);
    this.calls.push({ command, args: [...args], env: options.env });
    return this.results.get(command) ?? { code: 0, stdout: '', stderr: '' };
  }
}

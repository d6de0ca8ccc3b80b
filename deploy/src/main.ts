import { mkdirSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { makeCtx } from './booth/context.js';
import { EXIT } from './booth/log.js';
import { checkMain, ensureIncoming, receiveMain } from './commands/check.js';
import { followMain, startMain } from './commands/follow.js';
import { inboxMain } from './commands/inbox.js';
import { pullMain } from './commands/pull.js';
import { recoverMain } from './commands/recover.js';
import { runMain } from './commands/run.js';
import { statusMain } from './commands/status.js';
import { trialMain } from './commands/trial.js';
import { newRunId } from './rules/names.js';
import path from 'node:path';
import { rmSync } from 'node:fs';

const USAGE = `The booth side of a Boothdeck deploy, run as the booth's user (docs/deployment.md).

  check ID SIZE FORCE                before any byte moves: another deploy (73), an event under way
                                     (75), room for a release of SIZE bytes (74)
  receive ID NAME SIZE SHA256 [DATE] the AppImage on standard input, checked, or nothing kept
  start ID install NAME VERSION FORCE | start ID rollback FORCE
                                     detaches the install from this connection, then follows it
  follow ID                          the lines of a run, until its result
  rollback [--force]                 (boothdeck-rollback) the previous release back, guarded like a deploy
  recover [--wait | --boot]          finishes a switch that was interrupted
  pull                               the timer's: installs the newest published release when idle
  inbox                              the runner's one command (sudoers): does what the inbox's request says
  status                             what runs, what current and previous point to

Exit codes: 0 done, 1 failed (the booth runs what it ran before), 64 usage, 70 stopped
unexpectedly, 73 another deploy under way, 74 not enough space, 75 event under way.
`;

async function main(argv: string[]): Promise<number> {
  const [command = '', ...args] = argv;
  const controller = new AbortController();
  const detached = command === 'run' || (command === 'recover' && args.length > 0);
  const ctx = makeCtx(
    process.env.HOME ?? os.homedir(),
    undefined,
    !detached,
    { launcher: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../boothdeck-deploy') },
    controller.signal,
  );
  for (const dir of [ctx.paths.releases, ctx.paths.incoming, ctx.paths.runs]) mkdirSync(dir, { recursive: true });
  if (detached) {
    // The connection that started it is not its own: its end must not end the switch. A SIGTERM
    // (the deploy's unit stopped, the booth shut down) brings the booth to a running release first.
    process.on('SIGHUP', () => undefined);
    process.on('SIGINT', () => undefined);
    process.on('SIGTERM', () => controller.abort());
  }
  switch (command) {
    case 'run':
      return runMain(ctx, args);
    case 'check':
      return checkMain(ctx, args);
    case 'receive': {
      // A receiver stopped halfway keeps nothing: not the part file, not the kit beside it.
      const dir = args[0] && /^[A-Za-z0-9_][A-Za-z0-9._-]*$/.test(args[0]) ? path.join(ctx.paths.incoming, args[0]) : undefined;
      for (const sig of ['SIGHUP', 'SIGINT', 'SIGTERM'] as const) {
        process.on(sig, () => {
          if (dir) rmSync(dir, { recursive: true, force: true });
          process.exit(128 + os.constants.signals[sig]);
        });
      }
      return receiveMain(ctx, args, process.stdin);
    }
    case 'start':
      return startMain(ctx, args);
    case 'follow':
      return followMain(ctx, args);
    case 'rollback':
      return startMain(ctx, [newRunId('rollback', new Date(), process.pid), 'rollback', args[0] === '--force' ? '1' : '0']);
    case 'recover':
      return recoverMain(ctx, args);
    case 'pull':
      return pullMain(ctx);
    case 'inbox':
      return inboxMain(ctx);
    case 'status':
      return statusMain(ctx);
    case 'trial':
      return trialMain(ctx, args);
    case 'incoming':
      // Used by scripts/deploy.sh before it sends a kit: the run's folder.
      if (!args[0] || !/^[A-Za-z0-9_][A-Za-z0-9._-]*$/.test(args[0])) return EXIT.usage;
      ensureIncoming(ctx, args[0]);
      return EXIT.done;
    default:
      process.stderr.write(USAGE);
      return EXIT.usage;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`boothdeck-deploy: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(EXIT.unexpected);
  },
);

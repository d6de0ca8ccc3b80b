import { closeSync, openSync, readSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Ctx } from '../booth/context.js';
import { detach } from '../booth/detach.js';
import { readSmall } from '../booth/files.js';
import { EXIT } from '../booth/log.js';
import { alive, sleep } from '../booth/process.js';
import { monotonicMs } from '../booth/systemd.js';
import { isToken } from '../rules/names.js';

/**
 * `start ID ACTION …`: detaches the run from whoever started it, then follows its lines until its
 * result (`follow ID` follows it again). The run's last line is `RESULT <code>`.
 */
export async function startMain(ctx: Ctx, args: string[]): Promise<number> {
  const [id] = args;
  if (!id || !isToken(id)) {
    ctx.log.note('Refusing a malformed deploy id');
    return EXIT.usage;
  }
  for (const f of ['pid', 'result']) rmSync(path.join(ctx.paths.runs, `${id}.${f}`), { force: true });
  writeFileSync(path.join(ctx.paths.runs, `${id}.log`), '');
  const where = await detach(ctx, id, ['run', ...args]);
  if (!where) {
    ctx.log.note('FAILED: the install could not be started');
    return EXIT.unexpected;
  }
  ctx.log.note(`The install goes on by itself (${where}): closing this connection no longer stops it`);
  return followMain(ctx, [id]);
}

export async function followMain(ctx: Ctx, args: string[]): Promise<number> {
  const [id] = args;
  if (!id || !isToken(id)) return EXIT.usage;
  const { runs } = ctx.paths;
  const { followIntervalMs, followTimeoutSeconds } = ctx.settings;
  let pid = NaN;
  for (let i = 0; i < 1200 && !(pid > 0); i++) {
    pid = Number(readSmall(path.join(runs, `${id}.pid`), 100)?.trim());
    if (!(pid > 0)) await sleep(50);
  }
  if (!(pid > 0)) {
    process.stdout.write(`The install did not start: see ${path.join(runs, `${id}.out`)} on the booth\n`);
    return EXIT.unexpected;
  }
  const log = path.join(runs, `${id}.log`);
  const deadline = monotonicMs() + followTimeoutSeconds * 1000;
  let offset = 0;
  let pending = '';
  for (;;) {
    const gone = !alive(pid);
    const chunk = readFrom(log, offset);
    offset += chunk.length;
    pending += chunk.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (!write(`${line}\n`)) return EXIT.unexpected;
      const result = /^RESULT ([0-9]+)$/.exec(line);
      if (result) return Number(result[1]);
    }
    if (gone && chunk.length === 0) {
      process.stdout.write(
        'The install stopped without a result (killed?): the booth finishes the switch by itself; boothdeck-deploy status says where it stands\n',
      );
      return EXIT.unexpected;
    }
    if (monotonicMs() > deadline) {
      process.stdout.write(
        `Still installing after ${followTimeoutSeconds} s: the booth goes on by itself; see ~/boothdeck/deploy.log there\n`,
      );
      return 124;
    }
    await sleep(followIntervalMs);
  }
}

function readFrom(file: string, offset: number): Buffer {
  let fd: number | undefined;
  try {
    const size = statSync(file).size;
    if (size <= offset) return Buffer.alloc(0);
    fd = openSync(file, 'r');
    const buf = Buffer.alloc(Math.min(size - offset, 1 << 20));
    const n = readSync(fd, buf, 0, buf.length, offset);
    return buf.subarray(0, n);
  } catch {
    return Buffer.alloc(0);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** A failed write (our output went away) ends only this reader: the install does not need it. */
function write(text: string): boolean {
  try {
    writeFileSync(1, text);
    return true;
  } catch {
    return false;
  }
}

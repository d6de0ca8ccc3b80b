import { createHash } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';
import { eventGuard, roomCheck } from '../booth/checks.js';
import type { Ctx } from '../booth/context.js';
import { readSmall, writeAtomic } from '../booth/files.js';
import { fleetPublish, fleetReport } from '../booth/fleet-report.js';
import { acquireLock } from '../booth/lock.js';
import { EXIT } from '../booth/log.js';
import { alive } from '../booth/process.js';
import { rememberReleaseDate } from '../booth/release-store.js';
import { isBuildDate, isToken } from '../rules/names.js';

async function lockFree(ctx: Ctx): Promise<boolean> {
  const lock = await acquireLock(ctx.paths.lock, false);
  await lock?.release();
  if (!lock) {
    const holder = readSmall(ctx.paths.lockOwner, 300)?.trim() || 'another deploy';
    ctx.log.note(`REFUSED: another deploy is under way on this booth (${holder}). Try again once it has finished.`);
  }
  return lock !== undefined;
}

/**
 * `check ID SIZE FORCE`: before any byte of a release moves, another deploy (73), an event under
 * way (75), room for a release of SIZE bytes (74). Every refusal is on the fleet page at once.
 */
export async function checkMain(ctx: Ctx, args: string[]): Promise<number> {
  const [id, size, force] = args;
  if (!id || !isToken(id) || !/^[0-9]{1,12}$/.test(size ?? '') || (force !== '0' && force !== '1')) {
    ctx.log.note('usage: check ID SIZE FORCE');
    return EXIT.usage;
  }
  ctx.log.runId = id;
  const refuse = async (code: number): Promise<number> => {
    // A refused deploy leaves nothing behind, not even the kit it was sent.
    rmSync(path.join(ctx.paths.incoming, id), { recursive: true, force: true });
    await fleetPublish(ctx);
    return code;
  };
  if (!(await lockFree(ctx))) return refuse(EXIT.busy);
  const guard = await eventGuard(ctx, force === '1');
  if (!guard.go) {
    fleetReport(ctx, 'deferred', guard.event, guard.sentence.replace(/^REFUSED: /, ''));
    return refuse(EXIT.deferred);
  }
  const refusal = await roomCheck(ctx, Number(size), 2, 'Nothing was downloaded.');
  if (refusal) {
    ctx.log.note(refusal);
    fleetReport(ctx, 'no-space', guard.event, refusal.replace(/^REFUSED: /, ''));
    return refuse(EXIT.noSpace);
  }
  return EXIT.done;
}

/** Removes what uploads that died left behind: a folder whose receiver is gone, or that nothing touched for an hour. */
function cleanIncoming(ctx: Ctx, keep: string): void {
  let entries: string[];
  try {
    entries = readdirSync(ctx.paths.incoming);
  } catch {
    return;
  }
  for (const entry of entries) {
    if (entry === keep) continue;
    const dir = path.join(ctx.paths.incoming, entry);
    const pid = Number(readSmall(path.join(dir, 'receiver.pid'), 100)?.trim());
    if (pid > 0 && alive(pid)) continue;
    let stale = pid > 0;
    try {
      stale ||= Date.now() - statSync(dir).mtimeMs > 3600_000;
    } catch {
      continue;
    }
    if (stale) {
      rmSync(dir, { recursive: true, force: true });
      ctx.log.note(`Removed the leftovers of an interrupted upload (${entry})`);
    }
  }
}

/**
 * `receive ID NAME SIZE SHA256 [DATE]`: the AppImage on standard input, into a part file whose size
 * and SHA-256 are checked before it is renamed. A cut or damaged upload, or a disk that fills up,
 * leaves nothing behind (the part file and the kit beside it go).
 */
export async function receiveMain(ctx: Ctx, args: string[], input: AsyncIterable<Buffer>): Promise<number> {
  const [id, name, size, sha, date] = args;
  if (!id || !name || !isToken(id) || !isToken(name) || !/^[0-9]{1,12}$/.test(size ?? '')) {
    ctx.log.note(`Refusing a malformed upload: ${id ?? ''} ${name ?? ''} ${size ?? ''}`);
    return EXIT.usage;
  }
  if (!/^[0-9a-f]{64}$/.test(sha ?? '')) {
    ctx.log.note('Refusing a malformed checksum');
    return EXIT.usage;
  }
  ctx.log.runId = id;
  const dir = path.join(ctx.paths.incoming, id);
  if (!existsSync(dir)) {
    ctx.log.note(`No deploy ${id} was begun on this booth`);
    return EXIT.usage;
  }
  const part = path.join(dir, `${name}.part`);
  const fail = (code: number, sentence: string): number => {
    rmSync(dir, { recursive: true, force: true });
    ctx.log.note(sentence);
    return code;
  };
  writeAtomic(path.join(dir, 'receiver.pid'), `${process.pid}\n`);
  if (!(await lockFree(ctx))) return fail(EXIT.busy, 'Nothing was uploaded.');
  cleanIncoming(ctx, id);
  const refusal = await roomCheck(ctx, Number(size), 1, 'Nothing was uploaded.');
  if (refusal) return fail(EXIT.noSpace, refusal);
  const expected = Number(size);
  const hash = createHash('sha256');
  let got = 0;
  const fd = openSync(part, 'w', 0o644);
  let writeFailed = false;
  let inputFailed: string | undefined;
  try {
    for await (const chunk of input) {
      got += chunk.length;
      if (got > expected) break;
      hash.update(chunk);
      try {
        for (let off = 0; off < chunk.length;) off += writeSync(fd, chunk, off);
      } catch {
        writeFailed = true;
        break;
      }
    }
    if (!writeFailed) fsyncSync(fd);
  } catch (err) {
    inputFailed = (err as Error).message;
  } finally {
    closeSync(fd);
  }
  if (writeFailed) return fail(EXIT.noSpace, 'FAILED: the upload could not be written (disk full?): nothing was kept');
  if (inputFailed)
    return fail(EXIT.failed, `FAILED: the upload stopped after ${got} of ${expected} bytes (${inputFailed}): nothing was kept`);
  if (got !== expected)
    return fail(EXIT.failed, `FAILED: the upload stopped after ${got} of ${expected} bytes (connection lost?): nothing was kept`);
  if (hash.digest('hex') !== sha) return fail(EXIT.failed, 'FAILED: the upload arrived damaged (checksum differs): nothing was kept');
  renameSync(part, path.join(dir, name));
  rmSync(path.join(dir, 'receiver.pid'), { force: true });
  if (date && isBuildDate(date)) rememberReleaseDate(ctx.paths, name, date);
  ctx.log.note(`Received ${name} (${Math.floor(expected / 1048576)} MB, checksum verified)`);
  return EXIT.done;
}

export function ensureIncoming(ctx: Ctx, id: string): void {
  mkdirSync(path.join(ctx.paths.incoming, id), { recursive: true });
}

import { createHash } from 'node:crypto';
import { copyFileSync, createReadStream, existsSync } from 'node:fs';
import path from 'node:path';
import { eventGuard } from '../booth/checks.js';
import { fleetEnv, type Ctx } from '../booth/context.js';
import { FETCH_HELPER, fetchFromStore, fetchText, storeUrlProblem } from '../booth/download.js';
import { linkOf } from '../booth/files.js';
import { fleetPublish, fleetReport } from '../booth/fleet-report.js';
import { acquireLock } from '../booth/lock.js';
import { EXIT } from '../booth/log.js';
import { isRefused, rememberReleaseDate } from '../booth/release-store.js';
import { parseManifest } from '../rules/manifest.js';
import { newRunId } from '../rules/names.js';
import { checkMain, ensureIncoming, receiveMain } from './check.js';
import { startMain } from './follow.js';
import { readJournal } from '../switch/recover.js';

const MANIFEST_LIMIT = 65536;

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * The pull timer's (every 15 min): reads boothdeck-release.txt where the pipeline publishes each
 * build of main (BOOTHDECK_RELEASES_URL in fleet.env, or `private`: the root-owned fetch helper
 * reads a private store with a token this user never sees). A booth on an older release, however
 * many it missed, checks the guard and its space first, downloads only then, and installs through
 * the same lock, trial start and journalled switch as a pushed deploy.
 */
export async function pullMain(ctx: Ctx): Promise<number> {
  const { log, paths } = ctx;
  const url = fleetEnv(paths).BOOTHDECK_RELEASES_URL;
  if (!url) {
    log.note(`Pull: no BOOTHDECK_RELEASES_URL in ${paths.fleetEnv}: this booth gets releases only when the pipeline pushes them`);
    return EXIT.done;
  }
  const problem = url === 'private' ? undefined : storeUrlProblem(url);
  if (problem) {
    log.note(`Pull: BOOTHDECK_RELEASES_URL is refused (${problem}); nothing was downloaded`);
    return EXIT.failed;
  }
  const lock = await acquireLock(paths.lock, false);
  if (!lock) {
    log.note('Pull: another deploy is under way; the next tick looks again');
    return EXIT.done;
  }
  await lock.release();
  // A deploy killed halfway (and not finished by its watcher) is finished by the next tick.
  if (readJournal(ctx)) await startMain(ctx, [newRunId('recover', new Date(), process.pid), 'recover']);
  let text: string;
  try {
    text = await fetchText(url, 'boothdeck-release.txt', MANIFEST_LIMIT);
  } catch (err) {
    if (url === 'private' && !existsSync(FETCH_HELPER)) {
      log.note(
        "Pull: BOOTHDECK_RELEASES_URL=private, but the private store's fetch helper is not installed: run once on the booth: sudo boothdeck-system install, then sudo boothdeck-system store github=OWNER/REPO (docs/deployment.md)",
      );
      return EXIT.failed;
    }
    log.note(
      `Pull: boothdeck-release.txt could not be read from ${url === 'private' ? 'the private release store' : url} (${(err as Error).message}); the next tick tries again`,
    );
    return EXIT.done;
  }
  const manifest = parseManifest(text);
  if (!manifest.ok) {
    log.note(`Pull: boothdeck-release.txt is malformed (${manifest.problem}); nothing was downloaded`);
    return EXIT.failed;
  }
  const { version, file, size, sha256, date } = manifest.value;
  const current = linkOf(paths.root, 'current');
  if (current === `releases/${file}`) {
    const guard = await eventGuard(ctx, false);
    fleetReport(
      ctx,
      guard.crashLoop ? 'crash-loop' : 'up-to-date',
      guard.event,
      guard.crashLoop ? `${version} keeps dying under the unit` : `${version} is the newest release`,
    );
    await fleetPublish(ctx);
    return EXIT.done;
  }
  if (isRefused(paths, file)) {
    log.note(`Pull: ${version} failed or was rolled back on this booth; waiting for a newer release`);
    return EXIT.done;
  }
  const id = newRunId(version, new Date(), process.pid);
  ctx.log.runId = id;
  log.note(`Pull: ${version} is published (this booth runs ${current ?? 'nothing'}); checking before the download`);
  ensureIncoming(ctx, id);
  const checked = await checkMain(ctx, [id, String(size), '0']);
  if (checked === EXIT.deferred || checked === EXIT.busy) {
    log.note('Pull: deferred; the next tick tries again');
    return EXIT.done;
  }
  if (checked !== EXIT.done) return checked;
  ensureIncoming(ctx, id);
  const stored = path.join(paths.releases, file);
  if (existsSync(stored) && (await sha256Of(stored)) === sha256) {
    copyFileSync(stored, path.join(paths.incoming, id, file));
    log.note(`Pull: ${file} is already on the booth (stored before an event): nothing to download`);
  } else {
    const received = await receiveMain(
      ctx,
      [id, file, String(size), sha256, ...(date ? [date] : [])],
      fetchFromStore(url, file, size, 60_000),
    );
    if (received !== EXIT.done) return received;
  }
  rememberReleaseDate(paths, file, date);
  return startMain(ctx, [id, 'install', file, version, '0']);
}

import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FleetEntry, FleetEventState, FleetOutcome } from '../../../server/contract/fleet.contract.js';
import { versionOf } from '../rules/names.js';
import { fleetPage, parseFleetEntry, summaryRow } from '../rules/fleet.js';
import { boothName, fleetEnv, type Ctx } from './context.js';
import { linkOf, readSmall, writeAtomic } from './files.js';
import { runCommand } from './process.js';
import { releaseDate } from './release-store.js';

/**
 * After every outcome the booth writes its line of the fleet page (~/boothdeck/fleet/<name>.json),
 * prints it as a FLEET line (a row of the pipeline's job summary), and, with BOOTHDECK_FLEET_REMOTE
 * set in fleet.env, uploads it with rclone and rewrites the page from every booth's line.
 */
export function fleetReport(ctx: Ctx, outcome: FleetOutcome, event: FleetEventState, detail: string): FleetEntry {
  const { paths } = ctx;
  const current = linkOf(paths.root, 'current');
  const entry: FleetEntry = {
    booth: boothName(paths),
    version: (current && versionOf(current)) ?? '-',
    release_date: releaseDate(paths, current),
    last_outcome: outcome,
    last_deploy_at: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    event,
    detail: detail.slice(0, 500),
  };
  try {
    mkdirSync(paths.fleet, { recursive: true });
    writeAtomic(path.join(paths.fleet, `${entry.booth}.json`), `${JSON.stringify(entry)}\n`);
  } catch (err) {
    ctx.log.note(`WARNING: the fleet entry could not be written (${(err as Error).message})`);
  }
  ctx.log.note(`FLEET ${summaryRow(entry)}`);
  return entry;
}

/** The last entry this booth wrote (its event state carried into a report that did not look). */
export function lastFleetEntry(ctx: Ctx): FleetEntry | undefined {
  const text = readSmall(path.join(ctx.paths.fleet, `${boothName(ctx.paths)}.json`));
  return text === undefined ? undefined : parseFleetEntry(text);
}

/** A remote of the booth user's rclone.conf and a folder (`galerie:fleet`), or a local folder: never a connection string. */
const REMOTE = /^([A-Za-z0-9_-]+:[A-Za-z0-9_./-]*|\/[A-Za-z0-9_./-]+)$/;

let publishing: Promise<void> = Promise.resolve();

/**
 * Uploads this booth's entry and rewrites fleet.json and index.html from every booth's. Never
 * fails a deploy. One upload at a time, in order: a later outcome is never overwritten by an earlier one.
 */
export function fleetPublish(ctx: Ctx): Promise<void> {
  publishing = publishing.then(() => publishOnce(ctx));
  return publishing;
}

async function publishOnce(ctx: Ctx): Promise<void> {
  const remote = fleetEnv(ctx.paths).BOOTHDECK_FLEET_REMOTE;
  if (!remote) return;
  if (!REMOTE.test(remote) || remote.includes('..')) {
    ctx.log.note(`WARNING: BOOTHDECK_FLEET_REMOTE is not a remote and folder (name:folder) of rclone.conf: the fleet page is not updated`);
    return;
  }
  const name = boothName(ctx.paths);
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-fleet-'));
  const rclone = async (...args: string[]): Promise<void> => {
    const { code, stderr } = await runCommand('rclone', ['-q', ...args], { timeoutMs: 60_000 });
    if (code !== 0) throw new Error(code === 127 ? 'rclone is not installed' : stderr.trim().split('\n').at(-1) || `rclone exit ${code}`);
  };
  try {
    await rclone('copyto', path.join(ctx.paths.fleet, `${name}.json`), `${remote}/booths/${name}.json`);
    const booths = path.join(tmp, 'booths');
    mkdirSync(booths);
    await rclone('copy', '--max-size', '64k', '--include', '*.json', `${remote}/booths`, booths);
    const entries = readdirSync(booths).flatMap((f) => {
      const entry = parseFleetEntry(readSmall(path.join(booths, f)) ?? '');
      return entry ? [entry] : [];
    });
    const page = fleetPage(entries);
    writeFileSync(path.join(tmp, 'fleet.json'), page.json);
    writeFileSync(path.join(tmp, 'index.html'), page.html);
    await rclone('copyto', path.join(tmp, 'fleet.json'), `${remote}/fleet.json`);
    await rclone('copyto', path.join(tmp, 'index.html'), `${remote}/index.html`);
    ctx.log.note(`Fleet page updated on ${remote}`);
  } catch (err) {
    ctx.log.note(
      `WARNING: the fleet page could not be updated on ${remote} (${(err as Error).message}); the next deploy or pull tries again`,
    );
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

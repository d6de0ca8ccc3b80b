import { copyFileSync, createReadStream, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fleetEnv, type Ctx } from '../booth/context.js';
import { readSmall } from '../booth/files.js';
import { EXIT } from '../booth/log.js';
import { parseRequest } from '../rules/manifest.js';
import { isToken, versionOf } from '../rules/names.js';
import { checkMain, ensureIncoming, receiveMain } from './check.js';
import { startMain } from './follow.js';

/** The kit's files in the inbox: its top-level files with safe names, and the program. Copied, never run, here. */
function kitFiles(kit: string): string[] {
  let names: string[];
  try {
    names = readdirSync(kit).filter((f) => isToken(f) && !versionOf(f) && statSync(path.join(kit, f)).isFile());
  } catch {
    return [];
  }
  return [...names, 'lib/boothdeck-deploy.mjs'];
}

/**
 * The runner's one command (deploy/sudoers.boothdeck-runner): the runner's own user writes a
 * request and the files into the inbox folder; this reads the request as data, checks every field,
 * and runs check, install or rollback. No word of the request reaches a shell.
 */
export async function inboxMain(ctx: Ctx): Promise<number> {
  const inbox = fleetEnv(ctx.paths).BOOTHDECK_INBOX || '/var/lib/boothdeck-inbox';
  const text = readSmall(path.join(inbox, 'request'), 8192);
  if (text === undefined) {
    ctx.log.note(`No request in ${inbox}`);
    return EXIT.usage;
  }
  const parsed = parseRequest(text);
  if (!parsed.ok) {
    ctx.log.note(`Refusing a malformed request in ${inbox} (${parsed.problem})`);
    return EXIT.usage;
  }
  const request = parsed.value;
  const force = request.force ? '1' : '0';
  switch (request.action) {
    case 'check':
      ensureIncoming(ctx, request.id);
      return checkMain(ctx, [request.id, String(request.size), force]);
    case 'rollback':
      return startMain(ctx, [request.id, 'rollback', force]);
    case 'install': {
      const { file, version, size, sha256, date } = request.manifest;
      const upload = path.join(inbox, file);
      if (!existsSync(upload)) {
        ctx.log.note(`Nothing to install: ${upload} is missing`);
        return EXIT.usage;
      }
      ensureIncoming(ctx, request.id);
      const dir = path.join(ctx.paths.incoming, request.id);
      mkdirSync(path.join(dir, 'lib'), { recursive: true });
      for (const f of kitFiles(path.join(inbox, 'kit'))) {
        if (existsSync(path.join(inbox, 'kit', f))) copyFileSync(path.join(inbox, 'kit', f), path.join(dir, f));
      }
      const received = await receiveMain(ctx, [request.id, file, String(size), sha256, ...(date ? [date] : [])], createReadStream(upload));
      if (received !== EXIT.done) return received;
      return startMain(ctx, [request.id, 'install', file, version, force]);
    }
  }
}

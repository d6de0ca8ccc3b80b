import { isBuildDate, isToken, versionOf } from './names.js';

/**
 * The two small files the deploy reads from outside: `boothdeck-release.txt` (the pipeline's
 * published release, read by the pull) and the runner's `request` in the inbox. Both are
 * KEY=VALUE lines, bounded, read as data: every field is checked before any of it is used, and a
 * file with anything malformed is refused whole.
 */

export interface ReleaseManifest {
  version: string;
  file: string;
  size: number;
  sha256: string;
  date: string | undefined;
}

export type InboxRequest =
  | { action: 'check'; id: string; force: boolean; size: number }
  | { action: 'install'; id: string; force: boolean; manifest: ReleaseManifest }
  | { action: 'rollback'; id: string; force: boolean };

export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string };

const MAX_LINES = 40;
const MAX_LINE = 512;
/** Bigger than any AppImage Boothdeck will ship (about 150 MB), smaller than a disk. */
const MAX_RELEASE_BYTES = 4 * 1024 ** 3;

const CHECKS: Record<string, (value: string) => boolean> = {
  action: isToken,
  id: isToken,
  version: isToken,
  file: isToken,
  size: (v) => /^[0-9]{1,12}$/.test(v) && Number(v) > 0 && Number(v) <= MAX_RELEASE_BYTES,
  sha256: (v) => /^[0-9a-f]{64}$/.test(v),
  date: isBuildDate,
  force: (v) => v === '0' || v === '1',
};

/** The known keys of a KEY=VALUE text, each checked; unknown keys are ignored. */
function fields(text: string): Parsed<Map<string, string>> {
  const lines = text.split('\n');
  if (lines.length > MAX_LINES + 1) return { ok: false, problem: `more than ${MAX_LINES} lines` };
  const found = new Map<string, string>();
  for (const line of lines) {
    if (line.length > MAX_LINE) return { ok: false, problem: 'a line is too long' };
    if (line === '' || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    const key = eq > 0 ? line.slice(0, eq) : line;
    const check = CHECKS[key];
    if (!check) continue;
    const value = line.slice(eq + 1);
    if (eq <= 0 || !check(value)) return { ok: false, problem: `${key} is malformed` };
    found.set(key, value);
  }
  return { ok: true, value: found };
}

function manifestOf(found: Map<string, string>): Parsed<ReleaseManifest> {
  const version = found.get('version');
  const file = found.get('file');
  const size = found.get('size');
  const sha256 = found.get('sha256');
  if (!version || !file || !size || !sha256) return { ok: false, problem: 'version, file, size and sha256 are all needed' };
  if (versionOf(file) !== version) return { ok: false, problem: `${file} is not the release of ${version}` };
  return { ok: true, value: { version, file, size: Number(size), sha256, date: found.get('date') } };
}

export function parseManifest(text: string): Parsed<ReleaseManifest> {
  const found = fields(text);
  return found.ok ? manifestOf(found.value) : found;
}

export function parseRequest(text: string): Parsed<InboxRequest> {
  const found = fields(text);
  if (!found.ok) return found;
  const id = found.value.get('id');
  if (!id) return { ok: false, problem: 'the request has no id' };
  const force = found.value.get('force') === '1';
  const action = found.value.get('action');
  switch (action) {
    case 'check': {
      const size = found.value.get('size');
      return size ? { ok: true, value: { action, id, force, size: Number(size) } } : { ok: false, problem: 'a check needs a size' };
    }
    case 'install': {
      const manifest = manifestOf(found.value);
      return manifest.ok ? { ok: true, value: { action, id, force, manifest: manifest.value } } : manifest;
    }
    case 'rollback':
      return { ok: true, value: { action, id, force } };
    default:
      return { ok: false, problem: `unknown action ${action ?? '(none)'}` };
  }
}

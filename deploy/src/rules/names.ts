/**
 * Names that end up in paths, unit names and lines of the booth's files: release files, run ids,
 * booth names. Only these characters, never a leading dot or dash, never a separator.
 */
const TOKEN = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,199}$/;
const RELEASE = /^Boothdeck-([A-Za-z0-9_][A-Za-z0-9._-]*)-arm64\.AppImage$/;

export const isToken = (text: string): boolean => TOKEN.test(text);

/** The version a release file carries (`releases/Boothdeck-0.1.0-g1a2b3c4-arm64.AppImage` → `0.1.0-g1a2b3c4`). */
export function versionOf(release: string): string | undefined {
  const name = release.startsWith('releases/') ? release.slice('releases/'.length) : release;
  if (!isToken(name)) return undefined;
  return RELEASE.exec(name)?.[1];
}

/** The release file of a version. */
export const releaseFileOf = (version: string): string => `Boothdeck-${version}-arm64.AppImage`;

/** The file name of a release path (`releases/X` → `X`). */
export const baseName = (release: string): string => release.slice(release.lastIndexOf('/') + 1);

/** A deploy run's id: what it does, when (UTC, to the second) and by which process. */
export function newRunId(what: string, now: Date, pid: number): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `${what}-${stamp}-${pid}`;
}

/** A build date as the pipeline writes it (2026-11-26T18:00:00Z); anything else is dropped. */
export const isBuildDate = (text: string): boolean => /^[0-9TZ:.-]{1,40}$/.test(text);

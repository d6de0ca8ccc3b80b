import { createHash } from 'node:crypto';

/** The policy of every response; a page with inline scripts names each one by its hash. */
export function contentSecurityPolicy(inlineScripts: readonly string[] = []): string {
  const hashes = inlineScripts.map((s) => ` 'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`).join('');
  return [
    "default-src 'self'",
    `script-src 'self'${hashes}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "connect-src 'self'",
    "font-src 'self' data:",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join('; ');
}

const INLINE_SCRIPT = /<script(?![^>]*\ssrc=)(?![^>]*type="application\/json")[^>]*>([\s\S]*?)<\/script>/g;

/** The text of each inline script of a page, as the browser hashes it. */
export const inlineScriptsOf = (html: string): string[] => [...html.matchAll(INLINE_SCRIPT)].map((m) => m[1] as string);

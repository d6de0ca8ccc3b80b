import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Request } from 'express';

export type Encoding = 'br' | 'gzip' | 'identity';

type Compression = 'br' | 'gzip';
const PREFERENCE: readonly Compression[] = ['br', 'gzip'];

/**
 * The best of `offered` the client accepts, brotli first: the browser's own order ranks encodings
 * of equal weight (Chromium lists gzip first), ours decides.
 */
export function preferredEncoding(req: Request, offered: readonly Compression[] = PREFERENCE): Encoding {
  const accepted = req.acceptsEncodings();
  return PREFERENCE.find((e) => offered.includes(e) && accepted.includes(e)) ?? 'identity';
}

/**
 * Compresses a page made on the fly. Brotli at quality 5 (not the default 11, which costs tens
 * of milliseconds on a Pi for a few kilobytes saved) and gzip at its default level.
 */
export function compress(body: string, encoding: Encoding): Buffer {
  const raw = Buffer.from(body, 'utf8');
  if (encoding === 'br')
    return brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } });
  if (encoding === 'gzip') return gzipSync(raw);
  return raw;
}

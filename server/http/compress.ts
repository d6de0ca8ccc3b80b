import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Request } from 'express';

export type Encoding = 'br' | 'gzip' | 'identity';

/** The best encoding the client accepts for a body made per request (built files have their own variants). */
export function acceptedEncoding(req: Request): Encoding {
  const accepted = req.acceptsEncodings();
  if (accepted.includes('br')) return 'br';
  if (accepted.includes('gzip')) return 'gzip';
  return 'identity';
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

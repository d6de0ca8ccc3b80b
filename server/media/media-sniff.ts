import { open } from 'node:fs/promises';

/** What a file's first bytes say it is; undefined when they say nothing Boothdeck knows. */
export type SniffedFormat = 'jpeg' | 'png' | 'gif' | 'webp' | 'webp-animated' | 'avif' | 'avif-sequence' | 'mp4' | 'quicktime' | 'webm';

/** Bytes enough to tell every format above apart (an animated WebP's VP8X flags sit at byte 20). */
export const SNIFF_BYTES = 64;

const ascii = (head: Buffer, start: number, end: number): string => head.toString('latin1', start, end);

/**
 * A file's format from its magic numbers. An animated WebP is a RIFF/WEBP whose VP8X chunk has
 * its animation flag set (an ANIM chunk follows); an AVIF image sequence is an ISO-BMFF `ftyp`
 * whose major brand is `avis`; any other `ftyp` that is not AVIF or HEIF is a video.
 */
export function sniffFormat(head: Buffer): SniffedFormat | undefined {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (head.length >= 8 && head.readUInt32BE(0) === 0x89504e47) return 'png';
  if (head.length >= 6 && /^GIF8[79]a$/.test(ascii(head, 0, 6))) return 'gif';
  if (head.length >= 12 && ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') {
    const chunk = ascii(head, 12, 16);
    const animated = (chunk === 'VP8X' && head.length > 20 && ((head[20] ?? 0) & 0x02) !== 0) || head.includes('ANIM', 12, 'latin1');
    return animated ? 'webp-animated' : 'webp';
  }
  if (head.length >= 4 && head.readUInt32BE(0) === 0x1a45dfa3) return 'webm';
  if (head.length >= 12 && ascii(head, 4, 8) === 'ftyp') {
    const major = ascii(head, 8, 12);
    if (major === 'avis') return 'avif-sequence';
    if (major === 'avif') return 'avif';
    if (/^(heic|heix|hevc|heim|heis|hevm|hevs|mif1|msf1)$/.test(major)) return undefined;
    return major === 'qt  ' ? 'quicktime' : 'mp4';
  }
  return undefined;
}

export const isVideoFormat = (format: SniffedFormat | undefined): boolean =>
  format === 'mp4' || format === 'quicktime' || format === 'webm';

/** Formats that move when a browser shows them as an image. */
export const isAnimatedImageFormat = (format: SniffedFormat | undefined): boolean =>
  format === 'gif' || format === 'webp-animated' || format === 'avif-sequence';

/** The first SNIFF_BYTES of a file, or undefined when it cannot be read. */
export async function readHead(file: string): Promise<Buffer | undefined> {
  let handle;
  try {
    handle = await open(file, 'r');
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } catch {
    return undefined;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

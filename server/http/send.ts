import { pipeline } from 'node:stream/promises';
import type { Response } from 'express';
import type { CaptureFile } from '../capture/capture.port.js';

/** `attachment` with an ASCII name and its UTF-8 twin, as browsers expect. */
export function attachment(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/**
 * The longest a guest waits for a picture the capture app sends: a 1200 px preview is a few
 * hundred KB, sent in well under a second on the booth; one trickled at a byte a second is cut.
 */
export const PREVIEW_DEADLINE_MS = 30_000;
/** The same for a whole file (a download, a video): larger, and a phone on weak Wi-Fi reads slowly. */
export const FILE_DEADLINE_MS = 5 * 60_000;

/**
 * Streams a file from the capture app to the client. If the capture app fails halfway, the
 * response is cut (the client sees an incomplete download, never a wrong file); if the client
 * leaves, the upstream request is dropped. The whole transfer has a deadline: past it, both
 * ends are cut, however steadily bytes trickle in.
 */
export async function sendCaptureFile(
  res: Response,
  file: CaptureFile,
  headers: Record<string, string> = {},
  deadlineMs = FILE_DEADLINE_MS,
): Promise<void> {
  // The type comes from Boothdeck's allowlist (capture client), never the capture app's header.
  res.setHeader('Content-Type', file.contentType);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  if (file.contentLength !== undefined) res.setHeader('Content-Length', String(file.contentLength));
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  const deadline = setTimeout(() => file.stream.destroy(new Error('the capture app took too long to send the file')), deadlineMs);
  deadline.unref();
  try {
    await pipeline(file.stream, res);
  } catch {
    file.stream.destroy();
    res.destroy();
  } finally {
    clearTimeout(deadline);
  }
}

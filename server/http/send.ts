import { pipeline } from 'node:stream/promises';
import type { Response } from 'express';
import type { CaptureFile } from '../capture/capture.port.js';

/** `attachment` with an ASCII name and its UTF-8 twin, as browsers expect. */
export function attachment(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/**
 * Streams a file from the capture app to the client. If the capture app fails halfway, the
 * response is cut (the client sees an incomplete download, never a wrong file); if the client
 * leaves, the upstream request is dropped.
 */
export async function sendCaptureFile(res: Response, file: CaptureFile, headers: Record<string, string> = {}): Promise<void> {
  // The type comes from Boothdeck's allowlist (capture client), never the capture app's header.
  res.setHeader('Content-Type', file.contentType);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  if (file.contentLength !== undefined) res.setHeader('Content-Length', String(file.contentLength));
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  try {
    await pipeline(file.stream, res);
  } catch {
    file.stream.destroy();
    res.destroy();
  }
}

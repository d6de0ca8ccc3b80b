import { stat } from 'node:fs/promises';
import type { SystemPort } from '../system/system.port.js';
import type { FrameResult, VideoFramePort } from './video-frame.port.js';

/** A frame half a second in: a boomerang's first frame is often the guests still getting ready. */
const SEEK_SECONDS = '0.5';
const TIMEOUT_MS = 30_000;

/**
 * Video frames with ffmpeg (Debian's package; on the booth, `apt install ffmpeg`), run by argv
 * through the system port. Paths are given with the `file:` protocol so that nothing in a name
 * can make ffmpeg read from elsewhere.
 */
export class FfmpegVideoFrames implements VideoFramePort {
  constructor(private readonly system: SystemPort) {}

  async grab(video: string, out: string): Promise<FrameResult> {
    // A clip shorter than the seek gives no frame: its first one will do.
    for (const seek of [SEEK_SECONDS, '0']) {
      const res = await this.system.run(
        'ffmpeg',
        [
          '-hide_banner',
          '-loglevel',
          'error',
          '-nostdin',
          '-threads',
          '2',
          '-ss',
          seek,
          '-i',
          `file:${video}`,
          '-frames:v',
          '1',
          '-an',
          '-q:v',
          '2',
          '-y',
          `file:${out}`,
        ],
        { timeoutMs: TIMEOUT_MS },
      );
      if (res.code === 127) return 'no-tool';
      if (res.code === 0 && (await nonEmpty(out))) return 'ok';
    }
    return 'failed';
  }
}

async function nonEmpty(file: string): Promise<boolean> {
  try {
    return (await stat(file)).size > 0;
  } catch {
    return false;
  }
}

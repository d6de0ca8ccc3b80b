/** `no-tool`: nothing on this machine can read videos; `failed`: this video gave no frame. */
export type FrameResult = 'ok' | 'no-tool' | 'failed';

/** Draws a still from a video file; the only way Boothdeck reads inside an MP4. */
export interface VideoFramePort {
  /** Writes one frame of `video` (an absolute path) as a JPEG file at `out`. */
  grab(video: string, out: string): Promise<FrameResult>;
}

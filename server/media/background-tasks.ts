import type { TaskHandlers } from '../core/background/background.protocol.js';
import { configureImageDecoding, resizeBounded, type ResizeOptions } from './image-decoder.js';

/** What the service sends to make a bounded picture: a file path or the bytes themselves. */
export interface ResizeTask {
  input: Buffer | Uint8Array | string;
  options: ResizeOptions;
}

/** The media work a background worker does; the same functions run in-process where no worker can. */
export function mediaTasks(): TaskHandlers {
  configureImageDecoding();
  return {
    resize: async (raw) => {
      const task = raw as ResizeTask;
      // The channel's serialization hands bytes over as a plain Uint8Array.
      const input =
        typeof task.input === 'string' ? task.input : Buffer.from(task.input.buffer, task.input.byteOffset, task.input.byteLength);
      return resizeBounded(input, task.options);
    },
  };
}

/** Every task a background worker runs: the media's, and the online gallery's file work. */
export async function backgroundTasks(): Promise<TaskHandlers> {
  const { publishTasks } = await import('../publish/publish-tasks.js');
  return { ...mediaTasks(), ...publishTasks() };
}

import type { TaskHandlers, TaskMessage, WorkerMessage } from './background.protocol.js';
import { lowerOwnPriority } from './own-priority.js';

/**
 * The body of a background worker process: lowers itself first, says so, then runs the tasks it
 * is sent, one at a time, until the service closes the channel. `load` brings the handlers in
 * only after the priority is lowered, so that threads they start (libvips, libuv's pool) are
 * born low.
 */
export async function serveBackgroundTasks(load: () => Promise<TaskHandlers>): Promise<void> {
  const post = process.send?.bind(process);
  if (!post) throw new Error('A background worker runs only as a child of the service');
  // The service may have closed the channel meanwhile (it stopped while this worker started or
  // worked): the message has no one to go to, and the worker leaves.
  const send = (message: WorkerMessage): void => void post(message, undefined, undefined, (err) => err && process.exit(0));
  const lowered = await lowerOwnPriority();
  const handlers = await load();
  process.on('disconnect', () => process.exit(0));
  process.on('message', (raw: TaskMessage) => {
    if (raw?.type !== 'task') return;
    const handler = handlers[raw.name];
    const run = handler ? handler(raw.input) : Promise.reject(new Error(`No background task named ${raw.name}`));
    run.then(
      (output) => send({ type: 'done', id: raw.id, output } satisfies WorkerMessage),
      (err: unknown) => {
        const error = err instanceof Error ? { name: err.constructor.name, message: err.message } : { name: 'Error', message: String(err) };
        send({ type: 'failed', id: raw.id, error } satisfies WorkerMessage);
      },
    );
  });
  send({ type: 'ready', lowered } satisfies WorkerMessage);
}

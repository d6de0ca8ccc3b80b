import { serveBackgroundTasks } from '../core/background/worker-runtime.js';

/**
 * The background worker process (BackgroundPool forks it): the media and publishing tasks, loaded once the
 * process has lowered its own priority, so that libvips' threads are born low.
 */
void serveBackgroundTasks(async () => (await import('./background-tasks.js')).backgroundTasks());

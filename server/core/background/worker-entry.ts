import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** How a worker process is started: its script, and what Node needs to run it. */
export interface WorkerEntry {
  file: string;
  execArgv: string[];
}

/**
 * Finds a worker script beside the module at `moduleUrl`. Built (dist, the AppImage, `npm start`),
 * it is the compiled `.js` and runs on plain Node. From sources (vitest, the bench's in-process
 * services), it is the `.ts` and runs with tsx's loader, the one the project's scripts already use;
 * the same code either way. Undefined when neither can run (sources without tsx): the caller then
 * runs the work in-process.
 */
export function resolveWorkerEntry(moduleUrl: string, baseName: string): WorkerEntry | undefined {
  const built = fileURLToPath(new URL(`./${baseName}.js`, moduleUrl));
  if (moduleUrl.endsWith('.js') && existsSync(built)) return { file: built, execArgv: [] };
  const source = fileURLToPath(new URL(`./${baseName}.ts`, moduleUrl));
  if (!existsSync(source)) return undefined;
  try {
    const tsx = createRequire(moduleUrl).resolve('tsx');
    return { file: source, execArgv: ['--import', pathToFileURL(tsx).href] };
  } catch {
    return undefined;
  }
}

import type * as Hardware from '../../native/hardware.js';
import type * as Config from '../../server/config.js';
import type * as Logger from '../../server/core/logger.js';
import type * as Service from '../../server/service.js';
import { FakePrinter } from '../../server/print/printer.fake.js';
import { FakeSystem } from '../../server/system/system.fake.js';
import { BENCH_PIN } from './setup.js';

/**
 * The built service (background work in worker processes) with a printer that prints nothing and
 * the bundled simulator, for the Pi-budget measures: the bench puts this process under a CPU
 * limit, then visits, captures and prints. Prints its addresses and a photo to print.
 */
const [dataDir, photos] = process.argv.slice(2);
/** The built module of a source file: what `npm start` runs (worker processes included). */
const built = <T>(source: string): Promise<T> => import(new URL(`../../dist/node/${source}`, import.meta.url).href) as Promise<T>;
const { createFakeHardware } = await built<typeof Hardware>('native/hardware.js');
const { loadConfig } = await built<typeof Config>('server/config.js');
const { createRecordingLogger } = await built<typeof Logger>('server/core/logger.js');
const { startService } = await built<typeof Service>('server/service.js');
const config = loadConfig({
  BOOTHDECK_PORT: '0',
  BOOTHDECK_HOST: '127.0.0.1',
  BOOTHDECK_DATA_DIR: dataDir,
  BOOTHDECK_ADMIN_PIN: BENCH_PIN,
  BOOTHDECK_HARDWARE: 'fake',
  BOOTHDECK_CAPTURE_URL: 'simulator',
});
const handle = await startService(config, {
  printer: new FakePrinter(),
  system: new FakeSystem(),
  hardware: createFakeHardware(),
  log: createRecordingLogger(),
});
handle.services.events.create({ name: 'Bench Pi' });
await handle.services.settings.update({ print: { enable: true, quota: 3, max_copies: 3 } });
let last = '';
for (let i = 0; i < Number(photos); i++) last = (await handle.simulator?.capture(`Pi ${i}`))?.id ?? last;
while (handle.services.photoRepository.count() < Number(photos)) await new Promise((r) => setTimeout(r, 20));
await handle.services.thumbnailQueue.idle();
console.log(JSON.stringify({ url: handle.localUrl, captureUrl: handle.captureUrl, photoId: last }));
process.once('SIGTERM', () => void handle.stop().then(() => process.exit(0)));

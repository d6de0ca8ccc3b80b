/**
 * The service as a separate process, for tests that kill it: configured from BOOTHDECK_*, with
 * simulated hardware, a recording printer, and real rclone. PUBLISH_BATCH sets photos per upload.
 */
import os from 'node:os';
import { createFakeHardware } from '../../native/hardware.js';
import { loadConfig } from '../../server/config.js';
import { FakePrinter } from '../../server/print/printer.fake.js';
import { startService } from '../../server/service.js';
import { FakeSystem } from '../../server/system/system.fake.js';

// The tests' remotes are folders under the system's temporary folder.
const config = loadConfig({ BOOTHDECK_PUBLISH_ROOT: os.tmpdir(), ...process.env });
const handle = await startService(config, {
  hardware: createFakeHardware(),
  system: new FakeSystem(),
  printer: new FakePrinter(),
  publish: { batchSize: Number(process.env.PUBLISH_BATCH ?? '200'), settleMs: 0, retryMinMs: 200 },
});
process.stdout.write(`ready ${handle.localUrl}\n`);
process.on('SIGTERM', () => {
  void handle.stop().then(() => process.exit(0));
});

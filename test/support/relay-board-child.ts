/**
 * Boothdeck as the unit's ExecStart runs it, on a stand-in board: the real service with real
 * drivers reading the board under BOARD_ROOT (a fake sysfs), the capture-app simulator, and
 * recorded system commands and printer. Prints `ready <url>` once it answers.
 */
import { Hardware, realDrivers } from '../../native/hardware.js';
import { loadConfig } from '../../server/config.js';
import { FakePrinter } from '../../server/print/printer.fake.js';
import { startService } from '../../server/service.js';
import { FakeSystem } from '../../server/system/system.fake.js';

const root = process.env.BOARD_ROOT;
if (!root) throw new Error('BOARD_ROOT is needed');
const handle = await startService(loadConfig(process.env), {
  hardware: new Hardware(realDrivers({ root, isRoot: false })),
  system: new FakeSystem(),
  printer: new FakePrinter(),
});
process.stdout.write(`ready ${handle.localUrl}\n`);

import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createFakeHardware } from '../../native/hardware.js';
import { loadConfig } from '../../server/config.js';
import { createRecordingLogger, type RecordingLogger } from '../../server/core/logger.js';
import { startService, type ServiceHandle } from '../../server/service.js';
import { FakeSystem } from '../../server/system/system.fake.js';
import { FakePrinter } from '../../server/print/printer.fake.js';
import type { PrinterPort } from '../../server/print/printer.port.js';

export interface TestService extends ServiceHandle {
  dataDir: string;
  system: FakeSystem;
  log: RecordingLogger;
  /** How many times the dashboard asked the host to restart Boothdeck. */
  relaunches: { count: number };
  printer: PrinterPort;
  close(): Promise<void>;
}

/**
 * The whole service as a user runs it (real HTTP, real SQLite, the capture-app simulator),
 * in a temporary folder, with recorded system commands and simulated hardware.
 */
export async function startTestService(
  env: Record<string, string> = {},
  options: { printer?: PrinterPort; /** The simulator's pace (1: a booth's); 0.01 by default. */ simulatorTimeScale?: number } = {},
): Promise<TestService> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-test-'));
  const config = loadConfig({
    BOOTHDECK_PORT: '0',
    BOOTHDECK_HOST: '127.0.0.1',
    BOOTHDECK_DATA_DIR: dataDir,
    // Tests publish to folders of their own under the system's temporary folder.
    BOOTHDECK_PUBLISH_ROOT: os.tmpdir(),
    ...env,
  });
  const system = new FakeSystem();
  const log = createRecordingLogger();
  const relaunches = { count: 0 };
  // A recording printer unless the test brings one (the CUPS tests bring the real adapter).
  const printer = options.printer ?? new FakePrinter();
  const handle = await startService(config, {
    system,
    hardware: createFakeHardware(),
    log,
    simulatorTimeScale: options.simulatorTimeScale ?? 0.01,
    relaunch: () => relaunches.count++,
    printer,
    print: { pollMs: 100, pausePollMs: 300 },
    // The export as on a booth: a low-priority process writes the download itself.
    exportWorkers: 'processes',
  });
  return {
    ...handle,
    dataDir,
    system,
    log,
    relaunches,
    printer,
    async close() {
      await handle.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

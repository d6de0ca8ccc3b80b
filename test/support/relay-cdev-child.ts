/**
 * A process driving the flash relay through the GPIO character device's helper, as Boothdeck
 * does, on a stand-in /dev (DEV_DIR, with the helper's ioctls recorded through PYTHONPATH).
 * Switches the light on and prints `on <helper pid>`, then waits to be killed.
 */
import { createCdevRelay } from '../../native/relay/relay.cdev.js';

const devDir = process.env.DEV_DIR;
const site = process.env.HELPER_PYTHONPATH;
if (!devDir || !site) throw new Error('DEV_DIR and HELPER_PYTHONPATH are needed');
const relay = await createCdevRelay({ gpio: 17, inverted: false }, { devDir, env: { PYTHONPATH: site } });
await relay.set(true);
process.stdout.write('on\n');
setInterval(() => undefined, 60_000);

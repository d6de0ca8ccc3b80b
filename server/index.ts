import { ConfigError, loadConfig } from './config.js';
import { startService } from './service.js';
import { startBanner } from './start-banner.js';

/** A newcomer's first start shows the product working: photos arrive in a demo event. */
const DEMO_INTERVAL_SECONDS = 5;
const DEMO_EVENT = 'Démo';

/** Headless host: the same service as the kiosk, in plain Node, with embedded defaults. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  // The simulator stands in (a development checkout, or asked by name): unless an interval is
  // chosen, it takes a photo every few seconds, and a first start gets an event to show them in.
  const simulated = config.captureUrl === undefined;
  if (simulated && (process.env.BOOTHDECK_SIMULATOR_INTERVAL ?? '').trim() === '') {
    config = { ...config, simulatorIntervalSeconds: DEMO_INTERVAL_SECONDS };
  }
  const handle = await startService(config);
  if (simulated && handle.services.events.list().events.length === 0) handle.services.events.create({ name: DEMO_EVENT });
  console.log(
    await startBanner({
      consoleUrl: `${handle.localUrl}/admin`,
      galleryUrl: handle.galleryUrl,
      pinSet: Boolean(config.adminPin) || handle.services.auth.isPinSet(),
      simulatorIntervalSeconds: simulated ? config.simulatorIntervalSeconds : undefined,
    }),
  );
  const shutdown = (signal: string): void => {
    console.log(`${signal}: stopping Boothdeck…`);
    handle.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error('Boothdeck failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});

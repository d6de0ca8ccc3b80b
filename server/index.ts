import { ConfigError, loadConfig } from './config.js';
import { startService } from './service.js';

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
  const handle = await startService(config);
  console.log(`Boothdeck is running.`);
  console.log(`  Admin console:  ${handle.adminUrl}`);
  console.log(`  Public gallery: ${handle.galleryUrl}`);
  if (!config.adminPin && !handle.services.auth.isPinSet()) {
    console.log(`  No admin PIN yet: open ${handle.localUrl}/admin on this machine to choose one.`);
  }
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

import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Which capture app the suite drives, decided once by the global setup. */
export interface CaptureTarget {
  kind: 'real' | 'simulator';
  /** The real app's run.sh (real only). */
  runSh: string | null;
  /** Ports the real app's instances may use, inclusive. */
  ports: [number, number];
  /** Data folders of the real app's instances start with this. */
  dataPrefix: string;
  /** Where setup.sh put the real app (`CAPTURE_APP_HOME`): run.sh keeps its instances' pid files under run/. */
  home: string;
  /** Why this target: shown at the start of the run. */
  why: string;
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

function range(text: string | undefined): [number, number] {
  const m = /^(\d+)-(\d+)$/.exec(text ?? '');
  const lo = Number(m?.[1] ?? 18100);
  const hi = Number(m?.[2] ?? 18149);
  if (!(lo > 1023 && hi >= lo && hi < 65536)) throw new Error(`BOOTHDECK_CAPTURE_TEST_PORTS must read like 18100-18149, not ${text}`);
  return [lo, hi];
}

/**
 * `BOOTHDECK_CAPTURE_TEST`: `real`, `simulator`, or `auto` (the default: the real app when
 * `../shared/capture-app` — or `BOOTHDECK_CAPTURE_APP_DIR` — is there, set up, and the suite
 * runs as root, which its chroot needs; the simulator otherwise).
 */
export function resolveTarget(env: NodeJS.ProcessEnv = process.env): CaptureTarget {
  const wanted = env.BOOTHDECK_CAPTURE_TEST ?? 'auto';
  if (!['auto', 'real', 'simulator'].includes(wanted))
    throw new Error(`BOOTHDECK_CAPTURE_TEST must be auto, real or simulator, not ${wanted}`);
  const dir = path.resolve(root, env.BOOTHDECK_CAPTURE_APP_DIR ?? '../shared/capture-app');
  const runSh = path.join(dir, 'run.sh');
  const home = env.CAPTURE_APP_HOME ?? '/var/cache/photobooth-app';
  const ports = range(env.BOOTHDECK_CAPTURE_TEST_PORTS);
  const dataPrefix = env.BOOTHDECK_CAPTURE_TEST_DATA ?? '/tmp/pba-boothdeck-';
  const base = { ports, dataPrefix, home };
  if (wanted === 'simulator') return { ...base, kind: 'simulator', runSh: null, why: 'asked for (BOOTHDECK_CAPTURE_TEST=simulator)' };
  const missing = !existsSync(runSh)
    ? `no ${runSh}`
    : !existsSync(path.join(home, 'chroot/usr/bin/python3'))
      ? `photobooth-app is not set up in ${home} (run ${path.join(dir, 'setup.sh')})`
      : process.getuid?.() !== 0
        ? 'the real app needs root (its chroot)'
        : null;
  if (missing === null) return { ...base, kind: 'real', runSh, why: `photobooth-app from ${dir}` };
  if (wanted === 'real') throw new Error(`BOOTHDECK_CAPTURE_TEST=real, but ${missing}`);
  return { ...base, kind: 'simulator', runSh: null, why: `the simulator: ${missing}` };
}

/**
 * Switches the flash off when the process ends any way but a clean stop: exit, an uncaught
 * error, or a signal. Signal handlers replace Node's default exit, so when ours is the only one
 * it re-raises the signal after switching off. Returns the undo.
 */
export function installRelaySafety(offSync: () => void, target: NodeJS.Process = process): () => void {
  const off = (): void => {
    try {
      offSync();
    } catch {
      /* the process is ending; nothing better to do */
    }
  };
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const onSignal = (signal: NodeJS.Signals): void => {
    off();
    if (target.listenerCount(signal) === 1) {
      undo();
      target.kill(target.pid, signal);
    }
  };
  function undo(): void {
    target.off('exit', off);
    target.off('uncaughtExceptionMonitor', off);
    for (const s of signals) target.off(s, onSignal);
  }
  target.on('exit', off);
  // The monitor runs before Node's own handling and leaves the crash as it was.
  target.on('uncaughtExceptionMonitor', off);
  for (const s of signals) target.prependListener(s, onSignal);
  return undo;
}

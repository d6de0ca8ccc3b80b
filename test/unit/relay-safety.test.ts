import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { installRelaySafety } from '../../server/hardware/relay-safety.js';

/** Enough of `process` for the handlers: events, a pid, and a kill that records. */
class FakeProcess extends EventEmitter {
  readonly pid = 4242;
  readonly kills: string[] = [];
  kill(_pid: number, signal: string): boolean {
    this.kills.push(signal);
    return true;
  }
}

describe('relay safety on process end', () => {
  it('switches off on exit, on an uncaught error and on a signal, which it re-raises when alone', () => {
    const target = new FakeProcess();
    let offs = 0;
    const undo = installRelaySafety(() => offs++, target as unknown as NodeJS.Process);
    target.emit('uncaughtExceptionMonitor', new Error('boom'));
    target.emit('exit', 1);
    expect(offs).toBe(2);
    target.emit('SIGTERM', 'SIGTERM');
    expect(offs).toBe(3);
    expect(target.kills).toEqual(['SIGTERM']);
    expect(target.listenerCount('exit')).toBe(0);
    undo();
  });

  it('leaves the signal to the host when it has its own handler, and undoes itself', () => {
    const target = new FakeProcess();
    let offs = 0;
    target.on('SIGINT', () => undefined);
    const undo = installRelaySafety(() => offs++, target as unknown as NodeJS.Process);
    target.emit('SIGINT', 'SIGINT');
    expect(offs).toBe(1);
    expect(target.kills).toEqual([]);
    undo();
    expect(target.listenerCount('SIGINT')).toBe(1);
    expect(target.listenerCount('exit')).toBe(0);
  });
});

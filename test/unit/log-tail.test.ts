import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LOG_FILE_STEM, createFileLogger } from '../../server/core/logger.js';
import { readLogTail } from '../../server/core/log/log-tail.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-logtail-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const line = (level: number, msg: string, minute: number): string =>
  JSON.stringify({ level, time: `2026-11-22T12:${String(minute).padStart(2, '0')}:00.000Z`, msg });

describe('log tail', () => {
  it('reads across rolled files, newest file last, and skips lines that are not log lines', () => {
    writeFileSync(path.join(dir, 'boothdeck.1.log'), [line(30, 'one', 1), line(50, 'two', 2)].join('\n') + '\n');
    writeFileSync(path.join(dir, 'boothdeck.2.log'), [line(40, 'three', 3), 'not json', line(30, 'four', 4)].join('\n') + '\n');
    writeFileSync(path.join(dir, 'other.3.log'), line(50, 'foreign', 5) + '\n');
    return Promise.all([
      readLogTail(dir, 'boothdeck', { limit: 3, minLevel: 'info' }).then((lines) =>
        expect(lines.map((l) => l.message)).toEqual(['two', 'three', 'four']),
      ),
      readLogTail(dir, 'boothdeck', { limit: 10, minLevel: 'warn' }).then((lines) =>
        expect(lines.map((l) => [l.level, l.message])).toEqual([
          ['error', 'two'],
          ['warn', 'three'],
        ]),
      ),
    ]);
  });

  it('reads only the end of a large file, dropping the cut line', async () => {
    const many = Array.from({ length: 5000 }, (_, i) => line(30, `line ${i} ${'x'.repeat(60)}`, i % 60));
    writeFileSync(path.join(dir, 'boothdeck.1.log'), many.join('\n') + '\n');
    const lines = await readLogTail(dir, 'boothdeck', { limit: 500, minLevel: 'info' });
    expect(lines).toHaveLength(500);
    expect(lines.at(-1)?.message).toMatch(/^line 4999 /);
  });

  it('answers no lines when the folder does not exist yet', async () => {
    expect(await readLogTail(path.join(dir, 'missing'), 'boothdeck', { limit: 10, minLevel: 'info' })).toEqual([]);
  });
});

describe('the log on the terminal', () => {
  it('prints one readable line per entry while the files keep JSON for the dashboard', async () => {
    const lines: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    const folder = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-stdout-log-'));
    try {
      const log = await createFileLogger(folder, { stdout: true });
      log.warn('The printer is out of paper');
      log.error('Photo rescan failed', new Error('disk gone'));
      await log.close();
    } finally {
      spy.mockRestore();
    }
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\d{2}:\d{2}:\d{2} warn {2}The printer is out of paper\n$/);
    expect(lines[1]).toMatch(/^\d{2}:\d{2}:\d{2} error Photo rescan failed \(disk gone\)\n$/);
    const tail = await readLogTail(folder, LOG_FILE_STEM, { limit: 10, minLevel: 'info' });
    expect(tail.map((l) => l.message)).toEqual(['The printer is out of paper', 'Photo rescan failed']);
  });
});

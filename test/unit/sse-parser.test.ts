import { describe, expect, it } from 'vitest';
import { SseParser, type SseMessage } from '../../server/capture/sse-parser.js';

const collect = (chunks: string[]): SseMessage[] => {
  const out: SseMessage[] = [];
  const parser = new SseParser((m) => out.push(m));
  chunks.forEach((c) => parser.push(c));
  return out;
};

describe('server-sent event parsing', () => {
  it('reads named events with their id and JSON data', () => {
    expect(collect(['id: 1\nevent: DbInsert\ndata: {"id":"a"}\nretry: 10000\n\n'])).toEqual([
      { event: 'DbInsert', data: '{"id":"a"}', id: '1' },
    ]);
  });

  it('joins a message split across chunks at any byte, CRLF included', () => {
    const text = 'event: ProcessStateinfo\r\ndata: {"source":"start",\r\ndata: "target":"counting"}\r\n\r\n';
    for (let cut = 1; cut < text.length; cut++) {
      expect(collect([text.slice(0, cut), text.slice(cut)])).toEqual([
        { event: 'ProcessStateinfo', data: '{"source":"start",\n"target":"counting"}' },
      ]);
    }
  });

  it('drops comment pings and messages without data', () => {
    expect(collect([': ping - 2026-11-22\n\n', 'event: empty\n\n', 'data: x\n\n'])).toEqual([{ event: 'message', data: 'x' }]);
  });
});

describe('server-sent event size limits', () => {
  const limits = { maxLineChars: 100, maxEventChars: 250 };

  it('throws once a line without a break passes the line cap, keeping nothing', () => {
    const parser = new SseParser(() => undefined, limits);
    parser.push('data: ' + 'x'.repeat(90));
    expect(() => parser.push('x'.repeat(20))).toThrow(/line exceeded 100/);
  });

  it('throws once the data lines of one event pass the event cap', () => {
    const out: SseMessage[] = [];
    const parser = new SseParser((m) => out.push(m), limits);
    parser.push('data: ' + 'a'.repeat(90) + '\r\ndata: ' + 'b'.repeat(90) + '\r\n');
    expect(() => parser.push('data: ' + 'c'.repeat(90) + '\r\n')).toThrow(/event exceeded 250/);
    expect(out).toEqual([]);
  });

  it('accepts events up to the limits', () => {
    const out: SseMessage[] = [];
    const parser = new SseParser((m) => out.push(m), limits);
    parser.push('event: ping\r\ndata: ' + 'z'.repeat(90) + '\r\n\r\n');
    expect(out).toEqual([{ event: 'ping', data: 'z'.repeat(90) }]);
  });
});

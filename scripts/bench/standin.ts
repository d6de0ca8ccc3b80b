import os from 'node:os';
import { createInterface } from 'node:readline';
import { Worker } from 'node:worker_threads';

/**
 * The capture app's steady work, as a live preview is: a fixed amount of CPU work per frame, on
 * as many threads as the machine has cores (the capture app, its preview and the kiosk's Chromium
 * can keep a Pi's cores busy), counting frames. It runs at the service's normal priority. Each
 * `mark` line on stdin answers one JSON line: frames and milliseconds since the last mark.
 */
const threads = Number(process.argv[2] ?? os.availableParallelism());
const counters = new Int32Array(new SharedArrayBuffer(4 * threads));
const frame = `
  const { workerData } = require('node:worker_threads');
  const counters = new Int32Array(workerData.buffer);
  let x = 1;
  for (;;) {
    // One frame: a fixed amount of arithmetic (about 2 ms on a desktop core).
    for (let i = 0; i < 400000; i++) x = (x * 1103515245 + 12345) & 0x7fffffff;
    Atomics.add(counters, workerData.index, x === -1 ? 0 : 1);
  }`;
for (let index = 0; index < threads; index++) new Worker(frame, { eval: true, workerData: { buffer: counters.buffer, index } });

let last = { frames: 0, at: performance.now() };
const total = (): number => counters.reduce((sum, n) => sum + n, 0);
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim() !== 'mark') return;
  const now = { frames: total(), at: performance.now() };
  console.log(JSON.stringify({ frames: now.frames - last.frames, ms: now.at - last.at }));
  last = now;
});
process.stdin.on('end', () => process.exit(0));
console.log(JSON.stringify({ ready: true, threads }));

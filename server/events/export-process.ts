import { fork, type ChildProcess } from 'node:child_process';
import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import { workerEnvironment } from '../core/background/background-pool.js';
import { backgroundLaunch, lowerChild } from '../core/background/own-priority.js';
import type { WorkerEntry } from '../core/background/worker-entry.js';
import { V8_MEMORY_FLAGS } from '../core/host-memory.js';
import { EXPORT_DATA_FD, type ExportJob, type ExportWorkerMessage } from './export.protocol.js';
import type { ExportEntry, ZipOutcome, ZipProgressHooks } from './export-zip.js';

/** The export process could not start here (no runnable script, refused): the caller writes the ZIP itself. */
export class ExportProcessUnavailable extends Error {}

/**
 * The client's socket when the export process can write the body to it itself: an HTTP/1.1
 * response whose headers are not sent yet (they are sent here, with a chunked body).
 */
async function handOver(out: Writable): Promise<Socket | undefined> {
  if (!(out instanceof ServerResponse)) return undefined;
  const res = out as ServerResponse<IncomingMessage>;
  if (res.headersSent || !res.socket || res.req.httpVersion !== '1.1') return undefined;
  const socket = res.socket;
  res.setHeader('Transfer-Encoding', 'chunked');
  res.flushHeaders();
  // Once the headers are in the kernel, the process's chunks follow them on the wire.
  await new Promise<void>((resolve) => socket.write(Buffer.alloc(0), () => resolve()));
  return socket.destroyed ? undefined : socket;
}

/**
 * Has a background process (export.worker) write the ZIP. Given an HTTP/1.1 response, the process
 * writes the body straight to the client's socket (a copy of it), and the service only ends the
 * response; otherwise it writes into a pipe whose bytes the service forwards to `out`. Either way
 * `out` ends only once the process said the ZIP is whole (and every piped byte was forwarded); a
 * process that dies midway destroys `out`, so a download is never a cut ZIP that looks complete.
 * The process is killed when `out` closes first (the client went away).
 */
export async function zipInBackground(
  entry: WorkerEntry,
  job: { entries: ExportEntry[]; zip64: boolean; now: number },
  out: Writable,
  hooks: ZipProgressHooks,
): Promise<ZipOutcome> {
  if (out.destroyed) return { state: 'aborted', filesDone: 0, missing: [] };
  const socket = await handOver(out);
  let child: ChildProcess;
  try {
    const launch = backgroundLaunch();
    child = fork(entry.file, [], {
      execPath: launch.execPath,
      execArgv: [...launch.execArgvBefore, ...V8_MEMORY_FLAGS, ...entry.execArgv],
      env: workerEnvironment(),
      stdio: ['ignore', 'inherit', 'inherit', 'ipc', socket ?? 'pipe'],
    });
  } catch (err) {
    socket?.resume();
    throw new ExportProcessUnavailable(err instanceof Error ? err.message : String(err));
  }
  // At once, before Node in the child starts its threads; the child lowers itself further.
  lowerChild(child.pid);
  // Handing a socket to a child stops its reading here; the service reads on (the connection's
  // next request, or the client leaving), the child never reads.
  socket?.resume();
  // Every error of the child is heard (a failed spawn is followed by the channel's own): unheard, one would end the service.
  child.on('error', () => undefined);
  const data = socket ? undefined : (child.stdio[EXPORT_DATA_FD] as Readable);
  const missing: string[] = [];
  let heard = false;
  let said: Extract<ExportWorkerMessage, { type: 'end' }> | undefined;
  let failure: string | undefined;
  let dataEnded = !data;

  return new Promise<ZipOutcome>((resolve, reject) => {
    let settled = false;
    const settle = (outcome: ZipOutcome | Error): void => {
      if (settled) return;
      settled = true;
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    const finishIfWhole = (): void => {
      if (!said || !dataEnded || settled) return;
      if (said.state !== 'done') {
        out.destroy();
        settle({ state: 'aborted', filesDone: said.filesDone, missing });
        return;
      }
      const whole = said;
      out.end(() => settle({ state: 'done', filesDone: whole.filesDone, missing }));
    };
    child.on('message', (message: ExportWorkerMessage) => {
      heard = true;
      if (message.type === 'started') return;
      if (message.type === 'entry') hooks.entry(message.name);
      else if (message.type === 'missing') {
        missing.push(message.name);
        hooks.missing(message.name);
      } else if (message.type === 'end') {
        said = message;
        finishIfWhole();
      } else failure = message.message;
    });
    if (data) {
      data.on('data', () => (heard = true));
      data.once('end', () => {
        dataEnded = true;
        finishIfWhole();
      });
      data.on('error', () => undefined);
      data.pipe(out, { end: false });
    }
    out.once('close', () => {
      if (settled) return;
      child.kill('SIGKILL');
      data?.destroy();
      settle({ state: 'aborted', filesDone: said?.filesDone ?? 0, missing });
    });
    child.once('error', (err) => {
      if (!heard) settle(new ExportProcessUnavailable(err.message));
    });
    if (child.pid === undefined || !child.send) {
      settle(new ExportProcessUnavailable('the export process could not start'));
      return;
    }
    child.once('close', (code, signal) => {
      if (settled || (said && dataEnded)) return;
      if (!heard) {
        settle(new ExportProcessUnavailable(`the export process ended (${signal ?? `code ${code}`}) before it began`));
        return;
      }
      out.destroy();
      settle(new Error(failure ?? `the export process stopped (${signal ?? `code ${code}`})`));
    });
    child.send({ type: 'zip', ...job, framing: socket ? 'chunked' : 'raw' } satisfies ExportJob, (err) => {
      if (err && !heard) settle(new ExportProcessUnavailable(err.message));
    });
  });
}

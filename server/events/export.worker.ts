import { Socket } from 'node:net';
import { lowerOwnPriority } from '../core/background/own-priority.js';
import { ChunkedSocketWriter } from './export-framing.js';
import { EXPORT_DATA_FD, type ExportJob, type ExportWorkerMessage } from './export.protocol.js';

/**
 * The ZIP export's process (EventExportService forks one per download): it lowers itself below the
 * capture app first (nice 19, SCHED_IDLE, idle I/O), then reads the photos, computes the CRCs and
 * writes the ZIP straight into the operator's download (a copy of its socket), or into a pipe the
 * service forwards. The reading, the checksums and the sending, all of an export's work, then take
 * only what the board leaves idle.
 */
const send = process.send?.bind(process);
if (!send) throw new Error('The export process runs only as a child of the service');
const say = (message: ExportWorkerMessage, then?: () => void): void => {
  send(message, undefined, {}, () => then?.());
};
const lowered = lowerOwnPriority();
process.on('disconnect', () => process.exit(0));
process.once('message', (job: ExportJob) => {
  void (async () => {
    await lowered;
    const { writeZip } = await import('./export-zip.js');
    const socket = new Socket({ fd: EXPORT_DATA_FD, readable: false, writable: true });
    // A write refused (the client left, the pipe closed) ends the ZIP as aborted, not the process.
    socket.on('error', () => undefined);
    // The client's socket is shared with the service: never ended here (that would close it), left at exit.
    const out = job.framing === 'chunked' ? new ChunkedSocketWriter(socket) : socket;
    say({ type: 'started' });
    try {
      const outcome = await writeZip(job.entries, out, {
        zip64: job.zip64,
        now: job.now,
        hooks: { entry: (name) => say({ type: 'entry', name }), missing: (name) => say({ type: 'missing', name }) },
      });
      say({ type: 'end', state: outcome.state, filesDone: outcome.filesDone }, () => process.exit(0));
    } catch (err) {
      say({ type: 'failed', message: err instanceof Error ? err.message : String(err) }, () => process.exit(1));
    }
  })();
});

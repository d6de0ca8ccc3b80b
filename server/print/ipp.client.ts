import http from 'node:http';
import { PrinterUnreachableError } from './printer.port.js';

/** IPP job-state values (RFC 8011 §5.3.7). */
export const JOB_STATE = { pending: 3, held: 4, processing: 5, stopped: 6, canceled: 7, aborted: 8, completed: 9 } as const;

export interface IppJob {
  state: number;
  /** job-printer-state-message: the filter's or backend's last words. */
  message: string;
  /** job-state-reasons (`job-completed-with-errors`…). */
  reasons: string[];
}

/** Asks CUPS for one job's final state; null when CUPS no longer knows the job. */
export type JobStateQuery = (printer: string, jobNumber: number) => Promise<IppJob | null>;

const TIMEOUT_MS = 5000;
const MAX_ANSWER = 64 * 1024;
const NOT_FOUND = 0x0406;

/** One IPP attribute: its value tag, name and value, each length-prefixed. */
export const ippAttribute = (tag: number, name: string, value: Buffer): Buffer => {
  const n = Buffer.from(name);
  const head = Buffer.alloc(3);
  head[0] = tag;
  head.writeUInt16BE(n.length, 1);
  const length = Buffer.alloc(2);
  length.writeUInt16BE(value.length);
  return Buffer.concat([head, n, length, value]);
};

/** What the print worker asks of a job: its state and why. */
const JOB_ATTRIBUTES = ['job-state', 'job-printer-state-message', 'job-state-reasons'] as const;

/** A Get-Job-Attributes request (IPP 2.0) for `attributes` of one job (the worker's by default). */
export function jobRequest(printer: string, jobNumber: number, attributes: readonly string[] = JOB_ATTRIBUTES): Buffer {
  const id = Buffer.alloc(4);
  id.writeInt32BE(jobNumber);
  return Buffer.concat([
    Buffer.from([2, 0, 0, 0x09, 0, 0, 0, 1, 0x01]),
    ippAttribute(0x47, 'attributes-charset', Buffer.from('utf-8')),
    ippAttribute(0x48, 'attributes-natural-language', Buffer.from('en')),
    ippAttribute(0x45, 'printer-uri', Buffer.from(`ipp://localhost/printers/${printer}`)),
    ippAttribute(0x21, 'job-id', id),
    // The first value names the attribute; the others follow with an empty name.
    ...attributes.map((a, i) => ippAttribute(0x44, i === 0 ? 'requested-attributes' : '', Buffer.from(a))),
    Buffer.from([0x03]),
  ]);
}

/** Reads job-state and job-printer-state-message from an IPP answer; null for "not found". */
export function parseJobAnswer(data: Buffer): IppJob | null {
  if (data.length < 8) throw new Error('IPP answer too short');
  const status = data.readUInt16BE(2);
  if (status === NOT_FOUND) return null;
  if (status >= 0x0400) throw new Error(`IPP status 0x${status.toString(16)}`);
  let i = 8;
  let state: number | undefined;
  let message = '';
  const reasons: string[] = [];
  let name = '';
  while (i < data.length) {
    const tag = data[i++] ?? 0x03;
    if (tag === 0x03) break;
    if (tag < 0x10) continue;
    const nameLength = data.readUInt16BE(i);
    i += 2;
    if (nameLength > 0) name = data.toString('utf8', i, i + nameLength);
    i += nameLength;
    const valueLength = data.readUInt16BE(i);
    i += 2;
    if (name === 'job-state' && tag === 0x23 && valueLength === 4) state = data.readInt32BE(i);
    if (name === 'job-printer-state-message') message = data.toString('utf8', i, i + valueLength);
    if (name === 'job-state-reasons') reasons.push(data.toString('utf8', i, i + valueLength));
    i += valueLength;
  }
  if (state === undefined) throw new Error('IPP answer without job-state');
  return { state, message, reasons };
}

/** CUPS's local socket, where lpstat itself asks (CUPS_SERVER when it names a socket). */
const defaultSocket = (): string => (process.env.CUPS_SERVER?.startsWith('/') ? process.env.CUPS_SERVER : '/run/cups/cups.sock');

/** One IPP request to CUPS over its local socket; the answer bounded in size and time. */
function ippPost(socketPath: string, printer: string, body: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        socketPath,
        path: `/printers/${encodeURIComponent(printer)}`,
        method: 'POST',
        headers: { 'Content-Type': 'application/ipp', 'Content-Length': body.length },
        timeout: TIMEOUT_MS,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER) req.destroy(new Error('IPP answer too large'));
          else chunks.push(chunk);
        });
        res.on('end', () => resolve(Buffer.concat(chunks)));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new PrinterUnreachableError('CUPS did not answer in time')));
    req.on('error', (err) => reject(err instanceof PrinterUnreachableError ? err : new PrinterUnreachableError(err.message)));
    req.end(body);
  });
}

/**
 * The job's state from CUPS over its local socket, as lpstat itself asks it: lpstat's listing
 * does not tell a job cancelled (or purged with `cancel -x`) from a completed one.
 */
export function ippJobState(socketPath = defaultSocket()): JobStateQuery {
  return (printer, jobNumber) => ippPost(socketPath, printer, jobRequest(printer, jobNumber)).then(parseJobAnswer);
}

/** Asks CUPS for one printer's printer-error-policy; null when CUPS does not know the printer. */
export type ErrorPolicyQuery = (printer: string) => Promise<string | null>;

/** A Get-Printer-Attributes request (IPP 2.0) for `attributes` of one printer. */
export function printerRequest(printer: string, attributes: readonly string[]): Buffer {
  return Buffer.concat([
    Buffer.from([2, 0, 0, 0x0b, 0, 0, 0, 1, 0x01]),
    ippAttribute(0x47, 'attributes-charset', Buffer.from('utf-8')),
    ippAttribute(0x48, 'attributes-natural-language', Buffer.from('en')),
    ippAttribute(0x45, 'printer-uri', Buffer.from(`ipp://localhost/printers/${printer}`)),
    ...attributes.map((a, i) => ippAttribute(0x44, i === 0 ? 'requested-attributes' : '', Buffer.from(a))),
    Buffer.from([0x03]),
  ]);
}

/** The first value of one attribute in an IPP answer; null for "not found" or an absent attribute. */
export function parseAttributeAnswer(data: Buffer, wanted: string): string | null {
  if (data.length < 8) throw new Error('IPP answer too short');
  const status = data.readUInt16BE(2);
  if (status === NOT_FOUND) return null;
  if (status >= 0x0400) throw new Error(`IPP status 0x${status.toString(16)}`);
  let i = 8;
  while (i + 4 < data.length) {
    const tag = data[i++] ?? 0x03;
    if (tag === 0x03) break;
    if (tag < 0x10) continue;
    const nameLength = data.readUInt16BE(i);
    const name = data.toString('utf8', i + 2, i + 2 + nameLength);
    i += 2 + nameLength;
    const valueLength = data.readUInt16BE(i);
    i += 2;
    if (name === wanted) return data.toString('utf8', i, i + valueLength);
    i += valueLength;
  }
  return null;
}

/** printer-error-policy is not among what `lpoptions -p` prints: IPP is asked, as for jobs. */
export function ippErrorPolicy(socketPath = defaultSocket()): ErrorPolicyQuery {
  return (printer) =>
    ippPost(socketPath, printer, printerRequest(printer, ['printer-error-policy'])).then((d) =>
      parseAttributeAnswer(d, 'printer-error-policy'),
    );
}

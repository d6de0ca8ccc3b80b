import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { jobRequest, parseAttributeAnswer, printerRequest } from '../../server/print/ipp.client.js';

/** The CUPS-PDF printer `npm run test:deps` sets up. */
export const CUPS_PRINTER = 'PDF';
/**
 * cups-pdf writes each job to ~/PDF of the user who sent it, named after the job id. The home
 * folder is the account's (cups-pdf reads it from passwd), not $HOME, which CI containers change.
 */
export const PDF_OUTPUT = path.join(os.userInfo().homedir, 'PDF');

/** Fails with the fix in the message when the test machine has no CUPS with the PDF printer. */
export function requireCups(): void {
  try {
    execFileSync('lpstat', ['-p', CUPS_PRINTER], { stdio: 'pipe', env: { ...process.env, LC_ALL: 'C' } });
  } catch {
    throw new Error(`CUPS with the ${CUPS_PRINTER} printer is needed: run "npm run test:deps" (as root or with sudo)`);
  }
}

/**
 * A CUPS-PDF queue of a test's own (other tests share `PDF`): its state and policy can be changed
 * without disturbing them. `uri` lets a test make its backend fail: `beh:/0/1/0/missing:/` (the
 * Backend Error Handler running a backend that does not exist, once) fails every job at once, so
 * CUPS applies the queue's printer-error-policy.
 */
export function createQueue(name: string, uri = 'cups-pdf:/'): void {
  execFileSync('lpadmin', ['-p', name, '-E', '-v', uri, '-m', 'lsb/usr/cups-pdf/CUPS-PDF_opt.ppd'], { stdio: 'pipe' });
}

/** A failing backend for `createQueue`. */
export const FAILING_URI = 'beh:/0/1/0/missing:/';

/** Points a test queue at another device (the "fix": the printer works again). */
export function setQueueUri(name: string, uri: string): void {
  execFileSync('lpadmin', ['-p', name, '-v', uri], { stdio: 'pipe' });
}

/** Removes a test queue and every job in it. */
export function removeQueue(name: string): void {
  try {
    execFileSync('cancel', ['-a', '-x', name], { stdio: 'pipe' });
  } catch {
    /* no jobs, or no queue */
  }
  try {
    execFileSync('lpadmin', ['-x', name], { stdio: 'pipe' });
  } catch {
    /* already gone */
  }
}

/** `cupsdisable`/`cupsenable`/`cupsreject` on a test queue. */
export function queueCommand(command: 'cupsdisable' | 'cupsenable' | 'cupsreject', name: string, ...args: string[]): void {
  execFileSync(command, [...args, name], { stdio: 'pipe' });
}

/** The queue's printer-error-policy, read back from CUPS over IPP (Get-Printer-Attributes on localhost:631). */
export async function queuePolicy(name: string): Promise<string | null> {
  const res = await fetch(`http://localhost:631/printers/${name}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/ipp' },
    body: new Uint8Array(printerRequest(name, ['printer-error-policy'])),
  });
  return parseAttributeAnswer(Buffer.from(await res.arrayBuffer()), 'printer-error-policy');
}

export function cupsCommand(command: 'cupsdisable' | 'cupsenable' | 'cancel', ...args: string[]): void {
  if (command === 'cancel') {
    execFileSync('cancel', args, { stdio: 'pipe' });
    return;
  }
  execFileSync(command, [...args, CUPS_PRINTER], { stdio: 'pipe' });
}

/** A PDF's first page size in points, as pdfinfo reads it. */
export function pageSize(pdf: string): { width: number; height: number; name: string } {
  const line = /Page size:\s+([\d.]+) x ([\d.]+) pts(?: \((\w+)\))?/.exec(execFileSync('pdfinfo', [pdf]).toString());
  if (!line) throw new Error(`pdfinfo gave no page size for ${pdf}`);
  return { width: Number(line[1]), height: Number(line[2]), name: line[3] ?? '' };
}

/** Near-white, as paper left blank renders. */
const blank = (rgb: number[]): boolean => rgb.every((c) => c >= 245);

/**
 * The first page rendered by pdftoppm (a small PNG), read as RGB: whether each edge is blank
 * paper, and the colour near the top and the bottom.
 */
export async function pageEdges(pdf: string): Promise<{
  blank: Record<'top' | 'bottom' | 'left' | 'right', boolean>;
  top: number[];
  bottom: number[];
  left: number[];
  right: number[];
}> {
  const png = execFileSync('pdftoppm', ['-r', '24', '-png', '-singlefile', pdf]);
  const { default: sharp } = await import('sharp');
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number): number[] => {
    const i = (y * info.width + x) * 3;
    return [data[i] ?? 0, data[i + 1] ?? 0, data[i + 2] ?? 0];
  };
  const w = info.width - 1;
  const h = info.height - 1;
  const edge = (points: [number, number][]): boolean => points.every(([x, y]) => blank(at(x, y)));
  const along = (n: number): number[] => [0.25, 0.5, 0.75].map((f) => Math.round(n * f));
  return {
    blank: {
      top: edge(along(w).map((x) => [x, 0])),
      bottom: edge(along(w).map((x) => [x, h])),
      left: edge(along(h).map((y) => [0, y])),
      right: edge(along(h).map((y) => [w, y])),
    },
    top: at(w >> 1, Math.round(h * 0.1)),
    bottom: at(w >> 1, Math.round(h * 0.9)),
    left: at(Math.round(w * 0.1), h >> 1),
    right: at(Math.round(w * 0.9), h >> 1),
  };
}

/** The PDF cups-pdf wrote for a CUPS job id (`PDF-12`), if any. */
export function pdfOf(cupsJobId: string): string | undefined {
  const n = cupsJobId.split('-').pop() ?? '';
  if (!existsSync(PDF_OUTPUT)) return undefined;
  const name = readdirSync(PDF_OUTPUT).find((f) => f.endsWith(`-job_${n}.pdf`));
  return name ? path.join(PDF_OUTPUT, name) : undefined;
}

/**
 * The copies CUPS recorded for a job (`PDF-12`), asked over IPP (Get-Job-Attributes on
 * localhost:631): cups-pdf writes one PDF whatever the copies, so the job is what tells.
 */
export async function cupsCopies(cupsJobId: string): Promise<number | undefined> {
  const body = jobRequest(CUPS_PRINTER, Number(cupsJobId.split('-').pop()), ['copies']);
  const res = await fetch(`http://localhost:631/printers/${CUPS_PRINTER}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/ipp' },
    body: new Uint8Array(body),
  });
  const data = Buffer.from(await res.arrayBuffer());
  const marker = Buffer.concat([Buffer.from([0x21, 0x00, 0x06]), Buffer.from('copies'), Buffer.from([0x00, 0x04])]);
  const at = data.indexOf(marker);
  return at < 0 ? undefined : data.readInt32BE(at + marker.length);
}

import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

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

export function cupsCommand(command: 'cupsdisable' | 'cupsenable', ...args: string[]): void {
  execFileSync(command, [...args, CUPS_PRINTER], { stdio: 'pipe' });
}

/** The PDF cups-pdf wrote for a CUPS job id (`PDF-12`), if any. */
export function pdfOf(cupsJobId: string): string | undefined {
  const n = cupsJobId.split('-').pop() ?? '';
  if (!existsSync(PDF_OUTPUT)) return undefined;
  const name = readdirSync(PDF_OUTPUT).find((f) => f.endsWith(`-job_${n}.pdf`));
  return name ? path.join(PDF_OUTPUT, name) : undefined;
}

const ippAttribute = (tag: number, name: string, value: Buffer): Buffer => {
  const n = Buffer.from(name);
  const head = Buffer.alloc(3);
  head[0] = tag;
  head.writeUInt16BE(n.length, 1);
  const length = Buffer.alloc(2);
  length.writeUInt16BE(value.length);
  return Buffer.concat([head, n, length, value]);
};

/**
 * The copies CUPS recorded for a job (`PDF-12`), asked over IPP (Get-Job-Attributes on
 * localhost:631): cups-pdf writes one PDF whatever the copies, so the job is what tells.
 */
export async function cupsCopies(cupsJobId: string): Promise<number | undefined> {
  const jobId = Buffer.alloc(4);
  jobId.writeInt32BE(Number(cupsJobId.split('-').pop()));
  const body = Buffer.concat([
    // IPP 2.0, operation Get-Job-Attributes (0x0009), request 1, operation attributes
    Buffer.from([2, 0, 0, 9, 0, 0, 0, 1, 1]),
    ippAttribute(0x47, 'attributes-charset', Buffer.from('utf-8')),
    ippAttribute(0x48, 'attributes-natural-language', Buffer.from('en')),
    ippAttribute(0x45, 'printer-uri', Buffer.from(`ipp://localhost/printers/${CUPS_PRINTER}`)),
    ippAttribute(0x21, 'job-id', jobId),
    ippAttribute(0x44, 'requested-attributes', Buffer.from('copies')),
    Buffer.from([3]),
  ]);
  const res = await fetch(`http://localhost:631/printers/${CUPS_PRINTER}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/ipp' },
    body,
  });
  const data = Buffer.from(await res.arrayBuffer());
  const marker = Buffer.concat([Buffer.from([0x21, 0x00, 0x06]), Buffer.from('copies'), Buffer.from([0x00, 0x04])]);
  const at = data.indexOf(marker);
  return at < 0 ? undefined : data.readInt32BE(at + marker.length);
}

import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The CUPS-PDF printer `npm run test:deps` sets up. */
export const CUPS_PRINTER = 'PDF';
/** cups-pdf writes each job to ~/PDF of the user who sent it, named after the job id. */
export const PDF_OUTPUT = path.join(os.homedir(), 'PDF');

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

/**
 * The copies CUPS recorded for a job, read from its control file (IPP attributes: an integer
 * tag 0x21, the name "copies", a 4-byte value). Needs read access to /var/spool/cups (root).
 */
export function cupsCopies(cupsJobId: string): number | undefined {
  const n = Number(cupsJobId.split('-').pop());
  const file = path.join('/var/spool/cups', `c${String(n).padStart(5, '0')}`);
  const data = readFileSync(file);
  const marker = Buffer.concat([Buffer.from([0x21, 0x00, 0x06]), Buffer.from('copies'), Buffer.from([0x00, 0x04])]);
  const at = data.indexOf(marker);
  return at < 0 ? 1 : data.readInt32BE(at + marker.length);
}

import type { SystemPort } from '../system/system.port.js';
import { PrinterUnreachableError, type PrinterInfo, type PrinterJobStatus, type PrinterPort } from './printer.port.js';

const TIMEOUT_MS = 10_000;
/** A CUPS destination or job name as lp/lpstat print it; anything else is never passed on. */
const SAFE_NAME = /^[\w.@-]{1,127}$/;

function checkName(name: string, what: string): string {
  if (!SAFE_NAME.test(name)) throw new Error(`Invalid ${what}: ${name}`);
  return name;
}

/**
 * `lpstat -l -p` blocks: a header line per printer, then indented details. The first indented
 * line of a disabled printer is its reason message; `Alerts:` lists printer-state-reasons.
 */
export function parsePrinters(text: string, defaultName: string | null): PrinterInfo[] {
  const out: PrinterInfo[] = [];
  let current: PrinterInfo | undefined;
  let firstDetail = true;
  for (const line of text.split('\n')) {
    const head = /^printer (\S+) (?:is idle|now printing|disabled)/.exec(line);
    if (head?.[1]) {
      const name = head[1];
      const state = line.includes(' disabled') ? 'stopped' : line.includes('now printing') ? 'printing' : 'idle';
      current = { name, state, reasons: [], message: '', isDefault: name === defaultName };
      out.push(current);
      firstDetail = true;
      continue;
    }
    if (!current || !line.startsWith('\t')) continue;
    const detail = line.trim();
    const alerts = /^Alerts:\s*(.*)$/.exec(detail);
    if (alerts) {
      current.reasons = (alerts[1] ?? '').split(/[\s,]+/).filter((r) => r !== '' && r !== 'none');
    } else if (firstDetail && !/^[A-Z][\w ]*:/.test(detail)) {
      current.message = detail;
    }
    firstDetail = false;
  }
  return out;
}

/**
 * A job's state from `lpstat -l -W <which> -o <printer>`: one line per job starting with its
 * id, then indented `Status:` and `Alerts:` lines.
 */
export function findJob(text: string, jobId: string): { alerts: string[]; status: string } | undefined {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.split(/\s+/)[0] === jobId);
  if (start < 0) return undefined;
  let alerts: string[] = [];
  let status = '';
  for (const line of lines.slice(start + 1)) {
    if (!line.startsWith('\t') && !line.startsWith(' ')) break;
    const t = line.trim();
    if (t.startsWith('Alerts:'))
      alerts = t
        .slice(7)
        .trim()
        .split(/[\s,]+/)
        .filter(Boolean);
    if (t.startsWith('Status:')) status = t.slice(7).trim();
  }
  return { alerts, status };
}

/** CUPS through its command-line clients, by argv, never a shell. */
export class CupsPrinter implements PrinterPort {
  constructor(private readonly system: SystemPort) {}

  private async lpstat(args: string[]): Promise<string> {
    const res = await this.system.run('lpstat', args, { timeoutMs: TIMEOUT_MS, env: { LC_ALL: 'C', LANG: 'C' } });
    // lpstat answers 1 for "no printers" too; only an unreachable scheduler is an error here.
    if (/scheduler is not running|Unable to connect|not responding/i.test(res.stderr) || res.code === 127 || res.code === 124) {
      throw new PrinterUnreachableError(res.stderr.trim() || 'CUPS does not answer');
    }
    return res.stdout;
  }

  async list(): Promise<PrinterInfo[]> {
    const defaultText = await this.lpstat(['-d']);
    const defaultName = /destination:\s*(\S+)/.exec(defaultText)?.[1] ?? null;
    return parsePrinters(await this.lpstat(['-l', '-p']), defaultName);
  }

  async submit(printer: string, file: string, copies: number, title: string): Promise<string> {
    const args = ['-d', checkName(printer, 'printer'), '-n', String(copies), '-t', title, '--', file];
    const res = await this.system.run('lp', args, { timeoutMs: TIMEOUT_MS * 3, env: { LC_ALL: 'C', LANG: 'C' } });
    const id = /request id is (\S+)/.exec(res.stdout)?.[1];
    if (res.code !== 0 || !id) {
      const detail = res.stderr.trim() || res.stdout.trim() || `lp exited with ${res.code}`;
      if (/scheduler is not running|Unable to connect/i.test(detail)) throw new PrinterUnreachableError(detail);
      throw new Error(detail);
    }
    return id;
  }

  async jobStatus(printer: string, jobId: string): Promise<PrinterJobStatus> {
    checkName(jobId, 'job id');
    const active = findJob(await this.lpstat(['-l', '-W', 'not-completed', '-o', checkName(printer, 'printer')]), jobId);
    if (active) {
      // A filter that failed leaves the job stopped in CUPS, not completed: it will not print.
      if (active.alerts.some((a) => a.includes('with-errors') || a === 'job-stopped'))
        return { state: 'failed', detail: active.status || active.alerts.join(', ') };
      return { state: active.alerts.includes('job-printing') ? 'processing' : 'pending', detail: active.status };
    }
    const done = findJob(await this.lpstat(['-l', '-W', 'completed', '-o', printer]), jobId);
    if (!done) return { state: 'gone', detail: '' };
    if (done.alerts.some((a) => a.includes('canceled') || a.includes('cancelled'))) return { state: 'cancelled', detail: done.status };
    if (done.alerts.some((a) => a.includes('error') || a.includes('aborted') || a.includes('stopped'))) {
      return { state: 'failed', detail: done.status || done.alerts.join(', ') };
    }
    return { state: 'completed', detail: done.status };
  }

  async cancel(jobId: string): Promise<void> {
    const res = await this.system.run('cancel', [checkName(jobId, 'job id')], { timeoutMs: TIMEOUT_MS, env: { LC_ALL: 'C', LANG: 'C' } });
    if (res.code !== 0 && !/already|not found|does not exist/i.test(res.stderr)) throw new Error(res.stderr.trim() || 'cancel failed');
  }
}

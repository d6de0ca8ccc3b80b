import type { PrinterSupply } from '../contract/print.contract.js';
import type { SystemCommand, SystemPort } from '../system/system.port.js';
import { ippErrorPolicy, ippJobState, JOB_STATE, type ErrorPolicyQuery, type JobStateQuery } from './ipp.client.js';
import {
  ERROR_POLICIES,
  PrinterForbiddenError,
  PrinterUnreachableError,
  type ErrorPolicy,
  type PrinterDetails,
  type PrinterInfo,
  type PrinterJobStatus,
  type PrinterPort,
  type SubmitOptions,
} from './printer.port.js';

const TIMEOUT_MS = 10_000;
/** The watcher asks every 2 s: a CUPS that takes longer than this is as good as not answering. */
const QUERY_TIMEOUT_MS = 5_000;
const C_LOCALE = { LC_ALL: 'C', LANG: 'C' };
/** A CUPS destination or job name as lp/lpstat print it; anything else is never passed on. */
const SAFE_NAME = /^[\w.@-]{1,127}$/;

function checkName(name: string, what: string): string {
  if (!SAFE_NAME.test(name)) throw new Error(`Invalid ${what}: ${name}`);
  return name;
}

/**
 * `lpstat -l -p -a` blocks: a header line per printer, then indented details. The first indented
 * line of a disabled printer is its reason message; `Alerts:` lists printer-state-reasons. Then
 * one `NAME accepting requests` or `NAME not accepting requests` line per printer (-a).
 */
export function parsePrinters(text: string, defaultName: string | null): PrinterInfo[] {
  const out: PrinterInfo[] = [];
  let current: PrinterInfo | undefined;
  let firstDetail = true;
  const refusing = new Set<string>();
  for (const line of text.split('\n')) {
    const accepting = /^(\S+) (not )?accepting requests/.exec(line);
    if (accepting?.[1]) {
      if (accepting[2]) refusing.add(accepting[1]);
      // The reason given to cupsreject follows, indented: it belongs to no -p block.
      current = undefined;
      continue;
    }
    const head = /^printer (\S+) (?:is idle|now printing|disabled)/.exec(line);
    if (head?.[1]) {
      const name = head[1];
      const state = line.includes(' disabled') ? 'stopped' : line.includes('now printing') ? 'printing' : 'idle';
      current = { name, state, reasons: [], message: '', isDefault: name === defaultName, accepting: true };
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
  for (const p of out) p.accepting = !refusing.has(p.name);
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

/**
 * lp options for a layout: the paper by its PageSize name, cups-filters' print-scaling (fill
 * crops to the paper, fit keeps the whole photo with margins) and the photo's orientation.
 */
export function layoutOptions(options: SubmitOptions): string[] {
  const out: string[] = [];
  if (options.paper !== null) out.push('-o', `PageSize=${checkName(options.paper, 'paper size')}`, '-o', `media=${options.paper}`);
  out.push('-o', `print-scaling=${options.layout === 'fill' ? 'fill' : 'fit'}`);
  if (options.orientation) out.push('-o', `orientation-requested=${options.orientation === 'landscape' ? 4 : 3}`);
  return out;
}

/** `lpoptions -p NAME` prints `key=value` pairs; values may be quoted ('…', "…") or backslash-escaped. */
export function parseAttributes(text: string): Map<string, string> {
  const out = new Map<string, string>();
  let i = 0;
  while (i < text.length) {
    while (i < text.length && /\s/.test(text[i] ?? '')) i++;
    let key = '';
    while (i < text.length && !/[\s=]/.test(text[i] ?? '')) key += text[i++];
    let value = '';
    if (text[i] === '=') {
      i++;
      let quote: string | undefined;
      while (i < text.length) {
        const c = text[i] ?? '';
        if (quote) {
          if (c === quote) quote = undefined;
          else value += c;
        } else if (c === "'" || c === '"') quote = c;
        else if (c === '\\') value += text[++i] ?? '';
        else if (/\s/.test(c)) break;
        else value += c;
        i++;
      }
    }
    if (key) out.set(key, value);
  }
  return out;
}

/** A comma list where a name may hold an escaped comma. */
const commaList = (value: string | undefined): string[] =>
  value === undefined || value === '' ? [] : value.split(/(?<!\\),/).map((v) => v.replace(/\\,/g, ','));

/** IPP marker-names / marker-levels / marker-types; a level below 0 means "present, level unknown". */
export function parseSupplies(attributes: Map<string, string>): PrinterSupply[] {
  const names = commaList(attributes.get('marker-names'));
  const levels = commaList(attributes.get('marker-levels'));
  const types = commaList(attributes.get('marker-types'));
  return names.map((name, i) => {
    const level = Number(levels[i]);
    return { name, level: Number.isInteger(level) && level >= 0 && level <= 100 ? level : null, type: types[i] ?? '' };
  });
}

/** The PageSize (or media) line of `lpoptions -p NAME -l`: names, the default starred. */
export function parsePapers(text: string): { papers: string[]; defaultPaper: string | null } {
  const line = text.split('\n').find((l) => /^PageSize\//.test(l)) ?? text.split('\n').find((l) => /^media\//i.test(l));
  if (!line) return { papers: [], defaultPaper: null };
  const words = line
    .slice(line.indexOf(':') + 1)
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '' && !w.startsWith('Custom.WIDTH'));
  const papers = words.map((w) => w.replace(/^\*/, '')).filter((w) => SAFE_NAME.test(w));
  const starred = words.find((w) => w.startsWith('*'))?.slice(1) ?? null;
  return { papers, defaultPaper: starred !== null && papers.includes(starred) ? starred : null };
}

/** CUPS through its command-line clients, by argv, never a shell. */
export class CupsPrinter implements PrinterPort {
  constructor(
    private readonly system: SystemPort,
    private readonly jobState: JobStateQuery = ippJobState(),
    private readonly policyOf: ErrorPolicyQuery = ippErrorPolicy(),
  ) {}

  private async query(command: Extract<SystemCommand, 'lpstat' | 'lpoptions'>, args: string[]): Promise<string> {
    const res = await this.system.run(command, args, { timeoutMs: QUERY_TIMEOUT_MS, env: C_LOCALE });
    // lpstat answers 1 for "no printers" too; only an unreachable scheduler is an error here.
    if (/scheduler is not running|Unable to connect|not responding/i.test(res.stderr) || res.code === 127 || res.code === 124) {
      throw new PrinterUnreachableError(res.stderr.trim() || 'CUPS does not answer');
    }
    return res.stdout;
  }

  private lpstat(args: string[]): Promise<string> {
    return this.query('lpstat', args);
  }

  /** One process for the default, every printer's state and whether it accepts jobs: the watcher runs this every 2 s. */
  async list(): Promise<PrinterInfo[]> {
    const text = await this.lpstat(['-d', '-l', '-p', '-a']);
    const defaultName = /system default destination:\s*(\S+)/.exec(text)?.[1] ?? null;
    return parsePrinters(text, defaultName);
  }

  async details(printer: string): Promise<PrinterDetails> {
    const name = checkName(printer, 'printer');
    const [attributes, options, errorPolicy] = await Promise.all([
      this.query('lpoptions', ['-p', name]),
      this.query('lpoptions', ['-p', name, '-l']),
      this.policyOf(name).catch(() => null),
    ]);
    return { ...parsePapers(options), supplies: parseSupplies(parseAttributes(attributes)), errorPolicy };
  }

  /** An administrative command on a queue; CUPS's refusal for lack of rights is told apart. */
  private async administer(command: Extract<SystemCommand, 'cupsenable' | 'cupsaccept' | 'lpadmin'>, args: string[]): Promise<void> {
    const res = await this.system.run(command, args, { timeoutMs: TIMEOUT_MS, env: C_LOCALE });
    if (res.code === 0) return;
    const detail = res.stderr.trim() || res.stdout.trim() || `${command} exited with ${res.code}`;
    if (/forbidden|not authorized|unauthorized|permission/i.test(detail)) throw new PrinterForbiddenError(detail);
    if (/scheduler is not running|Unable to connect|not responding/i.test(detail) || res.code === 127 || res.code === 124)
      throw new PrinterUnreachableError(detail);
    throw new Error(detail);
  }

  async resume(printer: string): Promise<void> {
    const name = checkName(printer, 'printer');
    // Accept first: an enabled queue that still refuses would fail the next lp.
    await this.administer('cupsaccept', [name]);
    await this.administer('cupsenable', [name]);
  }

  async setErrorPolicy(printer: string, policy: ErrorPolicy): Promise<void> {
    if (!ERROR_POLICIES.includes(policy)) throw new Error(`Invalid error policy: ${String(policy)}`);
    await this.administer('lpadmin', ['-p', checkName(printer, 'printer'), '-o', `printer-error-policy=${policy}`]);
  }

  async submit(printer: string, file: string, options: SubmitOptions): Promise<string> {
    const args = [
      '-d',
      checkName(printer, 'printer'),
      '-n',
      String(options.copies),
      '-t',
      options.title,
      ...layoutOptions(options),
      '--',
      file,
    ];
    const res = await this.system.run('lp', args, { timeoutMs: TIMEOUT_MS * 3, env: C_LOCALE });
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
    // Finished: only IPP's job-state tells completed from cancelled (or purged by `cancel -x`).
    const number = Number(/-(\d+)$/.exec(jobId)?.[1]);
    if (!Number.isSafeInteger(number)) return { state: 'gone', detail: '' };
    const job = await this.jobState(printer, number);
    if (!job) return { state: 'gone', detail: '' };
    switch (job.state) {
      case JOB_STATE.completed:
        // Completed with errors: the page may not have come out right.
        if (job.reasons.some((r) => r.includes('with-errors'))) return { state: 'failed', detail: job.message || job.reasons.join(', ') };
        return { state: 'completed', detail: job.message };
      case JOB_STATE.canceled:
        return { state: 'cancelled', detail: job.message };
      case JOB_STATE.aborted:
      case JOB_STATE.stopped:
        return { state: 'failed', detail: job.message };
      case JOB_STATE.processing:
        return { state: 'processing', detail: job.message };
      default:
        return { state: 'pending', detail: job.message };
    }
  }

  async cancel(jobId: string): Promise<void> {
    const res = await this.system.run('cancel', [checkName(jobId, 'job id')], { timeoutMs: TIMEOUT_MS, env: C_LOCALE });
    if (res.code !== 0 && !/already|not found|does not exist/i.test(res.stderr)) throw new Error(res.stderr.trim() || 'cancel failed');
  }
}

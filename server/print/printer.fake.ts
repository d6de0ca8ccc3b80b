import { readFileSync } from 'node:fs';
import {
  PrinterForbiddenError,
  PrinterUnreachableError,
  type ErrorPolicy,
  type PrinterDetails,
  type PrinterInfo,
  type PrinterJobState,
  type PrinterJobStatus,
  type PrinterPort,
  type SubmitOptions,
} from './printer.port.js';

export interface RecordedPrint {
  id: string;
  printer: string;
  copies: number;
  title: string;
  /** Paper, layout and orientation as lp would have been told. */
  options: SubmitOptions;
  /** The file's bytes, read at submission (the queue removes its spool file afterwards). */
  bytes: Buffer;
  state: PrinterJobState;
  detail: string;
}

/**
 * A printer that records jobs. By default a job completes as soon as its state is asked; tests
 * hold jobs, fail them, stop the printer or make CUPS unreachable.
 */
export class FakePrinter implements PrinterPort {
  readonly jobs: RecordedPrint[] = [];
  readonly cancelled: string[] = [];
  printers: PrinterInfo[] = [{ name: 'Photo', state: 'idle', reasons: [], message: '', isDefault: true, accepting: true }];
  reachable = true;
  /** What each printer declares (paper sizes, supplies); a printer not listed declares nothing. */
  declared: Record<string, Omit<PrinterDetails, 'errorPolicy'>> = {
    Photo: { papers: ['w288h432', 'A5', 'A6'], defaultPaper: 'w288h432', supplies: [] },
  };
  /** Each queue's printer-error-policy (CUPS's own default is stop-printer). */
  readonly policies = new Map<string, string>();
  /** Every resume and policy change asked, in order (`resume Photo`, `policy Photo stop-printer`). */
  readonly administered: string[] = [];
  /** When true, resume and policy changes are refused as CUPS refuses a user outside lpadmin. */
  forbidden = false;
  /**
   * What the printer does when resumed: by default it is enabled, accepts jobs and its reasons
   * clear; a test replaces it (paper still out, stopped again at once).
   */
  onResume: (printer: PrinterInfo) => void = (p) => Object.assign(p, { state: 'idle', reasons: [], message: '', accepting: true });
  /** How many times the printers were listed (the watcher's polls). */
  listed = 0;
  /** When true, jobs stay pending until `finish` is called. */
  hold = false;
  private nextId = 1;

  private check(): void {
    if (!this.reachable) throw new PrinterUnreachableError('CUPS does not answer');
  }

  async list(): Promise<PrinterInfo[]> {
    this.check();
    this.listed++;
    return this.printers.map((p) => ({ ...p, reasons: [...p.reasons] }));
  }

  async details(printer: string): Promise<PrinterDetails> {
    this.check();
    const d = this.declared[printer] ?? { papers: [], defaultPaper: null, supplies: [] };
    return {
      papers: [...d.papers],
      defaultPaper: d.defaultPaper,
      supplies: d.supplies.map((s) => ({ ...s })),
      errorPolicy: this.printers.some((p) => p.name === printer) ? (this.policies.get(printer) ?? 'stop-printer') : null,
    };
  }

  async submit(printer: string, file: string, options: SubmitOptions): Promise<string> {
    this.check();
    const id = `${printer}-${this.nextId++}`;
    this.jobs.push({
      id,
      printer,
      copies: options.copies,
      title: options.title,
      options,
      bytes: readFileSync(file),
      state: 'pending',
      detail: '',
    });
    return id;
  }

  /** CUPS forgets a job (`cancel -x`): its state can no longer be asked. */
  forget(jobId: string): void {
    const i = this.jobs.findIndex((j) => j.id === jobId);
    if (i >= 0) this.jobs.splice(i, 1);
  }

  async jobStatus(_printer: string, jobId: string): Promise<PrinterJobStatus> {
    this.check();
    const job = this.jobs.find((j) => j.id === jobId);
    if (!job) return { state: 'gone', detail: '' };
    const stopped = this.printers.find((p) => p.name === job.printer)?.state === 'stopped';
    if (job.state === 'pending' && !this.hold && !stopped) job.state = 'completed';
    return { state: job.state, detail: job.detail };
  }

  async cancel(jobId: string): Promise<void> {
    this.check();
    this.cancelled.push(jobId);
    const job = this.jobs.find((j) => j.id === jobId);
    if (job && (job.state === 'pending' || job.state === 'processing')) job.state = 'cancelled';
  }

  private known(name: string): PrinterInfo {
    this.check();
    if (this.forbidden) throw new PrinterForbiddenError('Forbidden');
    const printer = this.printers.find((p) => p.name === name);
    if (!printer) throw new Error(`The printer or class does not exist: ${name}`);
    return printer;
  }

  async resume(name: string): Promise<void> {
    const printer = this.known(name);
    this.administered.push(`resume ${name}`);
    this.onResume(printer);
  }

  async setErrorPolicy(name: string, policy: ErrorPolicy): Promise<void> {
    this.known(name);
    this.administered.push(`policy ${name} ${policy}`);
    this.policies.set(name, policy);
  }

  /** Ends a held job the way CUPS would. */
  finish(jobId: string, state: 'completed' | 'failed' = 'completed', detail = ''): void {
    const job = this.jobs.find((j) => j.id === jobId);
    if (!job) throw new Error(`no job ${jobId}`);
    job.state = state;
    job.detail = detail;
  }

  setState(name: string, state: PrinterInfo['state'], reasons: string[] = [], message = ''): void {
    const printer = this.printers.find((p) => p.name === name);
    if (!printer) throw new Error(`no printer ${name}`);
    Object.assign(printer, { state, reasons, message });
  }
}

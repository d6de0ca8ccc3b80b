import { describe, expect, it } from 'vitest';
import { pauseOf } from '../../server/print/printer-monitor.js';
import { CupsPrinter, parsePrinters } from '../../server/print/printer.cups.js';
import { ippAttribute, jobRequest, parseAttributeAnswer, parseJobAnswer, type IppJob } from '../../server/print/ipp.client.js';
import { paperSize } from '../../server/print/paper-sizes.js';
import { pageOrientation } from '../../server/print/print-worker.js';
import { layoutOptions, parseAttributes, parsePapers, parseSupplies } from '../../server/print/printer.cups.js';
import { PrinterForbiddenError, PrinterUnreachableError } from '../../server/print/printer.port.js';
import type { CommandResult, SystemCommand, SystemPort } from '../../server/system/system.port.js';

/** lpstat's answers as CUPS 2.4 gives them (recorded on Debian bookworm). */
const DISABLED = `printer PDF disabled since Sun Nov 22 21:18:15 2026 -
\tPaper out
\tForm mounted:
\tContent types: application/pdf
\tDescription: PDF
\tAlerts: paused
\tConnection: direct
printer Selphy is idle.  enabled since Sun Nov 22 21:00:00 2026
\tForm mounted:
\tAlerts: media-empty-error marker-supply-low-warning
printer Busy now printing Busy-7.  enabled since Sun Nov 22 21:00:00 2026
\tAlerts: none
PDF accepting requests since Sun Nov 22 21:18:15 2026
Selphy not accepting requests since Sun Nov 22 21:00:00 2026 -
\tRibbon changed
Busy accepting requests since Sun Nov 22 21:00:00 2026
`;
const NOT_COMPLETED = `PDF-1                   root              1024   Sun Nov 22 21:17:20 2026
\tStatus: Unable to open image file for printing!
\tAlerts: job-completed-with-errors
\tqueued for PDF
PDF-3                   root              3072   Sun Nov 22 21:19:39 2026
\tStatus:
\tAlerts: job-printing
\tqueued for PDF
PDF-4                   root              3072   Sun Nov 22 21:19:39 2026
\tAlerts: none
\tqueued for PDF
`;
const COMPLETED = `PDF-5                   root              3072   Sun Nov 22 21:19:43 2026
\tStatus:
\tAlerts: processing-to-stop-point
\tqueued for PDF
PDF-6                   root              3072   Sun Nov 22 21:19:43 2026
\tAlerts: job-canceled-by-user
\tqueued for PDF
`;

/** Answers each argv with a recorded output and keeps what was run. */
function scripted(answers: Record<string, Partial<CommandResult>>): SystemPort & { calls: string[][] } {
  const calls: string[][] = [];
  return {
    calls,
    async run(command: SystemCommand, args: readonly string[]) {
      calls.push([command, ...args]);
      return { code: 0, stdout: '', stderr: '', ...answers[[command, ...args].join(' ')] };
    },
  };
}

describe('the CUPS adapter', () => {
  it('reads printers, their state, reasons and the operator message', () => {
    const printers = parsePrinters(DISABLED, 'Selphy');
    expect(printers).toEqual([
      { name: 'PDF', state: 'stopped', reasons: ['paused'], message: 'Paper out', isDefault: false, accepting: true },
      {
        name: 'Selphy',
        state: 'idle',
        reasons: ['media-empty-error', 'marker-supply-low-warning'],
        message: '',
        isDefault: true,
        accepting: false,
      },
      { name: 'Busy', state: 'printing', reasons: [], message: '', isDefault: false, accepting: true },
    ]);
    expect(printers.map(pauseOf)).toEqual(['out_of_paper', 'out_of_paper', null]);
    // Enabled but refusing jobs (cupsreject): lp would fail, so the queue is as good as stopped.
    expect(pauseOf({ name: 'x', state: 'idle', reasons: [], message: '', isDefault: false, accepting: false })).toBe('stopped');
    expect(pauseOf({ name: 'x', state: 'stopped', reasons: ['paused'], message: '', isDefault: false })).toBe('stopped');
    expect(pauseOf({ name: 'x', state: 'idle', reasons: ['media-low-warning'], message: '', isDefault: false })).toBeNull();
  });

  it('submits by argv and follows a job by its id through lpstat', async () => {
    const system = scripted({
      'lp -d PDF -n 2 -t Boothdeck 1 x -o print-scaling=fill -- /spool/job-1.jpg': { stdout: 'request id is PDF-5 (1 file(s))\n' },
      'lpstat -l -W not-completed -o PDF': { stdout: NOT_COMPLETED },
      'lpstat -l -W completed -o PDF': { stdout: COMPLETED },
    });
    // What CUPS answers over IPP for finished jobs: 5 completed, 6 cancelled (cancel -x), 7 completed with errors.
    const finished: Record<number, IppJob> = {
      5: { state: 9, message: '', reasons: ['processing-to-stop-point'] },
      6: { state: 7, message: '', reasons: ['job-canceled-by-user'] },
      7: { state: 9, message: 'Filter failed', reasons: ['job-completed-with-errors'] },
    };
    const cups = new CupsPrinter(system, async (_printer, n) => finished[n] ?? null);
    expect(
      await cups.submit('PDF', '/spool/job-1.jpg', { copies: 2, title: 'Boothdeck 1 x', paper: null, layout: 'fill', orientation: null }),
    ).toBe('PDF-5');
    expect(await cups.jobStatus('PDF', 'PDF-1')).toEqual({ state: 'failed', detail: 'Unable to open image file for printing!' });
    expect((await cups.jobStatus('PDF', 'PDF-3')).state).toBe('processing');
    expect((await cups.jobStatus('PDF', 'PDF-4')).state).toBe('pending');
    expect((await cups.jobStatus('PDF', 'PDF-5')).state).toBe('completed');
    expect((await cups.jobStatus('PDF', 'PDF-6')).state).toBe('cancelled');
    expect(await cups.jobStatus('PDF', 'PDF-7')).toEqual({ state: 'failed', detail: 'Filter failed' });
    expect((await cups.jobStatus('PDF', 'PDF-9')).state).toBe('gone');
    await expect(
      cups.submit('PDF; rm -rf /', '/f', { copies: 1, title: 't', paper: null, layout: 'fill', orientation: null }),
    ).rejects.toThrow('Invalid printer');
  });

  it('reports CUPS that does not answer as unreachable', async () => {
    const cups = new CupsPrinter(scripted({ 'lpstat -d -l -p -a': { code: 1, stderr: 'lpstat: Scheduler is not running.\n' } }));
    await expect(cups.list()).rejects.toBeInstanceOf(PrinterUnreachableError);
  });

  it('resumes a queue and sets its error policy by fixed argv, and tells a refusal for lack of rights', async () => {
    const system = scripted({});
    const cups = new CupsPrinter(system);
    await cups.resume('Selphy');
    await cups.setErrorPolicy('Selphy', 'stop-printer');
    expect(system.calls).toEqual([
      ['cupsaccept', 'Selphy'],
      ['cupsenable', 'Selphy'],
      ['lpadmin', '-p', 'Selphy', '-o', 'printer-error-policy=stop-printer'],
    ]);
    await expect(cups.resume('PDF -E')).rejects.toThrow('Invalid printer');
    await expect(cups.setErrorPolicy('PDF', 'abort-job' as 'stop-printer')).rejects.toThrow('Invalid error policy');
    const refused = new CupsPrinter(scripted({ 'cupsaccept PDF': { code: 1, stderr: 'cupsaccept: Forbidden\n' } }));
    await expect(refused.resume('PDF')).rejects.toBeInstanceOf(PrinterForbiddenError);
  });

  it('reads printer-error-policy from an IPP answer', () => {
    const answer = Buffer.concat([
      Buffer.from([2, 0, 0, 0, 0, 0, 0, 1, 0x01]),
      ippAttribute(0x47, 'attributes-charset', Buffer.from('utf-8')),
      Buffer.from([0x04]),
      ippAttribute(0x42, 'printer-error-policy', Buffer.from('retry-current-job')),
      Buffer.from([0x03]),
    ]);
    expect(parseAttributeAnswer(answer, 'printer-error-policy')).toBe('retry-current-job');
    expect(parseAttributeAnswer(answer, 'printer-state')).toBeNull();
    expect(parseAttributeAnswer(Buffer.from([2, 0, 0x04, 0x06, 0, 0, 0, 1, 0x03]), 'printer-error-policy')).toBeNull();
  });
});

describe('what a printer declares', () => {
  it('reads paper sizes and the default from lpoptions -l, leaving the custom size out', () => {
    const text = `PageSize/Page Size: Custom.WIDTHxHEIGHT w288h432 *A5 Letter 4x6 bad;name
Resolution/Output Resolution: 150dpi *300dpi
`;
    expect(parsePapers(text)).toEqual({ papers: ['w288h432', 'A5', 'Letter', '4x6'], defaultPaper: 'A5' });
    expect(parsePapers('Resolution/Output: *300dpi')).toEqual({ papers: [], defaultPaper: null });
  });

  it('reads marker levels, with quoted and escaped names, and no supplies where none are declared', () => {
    const attrs = parseAttributes(
      `device-uri=usb://DNP/DS620 marker-names='Ribbon\\, 4x6,Paper' marker-levels=12,-3 marker-types=ribbon-wax,media printer-state=3 printer-location`,
    );
    expect(parseSupplies(attrs)).toEqual([
      { name: 'Ribbon, 4x6', level: 12, type: 'ribbon-wax' },
      { name: 'Paper', level: null, type: 'media' },
    ]);
    expect(parseSupplies(parseAttributes('copies=1 device-uri=cups-pdf:/ printer-state=3'))).toEqual([]);
  });

  it('turns paper names into sizes where the name tells them', () => {
    expect(paperSize('A6')).toEqual({ name: 'A6', width_mm: 105, height_mm: 148 });
    expect(paperSize('w288h432')).toEqual({ name: 'w288h432', width_mm: 101.6, height_mm: 152.4 });
    expect(paperSize('4x6')).toEqual({ name: '4x6', width_mm: 101.6, height_mm: 152.4 });
    expect(paperSize('Custom.10x15cm')).toEqual({ name: 'Custom.10x15cm', width_mm: 100, height_mm: 150 });
    expect(paperSize('na_index-4x6_4x6in')).toMatchObject({ width_mm: 101.6, height_mm: 152.4 });
    expect(paperSize('DNPStrip')).toEqual({ name: 'DNPStrip', width_mm: null, height_mm: null });
  });

  it('gives lp the paper, the scaling and the orientation as options, never free text', () => {
    expect(layoutOptions({ copies: 1, title: 't', paper: 'A5', layout: 'fit', orientation: 'landscape' })).toEqual([
      '-o',
      'PageSize=A5',
      '-o',
      'media=A5',
      '-o',
      'print-scaling=fit',
      '-o',
      'orientation-requested=4',
    ]);
    expect(() => layoutOptions({ copies: 1, title: 't', paper: 'A5 -o x', layout: 'fill', orientation: null })).toThrow(
      'Invalid paper size',
    );
  });

  it('reads a job’s state from an IPP answer, and "not found" as a job CUPS forgot', () => {
    const answer = (status: number, attrs: Buffer): Buffer =>
      Buffer.concat([Buffer.from([2, 0, status >> 8, status & 255, 0, 0, 0, 1, 2]), attrs, Buffer.from([3])]);
    const attr = (tag: number, name: string, value: Buffer): Buffer => {
      const head = Buffer.from([tag, 0, name.length]);
      const len = Buffer.from([value.length >> 8, value.length & 255]);
      return Buffer.concat([head, Buffer.from(name), len, value]);
    };
    const state = Buffer.alloc(4);
    state.writeInt32BE(7);
    const body = Buffer.concat([
      attr(0x23, 'job-state', state),
      attr(0x44, 'job-state-reasons', Buffer.from('job-canceled-by-user')),
      attr(0x44, '', Buffer.from('processing-to-stop-point')),
    ]);
    expect(parseJobAnswer(answer(0, body))).toEqual({
      state: 7,
      message: '',
      reasons: ['job-canceled-by-user', 'processing-to-stop-point'],
    });
    expect(parseJobAnswer(answer(0x0406, Buffer.alloc(0)))).toBeNull();
    expect(jobRequest('PDF', 12).includes(Buffer.from('ipp://localhost/printers/PDF'))).toBe(true);
  });
});

describe('the orientation asked of CUPS', () => {
  it('turns the photo a quarter only when its shape and the paper’s differ', () => {
    const a6 = paperSize('A6');
    const sixByFour = paperSize('w432h288');
    expect(pageOrientation('landscape', a6)).toBe('landscape');
    expect(pageOrientation('portrait', a6)).toBe('portrait');
    expect(pageOrientation('landscape', sixByFour)).toBe('portrait');
    expect(pageOrientation('portrait', sixByFour)).toBe('landscape');
    expect(pageOrientation('landscape', null)).toBe('landscape');
    expect(pageOrientation(null, a6)).toBeNull();
  });
});

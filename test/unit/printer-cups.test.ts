import { describe, expect, it } from 'vitest';
import { pauseOf } from '../../server/print/printer-monitor.js';
import { CupsPrinter, parsePrinters } from '../../server/print/printer.cups.js';
import { PrinterUnreachableError } from '../../server/print/printer.port.js';
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
      { name: 'PDF', state: 'stopped', reasons: ['paused'], message: 'Paper out', isDefault: false },
      { name: 'Selphy', state: 'idle', reasons: ['media-empty-error', 'marker-supply-low-warning'], message: '', isDefault: true },
      { name: 'Busy', state: 'printing', reasons: [], message: '', isDefault: false },
    ]);
    expect(printers.map(pauseOf)).toEqual(['out_of_paper', 'out_of_paper', null]);
    expect(pauseOf({ name: 'x', state: 'stopped', reasons: ['paused'], message: '', isDefault: false })).toBe('stopped');
    expect(pauseOf({ name: 'x', state: 'idle', reasons: ['media-low-warning'], message: '', isDefault: false })).toBeNull();
  });

  it('submits by argv and follows a job by its id through lpstat', async () => {
    const system = scripted({
      'lp -d PDF -n 2 -t Boothdeck 1 x -o print-scaling=fill -- /spool/job-1.jpg': { stdout: 'request id is PDF-5 (1 file(s))\n' },
      'lpstat -l -W not-completed -o PDF': { stdout: NOT_COMPLETED },
      'lpstat -l -W completed -o PDF': { stdout: COMPLETED },
    });
    const cups = new CupsPrinter(system);
    expect(
      await cups.submit('PDF', '/spool/job-1.jpg', { copies: 2, title: 'Boothdeck 1 x', paper: null, layout: 'fill', orientation: null }),
    ).toBe('PDF-5');
    expect(await cups.jobStatus('PDF', 'PDF-1')).toEqual({ state: 'failed', detail: 'Unable to open image file for printing!' });
    expect((await cups.jobStatus('PDF', 'PDF-3')).state).toBe('processing');
    expect((await cups.jobStatus('PDF', 'PDF-4')).state).toBe('pending');
    expect((await cups.jobStatus('PDF', 'PDF-5')).state).toBe('completed');
    expect((await cups.jobStatus('PDF', 'PDF-6')).state).toBe('cancelled');
    expect((await cups.jobStatus('PDF', 'PDF-9')).state).toBe('gone');
    await expect(
      cups.submit('PDF; rm -rf /', '/f', { copies: 1, title: 't', paper: null, layout: 'fill', orientation: null }),
    ).rejects.toThrow('Invalid printer');
  });

  it('reports CUPS that does not answer as unreachable', async () => {
    const cups = new CupsPrinter(scripted({ 'lpstat -d -l -p': { code: 1, stderr: 'lpstat: Scheduler is not running.\n' } }));
    await expect(cups.list()).rejects.toBeInstanceOf(PrinterUnreachableError);
  });
});

import { describe, expect, it } from 'vitest';
import type { AppliedMigration } from '../../../common/schema-compat.js';
import { appliedMigrations, databasePlan, printCarryOver } from '../../../deploy/src/rules/database-plan.js';

const m = (version: number, compatible = false): AppliedMigration => ({ version, name: `m${version}`, backward_compatible: compatible });
const upTo = (n: number): AppliedMigration[] => Array.from({ length: n }, (_, i) => m(i + 1));
const A = 'Boothdeck-0.1.0-gaaaaaaa-arm64.AppImage';

describe('the database that goes with a release', () => {
  it('keeps the live database when the release knows every migration in it', () => {
    expect(databasePlan(A, upTo(9), upTo(9))).toEqual({
      plan: 'live',
      sentence: `Database: ${A} knows every migration of the live database: it stays`,
    });
  });

  it('keeps the live database over newer migrations that are all backward compatible', () => {
    const p = databasePlan(A, [...upTo(9), m(10, true), m(11, true)], upTo(9));
    expect(p.plan).toBe('live');
    expect(p.sentence).toContain('all backward compatible (10:1 11:1): it stays, with everything since');
  });

  it('puts the snapshot back over a migration the release does not know and that is not backward compatible', () => {
    const p = databasePlan(A, [...upTo(9), m(10, true), m(11)], upTo(9));
    expect(p.plan).toBe('snapshot');
    expect(p.sentence).toContain('not backward compatible (10:1 11:0)');
  });

  it('takes the safe path when a database cannot be read, and changes nothing when there is no snapshot or no database', () => {
    expect(databasePlan(A, undefined, upTo(9)).plan).toBe('snapshot');
    expect(databasePlan(A, upTo(10), undefined).plan).toBe('snapshot');
    expect(databasePlan(A, upTo(10), null)).toMatchObject({
      plan: 'live',
      sentence: `Database: no snapshot of ${A}: the live database stays`,
    });
    expect(databasePlan(A, null, upTo(9)).plan).toBe('live');
  });

  it("reads schema_migrations' rows, a row older than the compatibility column as not compatible", () => {
    expect(
      appliedMigrations([
        { version: 1, name: 'initial', applied_at: 'x', backward_compatible: null },
        { version: 2, name: 'p', applied_at: 'x', backward_compatible: 1 },
      ]),
    ).toEqual([
      { version: 1, name: 'initial', backward_compatible: false },
      { version: 2, name: 'p', backward_compatible: true },
    ]);
    expect(appliedMigrations([{ version: 'one', name: 'x' }])).toBeUndefined();
    expect(appliedMigrations(undefined)).toBeUndefined();
  });
});

describe('print jobs carried into a restored database', () => {
  const job = (over: Record<string, unknown>) => ({
    id: 1,
    photo_id: 'p1',
    copies: 1,
    source: 'guest',
    session_id: 's1',
    event_id: 3,
    state: 'queued',
    created_at: 1000,
    queued_at: 1000,
    started_at: null,
    cups_job_id: null,
    client_address: '10.0.0.9',
    ...over,
  });

  it('carries the waiting jobs the restored database lacks (ids differ between the two), and the sessions they count against', () => {
    const replaced = {
      jobs: [
        job({ id: 1, photo_id: 'before', created_at: 500 }),
        job({ id: 7, photo_id: 'p-new', created_at: 2000 }),
        job({ id: 8, photo_id: 'p-sent', created_at: 2100, state: 'printing', started_at: 2200, cups_job_id: 'PDF-12' }),
        job({ id: 9, photo_id: 'p-done', created_at: 2300, state: 'done' }),
      ],
      sessions: [
        { id: 's1', created_at: 900, copies_used: 3 },
        { id: 'other', created_at: 1, copies_used: 1 },
      ],
    };
    const restored = [job({ id: 1, photo_id: 'before', created_at: 500 }), job({ id: 7, photo_id: 'unrelated', created_at: 1500 })];
    const carried = printCarryOver(replaced, restored, 'run-1', new Date('2026-11-26T18:00:00Z'));
    expect(carried.written_at).toBe('2026-11-26T18:00:00.000Z');
    expect(carried.jobs.map((j) => [j.photo_id, j.state, j.cups_job_id])).toEqual([
      ['p-new', 'queued', null],
      ['p-sent', 'printing', 'PDF-12'],
    ]);
    expect(carried.sessions).toEqual([{ id: 's1', created_at: 900, copies_used: 3 }]);
  });

  it('skips a row that is not a print job rather than carrying a guess', () => {
    const carried = printCarryOver(
      { jobs: [job({ photo_id: null }), job({ copies: 0 }), job({ state: 'weird' })], sessions: [] },
      [],
      'r',
      new Date(0),
    );
    expect(carried.jobs).toEqual([]);
  });

  it('settles the jobs the restored database still has waiting that were printed, cancelled or handed to CUPS meanwhile: never printed twice', () => {
    const replaced = {
      jobs: [
        job({ id: 1, photo_id: 'printed', created_at: 500, state: 'done', started_at: 600, finished_at: 700, cups_job_id: 'PDF-3' }),
        job({ id: 2, photo_id: 'sent', created_at: 510, state: 'printing', started_at: 800, cups_job_id: 'PDF-4' }),
        job({ id: 3, photo_id: 'cancelled', created_at: 520, state: 'cancelled', finished_at: 900 }),
        job({ id: 4, photo_id: 'settled-by-cups', created_at: 530, state: 'failed', finished_at: 950, error: 'printer_error' }),
        job({ id: 5, photo_id: 'still-waiting', created_at: 540 }),
        job({ id: 6, photo_id: 'already-done-there', created_at: 550, state: 'done' }),
        job({ id: 7, photo_id: 'same-cups-job', created_at: 560, state: 'printing', cups_job_id: 'PDF-5' }),
      ],
      sessions: [],
    };
    const restored = [
      job({ id: 1, photo_id: 'printed', created_at: 500 }),
      job({ id: 2, photo_id: 'sent', created_at: 510 }),
      job({ id: 3, photo_id: 'cancelled', created_at: 520 }),
      job({ id: 4, photo_id: 'settled-by-cups', created_at: 530, state: 'printing', cups_job_id: 'PDF-2' }),
      job({ id: 5, photo_id: 'still-waiting', created_at: 540 }),
      job({ id: 6, photo_id: 'already-done-there', created_at: 550, state: 'done' }),
      job({ id: 7, photo_id: 'same-cups-job', created_at: 560, state: 'printing', cups_job_id: 'PDF-5' }),
    ];
    const carried = printCarryOver(replaced, restored, 'run-1', new Date(0));
    expect(carried.jobs).toEqual([]);
    expect(carried.settled).toEqual([
      {
        photo_id: 'printed',
        created_at: 500,
        copies: 1,
        state: 'done',
        started_at: 600,
        finished_at: 700,
        cups_job_id: 'PDF-3',
        error: null,
      },
      {
        photo_id: 'sent',
        created_at: 510,
        copies: 1,
        state: 'printing',
        started_at: 800,
        finished_at: null,
        cups_job_id: 'PDF-4',
        error: null,
      },
      {
        photo_id: 'cancelled',
        created_at: 520,
        copies: 1,
        state: 'cancelled',
        started_at: null,
        finished_at: 900,
        cups_job_id: null,
        error: null,
      },
      {
        photo_id: 'settled-by-cups',
        created_at: 530,
        copies: 1,
        state: 'failed',
        started_at: null,
        finished_at: 950,
        cups_job_id: null,
        error: 'printer_error',
      },
    ]);
  });
});

import { readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Clock } from '../core/clock/clock.port.js';
import type { Logger } from '../core/logger.js';
import type { Db } from '../db/database.js';
import { PrintCarryOverRepository } from './print-carry-over.repository.js';

/**
 * Print jobs carried over by a deploy's rollback (server/contract/carry-over.contract.ts): when a
 * rollback puts a database snapshot back, the jobs still waiting in the database it replaced are
 * written to `<data folder>/carry-over/`, and queued again here, at the start of the release
 * restored, before the print worker starts. A job that was handed to CUPS comes back `printing`:
 * the worker settles it with CUPS before anything is resent, as after a crash. A carry-over found
 * long after it was written (by a release that did not read them, then a newer one) is not
 * printed blindly: it is set aside and said. Jobs the restored database still has waiting but
 * that were printed (or cancelled, or handed to CUPS) under the release rolled back take that
 * state first: nothing is printed twice.
 */
const MAX_AGE_MS = 12 * 3600_000;
const MAX_BYTES = 4 * 1024 * 1024;

const id = z.string().min(1).max(200);
const time = z.number().int().min(0);
const carryOver = z.object({
  written_at: z.iso.datetime(),
  run: z.string().max(200),
  jobs: z
    .array(
      z.object({
        photo_id: id,
        copies: z.number().int().min(1).max(1000),
        source: z.enum(['guest', 'admin']),
        session_id: id.nullable(),
        event_id: z.number().int().min(1).nullable(),
        state: z.enum(['queued', 'printing']),
        created_at: time,
        queued_at: time,
        started_at: time.nullable(),
        cups_job_id: z.string().max(200).nullable(),
        client_address: z.string().max(100).nullable(),
      }),
    )
    .max(10_000),
  sessions: z.array(z.object({ id, created_at: time, copies_used: z.number().int().min(0) })).max(10_000),
  settled: z
    .array(
      z.object({
        photo_id: id,
        created_at: time,
        copies: z.number().int().min(1).max(1000),
        state: z.enum(['printing', 'done', 'failed', 'cancelled']),
        started_at: time.nullable(),
        finished_at: time.nullable(),
        cups_job_id: z.string().max(200).nullable(),
        error: z.string().max(200).nullable(),
      }),
    )
    .max(10_000)
    .optional(),
});

export function carryOverPrintJobs(db: Db, dataDir: string, clock: Clock, log: Logger): void {
  const dir = path.join(dataDir, 'carry-over');
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => /^print-jobs-[A-Za-z0-9._-]+\.json$/.test(f));
  } catch {
    return;
  }
  const repo = new PrintCarryOverRepository(db);
  for (const file of files) {
    const full = path.join(dir, file);
    try {
      const text = readFileSync(full);
      if (text.length > MAX_BYTES) throw new Error('too large');
      const parsed = carryOver.parse(JSON.parse(text.toString('utf8')));
      const age = clock.now() - Date.parse(parsed.written_at);
      if (age > MAX_AGE_MS) {
        log.warn(
          `Print jobs carried over by the rollback ${parsed.run} were written ${Math.round(age / 3600_000)} h ago: not printed blindly; kept in ${full}.old`,
        );
        renameSync(full, `${full}.old`);
        continue;
      }
      const { added, settled } = repo.carry(parsed.jobs, parsed.sessions, parsed.settled ?? [], clock.now());
      log.info(
        `Queued again ${added} print job(s) carried over by the rollback ${parsed.run} (${parsed.jobs.length - added} already there)`,
      );
      if (settled > 0)
        log.info(`${settled} print job(s) the restored database still had waiting were printed or ended meanwhile: not printed again`);
      rmSync(full, { force: true });
    } catch (err) {
      log.error(`A carry-over of print jobs could not be read (${file}); it stays in ${dir}`, err);
    }
  }
}

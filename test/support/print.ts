import request from 'supertest';
import type { Express } from 'express';
import type { AdminPrintJob, GuestPrintSession, PrintJobState } from '../../server/contract/print.contract.js';
import type { EventHub } from '../../server/core/event-hub.js';
import { expect } from 'vitest';
import type { MediaItem } from '../../server/capture/capture.types.js';
import type { SimApp } from './sim-app.js';

/** A fresh guest: visits the gallery and keeps the session cookie it was given. */
export async function guestCookie(app: Express): Promise<string> {
  const res = await request(app).get('/api/gallery/session');
  const header = res.headers['set-cookie'];
  const first = Array.isArray(header) ? header[0] : header;
  if (!first) throw new Error('no guest cookie issued');
  return first.split(';')[0] ?? '';
}

/** A guest's print request as the gallery sends it; without a cookie, as a phone that kept none. */
export function guestPrint(app: Express, cookie: string | undefined, id: string, body: unknown) {
  const req = request(app).post(`/api/gallery/photos/${id}/print`);
  return (cookie ? req.set('Cookie', cookie) : req).send(body as object);
}

/** What the gallery tells this guest about printing: quota, paper, why it would wait. */
export async function guestPrintSession(app: Express, cookie: string): Promise<GuestPrintSession['print']> {
  return ((await request(app).get('/api/gallery/session').set('Cookie', cookie)).body as GuestPrintSession).print;
}

/** Resolves when the hub announces the job in the wanted state (or at once if it already is). */
export function jobReaches(
  hub: EventHub,
  jobId: number,
  state: PrintJobState,
  current?: () => AdminPrintJob | undefined,
): Promise<AdminPrintJob> {
  return new Promise((resolve) => {
    const now = current?.();
    if (now?.state === state) return resolve(now);
    const off = hub.subscribe('admin', (m) => {
      if (m.event === 'print-job' && m.data.id === jobId && m.data.state === state) {
        off();
        resolve(m.data);
      }
    });
  });
}

/** Resolves when the hub reports the printer's pause reason reaching `pause`. */
export function printerPause(hub: EventHub, pause: string | null): Promise<void> {
  return new Promise((resolve) => {
    const off = hub.subscribe('admin', (m) => {
      if (m.event === 'print-printer' && m.data.pause === pause) {
        off();
        resolve();
      }
    });
  });
}

/** The operator's signed-in request to `/api/admin<p>` on a simulated booth. */
export const adminRequest = (t: SimApp, method: 'get' | 'post' | 'put', p: string) =>
  request(t.app)[method](`/api/admin${p}`).set('Cookie', t.cookie);

/** Saves print settings as the operator does; the test fails if they are refused. */
export async function savePrintSettings(t: SimApp, print: Record<string, unknown>): Promise<void> {
  expect((await adminRequest(t, 'put', '/settings').send({ print })).status).toBe(200);
}

/** A current event with `n` photos taken in it, indexed. */
export async function eventWithPhotos(t: SimApp, n = 1): Promise<MediaItem[]> {
  expect((await adminRequest(t, 'post', '/events').send({ name: 'Mariage' })).status).toBe(201);
  const items: MediaItem[] = [];
  for (let i = 0; i < n; i++) items.push(await t.sim.capture());
  await t.services.indexer.rescan();
  return items;
}

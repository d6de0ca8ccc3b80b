import request from 'supertest';
import { describe, expect, it } from 'vitest';
import type { MediaItem } from '../../server/capture/capture.types.js';
import type { NewPhotoRow } from '../../server/photos/photo.repository.js';
import { signedInApp } from '../support/app.js';
import { captureItem } from '../support/capture-item.js';
import { photoRow } from '../support/photo-row.js';

const item = (n: number, time: string): MediaItem => captureItem(n, `20261122-${time}-000000`);

describe('the current event’s order', () => {
  it('puts a live photo first though its stem is earlier (a booth clock set back), and pages through it', async () => {
    const { t, cookie } = await signedInApp();
    expect((await request(t.app).post('/api/admin/events').set('Cookie', cookie).send({ name: 'Gala' })).status).toBe(201);
    const live = (n: number, time: string) => t.services.indexer.handle({ event: 'DbInsert', data: item(n, time) });
    await live(1, '120001');
    await live(2, '120002');
    // The booth's clock was set back an hour: the next photos are named earlier, yet are newer.
    await live(3, '110000');
    await live(4, '110005');
    // A photo taken later at the right time again.
    await live(5, '120010');

    const ids = async (): Promise<string[]> => {
      const out: string[] = [];
      let cursor: string | null = null;
      do {
        const res = await request(t.app)
          .get(`/api/admin/photos?event=gala&limit=2${cursor ? `&cursor=${cursor}` : ''}`)
          .set('Cookie', cookie);
        expect(res.status).toBe(200);
        out.push(...(res.body.photos as { id: string }[]).map((p) => p.id.slice(-1)));
        cursor = res.body.next_cursor as string | null;
      } while (cursor);
      return out;
    };
    expect(await ids()).toEqual(['5', '4', '3', '2', '1']);
  });

  it('orders photos found in the folder, with no arrival known, by their capture time', async () => {
    const { t, cookie } = await signedInApp();
    await request(t.app).post('/api/admin/events').set('Cookie', cookie).send({ name: 'Gala' });
    const eventId = (t.db.prepare('SELECT id FROM events WHERE slug = ?').get('gala') as { id: number }).id;
    const found = (n: number, time: string): NewPhotoRow => {
      // Without a sort key, as a row found in the folder is written: it sorts by its stem.
      const { sort_key: _none, ...row } = photoRow(n);
      const { id, processed: file } = item(n, time);
      return { ...row, id, stem: `20261122-${time}-000000`, file, event_id: eventId, created_at: null, updated_at: null, mtime: 0 };
    };
    t.services.photoRepository.upsertMany([found(1, '120001'), found(2, '110000'), found(3, '130000')]);
    const res = await request(t.app).get('/api/admin/photos?event=gala').set('Cookie', cookie);
    expect((res.body.photos as { id: string }[]).map((p) => p.id.slice(-1))).toEqual(['3', '1', '2']);
  });
});

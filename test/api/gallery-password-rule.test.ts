import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { generatePassphrase } from '../../common/passphrase.js';
import { buildTestApp, signIn } from '../support/app.js';

async function boothWithEvent(name: string) {
  const t = await buildTestApp();
  const cookie = await signIn(t.app);
  const created = await request(t.app).post('/api/admin/events').set('Cookie', cookie).send({ name });
  expect(created.status).toBe(201);
  const slug = created.body.event.slug as string;
  const put = (password: string | null) => request(t.app).put(`/api/admin/publish/events/${slug}`).set('Cookie', cookie).send({ password });
  const locks = () => (t.db.prepare('SELECT COUNT(*) AS n FROM publish_locks').get() as { n: number }).n;
  return { put, locks };
}

describe('a protected gallery’s password', () => {
  it.each(['123456', 'motdepasse2026', 'azertyuiop123', 'vive les mariés', 'Soleil du Sud!'])(
    'refuses %s as too easy to guess offline, and changes nothing',
    async (password) => {
      const { put, locks } = await boothWithEvent('Gala des voisins');
      const res = await put(password);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('password_too_weak');
      expect(res.body.error.details.issues[0].field).toBe('password');
      expect(res.body.error.details.required_bits).toBe(40);
      expect(locks()).toBe(0);
    },
  );

  it('counts the event’s own name as known to the guesser', async () => {
    const { put, locks } = await boothWithEvent('Mariage Lucien et Gaspard');
    const res = await put('Mariage-Lucien-Gaspard-2026');
    expect(res.body.error?.code).toBe('password_too_weak');
    expect(locks()).toBe(0);
  });

  it('takes a passphrase of four words, as the console offers one', async () => {
    const { put, locks } = await boothWithEvent('Gala des voisins');
    // With the event's address as context, as the console draws it.
    const res = await put(generatePassphrase(undefined, ['gala-des-voisins']));
    expect(res.status).toBe(200);
    expect(res.body.publication.password_set).toBe(true);
    expect(locks()).toBe(1);
  });
});

import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { PublishOverview } from '../../server/contract/publish.contract.js';
import { expect, isolatedTest as test } from './fixtures.js';
import { typePin, unlockConsole } from './helpers.js';

const EVENT_PIN = '1357';
const SHORT_OWNER_PIN = '4321';
const SMALL_SCREEN = { width: 800, height: 480 } as const;
const network = (i: number) => ({ address: `192.168.1.${40 + i}`, isLocal: false });

test('the owner is told of the wrong PINs since their last visit, and a short owner PIN is flagged on the dashboard', async ({
  page,
  service,
}) => {
  await page.setViewportSize(SMALL_SCREEN);
  // A booth set up with a 4-digit owner PIN, then handed over with an event PIN: the PIN is flagged.
  await service.services.auth.applyConfiguredPin(SHORT_OWNER_PIN);
  await service.services.auth.setEventPin('', EVENT_PIN);
  // The renter's evening: three wrong PINs from phones on the Wi-Fi.
  for (let i = 0; i < 3; i++) await service.services.auth.signIn(String(970_000 + i), network(i)).catch(() => undefined);

  await page.goto('/admin/dashboard');
  await typePin(page, SHORT_OWNER_PIN);
  await page.getByTestId('pin-submit').click();
  const notice = page.getByTestId('owner-failures');
  await expect(notice).toContainText('Depuis votre dernière visite : 3 codes faux.');
  await expect(notice).toContainText('À la borne : 0 ; depuis le réseau : 3.');
  const flag = page.getByTestId('owner-pin-short');
  await expect(flag).toContainText('6 chiffres au moins');
  await expect(flag).toBeInViewport();
  await page.screenshot({ path: 'test-screens/owner-guard-800x480.png' });

  await page.getByTestId('owner-failures-close').click();
  await expect(notice).toBeHidden();
  await flag.getByTestId('owner-pin-short-change').click();
  const dialog = page.getByTestId('keys-pin-dialog');
  await typePin(page, SHORT_OWNER_PIN);
  await dialog.getByTestId('pin-submit').click();
  await expect(dialog).toContainText('De 6 à 8 chiffres');
  for (let i = 0; i < 2; i++) {
    await typePin(page, '864209');
    await dialog.getByTestId('pin-submit').click();
  }
  await expect(dialog).toBeHidden();
  await expect(flag).toBeHidden();
});

test('the keypad says why a PIN did not open the console while the owner PIN rests', async ({ page }) => {
  await page.setViewportSize(SMALL_SCREEN);
  // The service's side is tested in test/api/owner-pin-backoff.test.ts: here, what the keypad makes of its answer.
  await page.route('**/api/admin/session', (route) =>
    route.request().method() === 'POST'
      ? route.fulfill({
          status: 401,
          contentType: 'application/json',
          body: JSON.stringify({
            error: { code: 'owner_pin_resting', message: 'Wrong PIN', details: { owner_retry_after_seconds: 240 } },
          }),
        })
      : route.fallback(),
  );
  await page.goto('/admin');
  await typePin(page, '112233');
  await page.getByTestId('pin-submit').click();
  await expect(page.getByTestId('pin-error')).toHaveText(
    'Ce code n’ouvre pas la console. Le code du propriétaire est en pause après trop d’essais faux : il pourra être essayé dans 4 min.',
  );
  // The keypad stays open: the event PIN is still checked.
  await expect(page.getByTestId('pin-wait')).toBeHidden();
  await page.screenshot({ path: 'test-screens/owner-resting-800x480.png' });
});

test('a protected gallery’s password: the console offers a passphrase, shows it to read out, and refuses a weak one', async ({
  page,
  service,
}) => {
  service.services.events.create({ name: 'Gala Privé' });
  await page.setViewportSize(SMALL_SCREEN);
  await unlockConsole(page, '/admin/events');
  const row = page.getByTestId('publish-gala-prive');
  const input = row.getByTestId('publish-lock-input');
  await input.fill('gala2026');
  await expect(row.getByTestId('password-strength')).toContainText('12 caractères au moins');
  await input.fill('gala prive 2026');
  await expect(row.getByTestId('password-strength')).toContainText('Trop facile à deviner');
  await expect(row.getByTestId('publish-lock-save')).toBeDisabled();

  await row.getByTestId('passphrase-offer').click();
  const shown = row.getByTestId('passphrase-shown');
  await expect(shown).toContainText(/^[a-z]+ · [a-z]+ · [a-z]+ · [a-z]+/);
  await expect(row.getByTestId('password-strength')).toContainText('Assez solide');
  await shown.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-screens/passphrase-800x480.png' });
  const words = ((await shown.locator('.words').textContent()) ?? '').split(' · ');
  expect(await input.inputValue()).toBe(words.join('-'));
  await row.getByTestId('publish-lock-save').click();
  await expect(row.getByTestId('publish-lock-state')).toHaveText('défini');
});

test('a third ZIP export is told in words to wait while two run', async ({ page, service }) => {
  service.services.events.create({ name: 'Export Simultané' });
  const sim = service.simulator;
  if (!sim) throw new Error('the simulator is needed');
  const item = await sim.capture();
  await expect.poll(() => service.services.photoRepository.count(), { timeout: 15_000 }).toBe(1);
  // A file far larger than what the kernel's buffers hold: an export whose reader stops stays under way.
  writeFileSync(path.join(sim.dataDir, item.processed), randomBytes(24 * 1024 * 1024));
  await page.setViewportSize(SMALL_SCREEN);
  await unlockConsole(page, '/admin/events');
  // Two exports held open by a reader that never reads.
  const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
  const held = await Promise.all(
    [0, 1].map(
      () =>
        new Promise<http.ClientRequest>((resolve) => {
          const req = http.get(
            `${service.localUrl}/api/admin/events/export-simultane/export.zip`,
            { headers: { Cookie: cookie } },
            (res) => {
              res.pause();
              resolve(req);
            },
          );
        }),
    ),
  );
  // The refusal's JSON must not become a file (or a failed download) in the browser.
  const downloads: string[] = [];
  page.on('download', (d) => downloads.push(d.suggestedFilename()));
  try {
    const card = page.getByTestId('event-export-simultane');
    await card.getByTestId('event-export').click();
    await expect(card.getByTestId('export-busy')).toHaveText(
      'Deux exports sont déjà en cours sur la borne : réessayez quand l’un d’eux est terminé.',
    );
    expect(downloads).toEqual([]);
    // The frame the download was asked in is gone once the refusal is known.
    await expect(page.locator('iframe')).toHaveCount(0);
    await card.getByTestId('export-busy').scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-screens/export-busy-800x480.png' });
  } finally {
    for (const req of held) req.destroy();
  }
});

test('the console says in words why publishing stopped, and what the owner has to do', async ({ page, service }) => {
  service.services.events.create({ name: 'Gala Privé' });
  const root = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-published-'));
  await service.services.publishing.service.update({ destination: { type: 'local', path: root }, booth_name: 'booth', enabled: true });
  // The queue's answer as after an upgrade on a card whose secrets folder was lost.
  await page.route('**/api/admin/publish', async (route) => {
    if (route.request().method() !== 'GET') return route.fallback();
    const answer = await route.fetch();
    const overview = (await answer.json()) as PublishOverview;
    overview.status = {
      state: 'waiting',
      last_error: { reason: 'gallery_key_lost', at: new Date().toISOString() },
      retry_at: new Date(Date.now() + 60_000).toISOString(),
      retry_in_s: 60,
    };
    await route.fulfill({ response: answer, json: overview });
  });
  await page.setViewportSize(SMALL_SCREEN);
  await unlockConsole(page, '/admin/events');
  await expect(page.getByTestId('publish-status')).toHaveText('Publication arrêtée jusqu’à ce que le problème ci-dessous soit corrigé.');
  const error = page.getByTestId('publish-error');
  await expect(error).toContainText('Saisissez à nouveau le mot de passe de chaque galerie protégée.');
  await expect(error).not.toContainText('rclone');
  await error.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-screens/publish-stopped-800x480.png' });
});

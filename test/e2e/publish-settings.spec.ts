import { readFileSync } from 'node:fs';
import { expect, isolatedTest as test } from './fixtures.js';
import { BOOTH_SCREEN, unlockConsole } from './helpers.js';

const PASSWORD = 'app-Pa55-Nextcloud-42';
const SMALL_SCREEN = { width: 800, height: 480 } as const;

test('the destination is chosen by type, and a stored password reads « défini », never its text', async ({ page, service }) => {
  service.services.events.create({ name: 'Gala' });
  await service.services.publishing.service.update({
    destination: {
      type: 'webdav',
      url: 'https://cloud.example.com/remote.php/dav/files/booth',
      vendor: 'nextcloud',
      user: 'booth',
      path: 'Galeries',
      password: PASSWORD,
    },
    public_base_url: 'https://photos.example.com',
    booth_name: 'booth',
  });
  await page.setViewportSize(BOOTH_SCREEN);
  await unlockConsole(page, '/admin/events');
  const form = page.getByTestId('publish-settings');
  await expect(form.getByTestId('publish-type')).toHaveValue('webdav');
  await expect(form.getByTestId('publish-url')).toHaveValue('https://cloud.example.com/remote.php/dav/files/booth');
  await expect(form.getByTestId('publish-password-state')).toHaveText('défini');
  expect(await page.content()).not.toContain(PASSWORD);
  await form.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-screens/publish-settings-webdav.png' });

  // Replace: a password field appears; Annuler goes back to « défini ».
  await form.getByTestId('publish-password-replace').click();
  await expect(form.getByTestId('publish-password-input')).toHaveAttribute('type', 'password');
  await page.screenshot({ path: 'test-screens/publish-settings-replace.png' });
  await form.getByTestId('publish-password-keep').click();
  await expect(form.getByTestId('publish-password-state')).toHaveText('défini');

  // A new address: the console says the stored password will not go there.
  await form.getByTestId('publish-url').fill('https://other.example.com/dav');
  await expect(form.getByTestId('publish-password-not-sent')).toBeVisible();
  await form.getByTestId('publish-url').fill('https://cloud.example.com/remote.php/dav/files/booth');

  // A value rclone would read as an option is refused, with the field named in French.
  await form.getByTestId('publish-user').fill("booth,bearer_token_command='touch x'");
  await form.getByTestId('publish-save').click();
  await expect(page.getByText('Utilisateur : cette valeur n’est pas acceptée.')).toBeVisible();
  await page.getByTestId('notice').getByRole('button', { name: 'Fermer' }).click();
  await form.getByTestId('publish-user').fill('booth');

  // The other types: S3 shows its own fields and a secret key.
  await form.getByTestId('publish-type').selectOption('s3');
  await expect(form.getByTestId('publish-bucket')).toBeVisible();
  await expect(form.getByTestId('publish-password-input')).toBeVisible();
  await form.getByTestId('publish-type').selectOption('sftp');
  await expect(form.getByTestId('publish-host')).toBeVisible();
  await form.getByTestId('publish-type').selectOption('rclone');
  await expect(form.getByTestId('publish-remote')).toBeVisible();
  await expect(form.getByTestId('publish-password')).toHaveCount(0);
  await form.getByTestId('publish-type').selectOption('webdav');

  await page.setViewportSize(SMALL_SCREEN);
  await form.getByRole('heading', { name: 'Réglages de publication' }).evaluate((el) => el.scrollIntoView());
  await page.screenshot({ path: 'test-screens/publish-settings-small.png' });
  await form.getByTestId('publish-password').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-screens/publish-settings-small-password.png' });

  // Clearing the password and saving: the API then says none is set, and the file has no `pass`.
  await form.getByTestId('publish-password-clear').click();
  await expect(form.getByTestId('publish-password-state')).toHaveText('sera effacé à l’enregistrement');
  await form.getByTestId('publish-save').click();
  await expect(form.getByTestId('publish-password-input')).toBeVisible();
  expect(service.services.publishing.service.settings().destination).toMatchObject({ type: 'webdav', password_set: false });
  expect(readFileSync(service.services.publishing.service.destinations.files.generated, 'utf8')).not.toMatch(/^pass/m);
});

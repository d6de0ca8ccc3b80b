import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { renderEventPage } from '../../server/publish/publish-page.js';
import { LIGHTBOX_SCRIPT } from '../../server/publish/publish-page.script.js';
import { remoteJoin } from '../../server/publish/rclone.port.js';
import { failureOf } from '../../server/publish/rclone.process.js';

describe('the published page', () => {
  const page = (eventName: string) =>
    renderEventPage({
      eventName,
      dateLabel: '25 novembre 2026',
      language: 'fr',
      photos: [{ media: 'media/a-1.jpg', thumb: 'thumbs/a-1.webp', kind: 'photo', downloadName: 'F"te_2026.jpg' }],
    });

  it('writes what the operator typed as text, never as markup', () => {
    const html = page('<script>alert(1)</script> & "co"');
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;co&quot;');
    expect(html).toContain('data-name="F&quot;te_2026.jpg"');
  });

  it('allows its own inline script by hash, and nothing from elsewhere', () => {
    const html = page('Fête');
    const hash = createHash('sha256').update(LIGHTBOX_SCRIPT).digest('base64');
    expect(html).toContain(`script-src 'sha256-${hash}'`);
    expect(html).toContain("default-src 'none'");
    expect(html).toContain(`<script>${LIGHTBOX_SCRIPT}</script>`);
  });
});

describe('rclone paths and failures', () => {
  it.each([
    ['dav:', ['b', 't'], 'dav:b/t'],
    ['s3:bucket/galeries', ['b', 't'], 's3:bucket/galeries/b/t'],
    ['/media/usb/', ['b'], '/media/usb/b'],
  ])('joins %s and %j', (base, parts, joined) => {
    expect(remoteJoin(base, ...parts)).toBe(joined);
  });

  it.each([
    [{ code: 127, stdout: '', stderr: 'spawn rclone ENOENT' }, 'missing_binary'],
    [{ code: 1, stdout: '', stderr: 'Failed to create file system for "x:": didn\'t find section in config file' }, 'config'],
    [{ code: 1, stdout: '', stderr: 'dial tcp 127.0.0.1:9: connect: connection refused' }, 'unreachable'],
    [{ code: 7, stdout: '', stderr: 'AccessDenied: Access Denied status code: 403' }, 'auth'],
    [{ code: 3, stdout: '', stderr: 'directory not found' }, 'not_found'],
  ] as const)('reads %j as %s', (result, reason) => {
    expect(failureOf(result)).toBe(reason);
  });
});

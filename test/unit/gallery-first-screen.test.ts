import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { IndexHtmlTransformContext, IndexHtmlTransformHook } from 'vite';
import { describe, expect, it } from 'vitest';
import { galleryFirstScreen } from '../../scripts/build/gallery-first-screen.js';

const BASE_CSS = ':root{--bg:#0f1317}.tile{aspect-ratio:3/2}';
const PAGE_CSS = '.page{display:flex}';
/** The gallery page as Vite writes it, before the plugin. */
const BUILT = `<!doctype html><html><head>
<script type="module" crossorigin src="/assets/gallery-abc.js"></script>
<link rel="modulepreload" crossorigin href="/assets/shared-def.js">
<link rel="stylesheet" crossorigin href="/assets/shared-123.css">
<link rel="stylesheet" crossorigin href="/assets/gallery-456.css">
</head><body><div id="app"></div>
<!-- gallery-boot -->
</body></html>`;

function transform(html: string, filename: string, css: Record<string, string>, bootSource?: string): string {
  const hook = galleryFirstScreen(bootSource).transformIndexHtml as { handler: IndexHtmlTransformHook };
  const bundle = Object.fromEntries(
    Object.entries(css).map(([file, source]) => [file, { type: 'asset', fileName: file, source }]),
  ) as unknown as IndexHtmlTransformContext['bundle'];
  return hook.handler.call({} as never, html, { path: '/index.html', filename, bundle }) as string;
}

const GALLERY = '/work/renderer/gallery/index.html';

describe('the gallery page is built to draw its first screen on its own', () => {
  it('writes its stylesheets and boot script into the page and leaves the app script to the boot script', () => {
    const html = transform(BUILT, GALLERY, { 'assets/shared-123.css': BASE_CSS, 'assets/gallery-456.css': PAGE_CSS });
    // Each stylesheet is in the page, and left as a disabled link that only tells the lazy chunks so.
    expect(html).toContain(`<style>${BASE_CSS}</style><link rel="stylesheet" href="/assets/shared-123.css" disabled>`);
    expect(html).toContain(`<style>${PAGE_CSS}</style><link rel="stylesheet" href="/assets/gallery-456.css" disabled>`);
    expect(html).not.toMatch(/<link rel="stylesheet"(?![^>]*disabled)/);
    expect(html).not.toMatch(/<link rel="modulepreload"/);
    expect(html).not.toContain('type="module"');
    const boot = readFileSync(path.join(import.meta.dirname, '../../renderer/gallery/boot.js'), 'utf8').trim();
    expect(html).toContain(`<script data-app="/assets/gallery-abc.js" data-preload="/assets/shared-def.js">${boot}</script>`);
    // The boot script comes after the mount point it reads.
    expect(html.indexOf('data-app=')).toBeGreaterThan(html.indexOf('<div id="app"></div>'));
  });

  it('keeps a stylesheet as a link when it names a file beside it, which the page could not find', () => {
    const css = {
      'assets/shared-123.css': '@font-face{src:url(./font-1.woff2)}',
      'assets/gallery-456.css': 'a{background:url(data:image/svg+xml,x)}',
    };
    const html = transform(BUILT, GALLERY, css);
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/shared-123.css">');
    expect(html).toContain('<style>a{background:url(data:image/svg+xml,x)}</style>');
  });

  it('writes the boot script with LF line ends, as the browser hashes it, even from a CRLF checkout', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'boothdeck-boot-'));
    try {
      const file = path.join(dir, 'boot.js');
      writeFileSync(file, '(function () {\r\n  window.x = 1;\r\n})();\r\n');
      const html = transform(BUILT, GALLERY, {}, file);
      expect(html).toContain('">(function () {\n  window.x = 1;\n})();</script>');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('leaves the console page alone, and refuses a gallery page it cannot rework', () => {
    expect(transform(BUILT, '/work/renderer/admin/index.html', {})).toBe(BUILT);
    expect(() => transform(BUILT.replace('<!-- gallery-boot -->', ''), GALLERY, {})).toThrow(/boot script/);
    expect(() => transform(BUILT.replace(/<script type="module"[^>]*><\/script>/, ''), GALLERY, {})).toThrow(/entry script/);
  });
});

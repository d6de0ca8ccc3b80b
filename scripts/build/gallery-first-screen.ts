import { readFileSync } from 'node:fs';
import type { IndexHtmlTransformContext, Plugin } from 'vite';

const STYLESHEET = /<link rel="stylesheet"(?: crossorigin)? href="\/(assets\/[^"]+\.css)">/g;
const ENTRY = /<script type="module"(?: crossorigin)? src="(\/assets\/[^"]+\.js)"><\/script>/;
const MODULE_PRELOAD = /<link rel="modulepreload"(?: crossorigin)? href="(\/assets\/[^"]+\.js)">/g;
/**
 * Where index.html wants the boot script, which the build writes into the page (a dev server runs
 * without it). Its line ends are made LF as a browser's parser makes them, so that the hash the
 * server allows it by is the hash the browser computes, whatever the checkout did to them.
 */
const BOOT = '<!-- gallery-boot -->';
const BOOT_SOURCE = new URL('../../renderer/gallery/boot.js', import.meta.url);

/** A stylesheet's text, when it can move into the page as it is (no address relative to /assets/ in it). */
function inlinable(ctx: IndexHtmlTransformContext, file: string): string | undefined {
  const asset = ctx.bundle?.[file];
  if (asset?.type !== 'asset') return undefined;
  const css = typeof asset.source === 'string' ? asset.source : Buffer.from(asset.source).toString('utf8');
  const urls = css.match(/url\(\s*['"]?[^'")\s]*/g) ?? [];
  return urls.every((u) => /url\(\s*['"]?data:/.test(u)) ? css : undefined;
}

/**
 * The gallery's page, built so that its first screen needs nothing but the page and its thumbnails:
 * its stylesheets and the boot script (renderer/gallery/boot.js) are written into it, each a
 * request that held the thumbnails back, and the app's script is not in it: the boot script
 * loads it once the first screen's thumbnails are in. Run before that, it took the processor
 * the thumbnails needed to arrive. The server allows the inline script by its hash.
 */
export function galleryFirstScreen(bootSource: URL | string = BOOT_SOURCE): Plugin {
  return {
    name: 'boothdeck-gallery-first-screen',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!ctx.filename.endsWith('gallery/index.html')) return html;
        if (!html.includes(BOOT)) throw new Error('gallery/index.html: the boot script is not where the build expects it');
        const entry = ENTRY.exec(html)?.[1];
        if (!entry) throw new Error('gallery/index.html: the built page has no entry script');
        const preloads = [...html.matchAll(MODULE_PRELOAD)].map((m) => m[1] as string);
        return html
          .replace(STYLESHEET, (tag, file: string) => {
            const css = inlinable(ctx, file);
            // The disabled link is neither fetched nor applied: it tells Vite's loader of the lazy
            // chunks (the lightbox) that this stylesheet is in the page, which it would load again.
            return css === undefined ? tag : `<style>${css}</style><link rel="stylesheet" href="/${file}" disabled>`;
          })
          .replace(ENTRY, '')
          .replace(MODULE_PRELOAD, '')
          .replace(
            BOOT,
            () =>
              `<script data-app="${entry}" data-preload="${preloads.join(' ')}">${readFileSync(bootSource, 'utf8').replace(/\r\n?/g, '\n').trim()}</script>`,
          );
      },
    },
  };
}

import { createRequire } from 'node:module';
import { expect, test, type Page } from '@playwright/test';
import type * as VueModule from 'vue';
import { pageErrors } from './finger.js';
import { cutWords, layoutProblems, smallTargets, textProblems, unreachable } from './screens.helpers.js';

/**
 * The walks' own checks, each shown a page with the defect it is there to find: a walk that passes
 * must mean the screens are right, not that a check cannot fail. The pages are drawn here, with no
 * service: what is tested is the check, on the defects the walks met or could meet.
 */
const SCREEN = { width: 800, height: 480 };

/** Vue's production build, as the console runs it. */
const VUE = createRequire(import.meta.url).resolve('vue/dist/vue.global.prod.js');

async function draw(page: Page, body: string, style = ''): Promise<void> {
  await page.setViewportSize(SCREEN);
  await page.setContent(`<!doctype html><html lang="fr"><head><style>
    body { margin: 0; font: 16px sans-serif; }
    button, a, input, select { box-sizing: border-box; }
    .big { width: 120px; height: 48px; }
    ${style}
  </style></head><body><main>${body}</main></body></html>`);
}

test.describe('the walks’ checks find what they look for', () => {
  test('a button, a link, a field or a checkbox label under 44 px is reported, a finger-sized one is not', async ({ page }) => {
    await draw(
      page,
      `<button class="big">Bien</button>
       <button style="width: 120px; height: 30px" data-testid="short">Rendre la main</button>
       <a href="#" style="display: inline-block; width: 200px; height: 25px">Index des galeries</a>
       <input style="width: 200px; height: 32px" aria-label="Nom">
       <label style="display: inline-block; height: 30px"><input type="checkbox"> Activer</label>
       <label style="display: inline-flex; min-height: 56px; align-items: center"><input type="checkbox"> Cadre</label>
       <div role="button" style="width: 40px; height: 60px">×</div>`,
    );
    const small = await smallTargets(page);
    expect(small).toHaveLength(5);
    expect(small.join('\n')).toContain('"short" 120×30');
    expect(small.join('\n')).toContain('a "Index des galeries" 200×25');
    expect(small.join('\n')).not.toContain('Bien');
    expect(small.join('\n')).not.toContain('Cadre');
  });

  test('a rail name, a clamped subtitle and a card’s line cut by an ellipsis are reported; whole ones and data are not', async ({
    page,
  }) => {
    await draw(
      page,
      `<nav class="rail">
         <span class="label" style="display: block; width: 60px; overflow: hidden; white-space: nowrap; text-overflow: ellipsis">Maintenance</span>
         <span class="label" style="display: block; width: 100px; white-space: nowrap">Accueil</span>
       </nav>
       <h1>Maintenance</h1>
       <p class="muted" style="width: 200px; height: 20px; overflow: hidden">Redémarrages, sauvegarde, journal et réglages de la borne.</p>
       <p class="meta" style="width: 150px; overflow: hidden; white-space: nowrap; text-overflow: ellipsis">Collage · 3 s · 2 échecs de suite</p>
       <span translate="no" style="display: block; width: 80px; overflow: hidden; white-space: nowrap; text-overflow: ellipsis">cadre-mariage-champetre.png</span>`,
    );
    const cut = await cutWords(page);
    expect(cut).toHaveLength(3);
    expect(cut[0]).toContain('"Maintenance"');
    expect(cut[1]).toContain('Redémarrages');
    expect(cut[2]).toContain('2 échecs de suite');
  });

  test('a button cutting its own text, and a card wider than the screen, are reported', async ({ page }) => {
    await draw(
      page,
      `<button style="width: 90px; height: 48px; white-space: nowrap; overflow: hidden">Imprimante par défaut</button>
       <div style="width: 900px; height: 20px">Large</div>`,
    );
    const problems = await layoutProblems(page, SCREEN);
    expect(problems.join('\n')).toContain('cuts its text');
    expect(problems.join('\n')).toContain('is 900 px wide');
  });

  test('a field under a sticky bar is out of a finger’s reach', async ({ page }) => {
    await draw(
      page,
      `<div style="position: fixed; left: 0; right: 0; bottom: 0; height: 200px; background: #333; z-index: 5"></div>
       <div style="height: 300px"></div>
       <input data-testid="hidden-field" style="width: 200px; height: 48px">`,
      'main { height: 480px; overflow: hidden; }',
    );
    expect((await unreachable(page)).join('\n')).toContain('hidden-field');
  });

  test('French words with a decimal point, a lazy plural, a raw code or a driver’s name are reported', async ({ page }) => {
    await draw(page, `<p>Reste 14.5 s</p><p>2 photo(s)</p><p>owner_key_required</p><button class="big" title="fake">?</button>`);
    const problems = (await textProblems(page)).join('\n');
    expect(problems).toContain('a decimal point');
    expect(problems).toContain('a lazy plural');
    expect(problems).toContain('a code: "owner_key_required"');
    expect(problems).toContain("a driver's word");
  });

  test('an uncaught error, a rejected promise and an error Vue caught and logged all fail a walk', async ({ page }) => {
    const errors = pageErrors(page);
    await draw(page, `<div id="app"></div><button id="plain" class="big">Plain</button>`);
    // An error no handler catches, and a promise nobody awaits.
    await page.evaluate(() => {
      document.getElementById('plain')!.addEventListener('click', () => {
        throw new Error('plain handler failed');
      });
      void Promise.reject(new Error('promise rejected'));
    });
    await page.locator('#plain').click();
    // Vue's production build catches what a component's handler throws and only logs it: the
    // page sees no uncaught error, yet the operator's tap did nothing.
    await page.addScriptTag({ path: VUE });
    await page.evaluate(() => {
      const { createApp, h } = (window as unknown as { Vue: typeof VueModule }).Vue;
      createApp({
        render: () =>
          h('button', {
            id: 'vue',
            class: 'big',
            onClick: () => {
              throw new Error('component handler failed');
            },
          }),
      }).mount('#app');
    });
    await page.locator('#vue').click();
    await expect.poll(() => errors.length).toBe(3);
    expect(errors.join('\n')).toContain('plain handler failed');
    expect(errors.join('\n')).toContain('promise rejected');
    expect(errors.join('\n')).toContain('component handler failed');
  });

  test('a resource the server refused is not a page error (the walks provoke 4xx on purpose)', async ({ page }) => {
    const errors = pageErrors(page);
    await page.route('**/refused', (route) => route.fulfill({ status: 400, body: '{}' }));
    await page.route('**/page', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<p>page</p>' }));
    await page.goto('http://walk.test/page');
    await page.evaluate(() => fetch('/refused').then((r) => r.status));
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(errors).toEqual([]);
  });
});

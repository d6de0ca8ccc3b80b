import type { Page } from '@playwright/test';

export interface Viewport {
  width: number;
  height: number;
}

/**
 * Elements that stick out of the screen sideways, where nothing clips or scrolls them: a card
 * spilling out of its column, a select cut at the edge. Described by tag, test id and text.
 */
export function layoutProblems(page: Page, screen: Viewport): Promise<string[]> {
  return page.evaluate(({ width, height }) => {
    const problems: string[] = [];
    if (document.documentElement.scrollWidth > width + 1) {
      problems.push(`the page scrolls sideways (${document.documentElement.scrollWidth} px)`);
    }
    // The console is one screen: its pages scroll inside it, the document itself never does.
    if (document.querySelector('.shell') && document.documentElement.scrollHeight > height + 1) {
      problems.push(`the console's document is ${document.documentElement.scrollHeight} px tall`);
    }
    const clipped = (el: Element): boolean => {
      for (let up = el.parentElement; up; up = up.parentElement) {
        const style = getComputedStyle(up);
        if (style.overflowX !== 'visible' && up !== document.documentElement && up !== document.body) return true;
      }
      return false;
    };
    const name = (el: Element): string =>
      `${el.tagName.toLowerCase()}${el.getAttribute('data-testid') ? `[${el.getAttribute('data-testid')}]` : ''} "${(el.textContent ?? '').trim().slice(0, 40)}"`;
    for (const el of document.body.querySelectorAll('*')) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.position === 'fixed' || !el.checkVisibility({ checkVisibilityCSS: true })) continue;
      if (el.closest('.viewer-container')) continue;
      if (box.width > width + 1) problems.push(`${name(el)} is ${Math.round(box.width)} px wide`);
      else if ((box.right > width + 1 || box.left < -1) && !clipped(el)) problems.push(`${name(el)} runs off the screen`);
      // Text cut by its own box (a select showing "Imprimante par défau").
      if ((el.tagName === 'SELECT' || el.tagName === 'BUTTON') && el.scrollWidth > el.clientWidth + 2 && style.overflowX !== 'auto') {
        problems.push(`${name(el)} cuts its text (${el.scrollWidth} > ${el.clientWidth})`);
      }
    }
    return problems.slice(0, 10);
  }, screen);
}

/**
 * Fields and primary buttons a finger cannot reach: each one is scrolled into its container's
 * view, then the point under its centre must be the element itself (or its label), not a sticky
 * header, a banner or the page's edge.
 */
export function unreachable(page: Page, extra = '[data-testid="pin-submit"]'): Promise<string[]> {
  return page.evaluate(async (more) => {
    const layer = document.querySelector('.backdrop') ?? document.querySelector('main') ?? document.body;
    const targets = [...layer.querySelectorAll<HTMLElement>(`input:not([type="hidden"]), select, textarea, .btn-primary, ${more}`)];
    const missed: string[] = [];
    for (const el of targets) {
      const style = getComputedStyle(el);
      if (!el.checkVisibility({ checkVisibilityCSS: true, contentVisibilityAuto: true }) || style.visibility === 'hidden') continue;
      let box = el.getBoundingClientRect();
      if (box.width < 4 || box.height < 4) continue; // a radio drawn by its label
      el.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
      await new Promise(requestAnimationFrame);
      box = el.getBoundingClientRect();
      const x = box.left + box.width / 2;
      const y = box.top + box.height / 2;
      const hit = document.elementFromPoint(x, y);
      const ok = hit !== null && (hit === el || el.contains(hit) || (hit.closest('label')?.contains(el) ?? false));
      if (!ok) {
        missed.push(
          `${el.tagName.toLowerCase()}[${el.getAttribute('data-testid') ?? el.textContent?.trim().slice(0, 30) ?? ''}] at ${Math.round(x)},${Math.round(y)} is under ${hit?.tagName.toLowerCase() ?? 'nothing'}.${hit?.className ?? ''}`,
        );
      }
    }
    return missed;
  }, extra);
}

/**
 * Controls smaller than a finger (44 × 44 px) in either direction: buttons, links, selects,
 * fields, summaries, the lightbox's toolbar. A checkbox or a radio is as large as the label that
 * holds it (the label takes the tap). Every visible one is measured, scrolled into view or not.
 */
export function smallTargets(page: Page, scope = 'body'): Promise<string[]> {
  return page.evaluate((selector) => {
    const root = document.querySelector(selector) ?? document.body;
    const small: string[] = [];
    const controls = root.querySelectorAll<HTMLElement>(
      'button, a[href], [role="button"], select, summary, input:not([type="hidden"]), textarea, label.btn, .viewer-toolbar li',
    );
    for (const el of controls) {
      if (!el.checkVisibility({ checkVisibilityCSS: true }) || getComputedStyle(el).visibility === 'hidden') continue;
      // A file input drawn by its button, a radio drawn by its label: the label is the target.
      const label = el instanceof HTMLInputElement && ['checkbox', 'radio', 'file'].includes(el.type) ? el.closest('label') : null;
      const box = (label ?? el).getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;
      if (el.classList.contains('visually-hidden') && label === null) continue;
      if (box.width < 43.5 || box.height < 43.5) {
        const id = el.getAttribute('data-testid') ?? (el.textContent ?? '').trim().slice(0, 30);
        small.push(
          `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).split(' ')[0]}` : ''} "${id}" ${Math.round(box.width)}×${Math.round(box.height)}`,
        );
      }
    }
    return small;
  }, scope);
}

/**
 * Words cut by their box: the rail's names (ellipsis), a page's subtitle (clamped to two lines on
 * short screens), and any other text the console cuts with an ellipsis or a line clamp (an action
 * card's line, a header), which must be short enough to show whole. What is data shown as
 * written, cut on purpose when it is long (a file's name), is marked translate="no" and left out.
 */
export function cutWords(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const cut: string[] = [];
    const cuts = (el: HTMLElement): boolean => {
      const style = getComputedStyle(el);
      return style.textOverflow === 'ellipsis' || (style.webkitLineClamp !== 'none' && style.webkitLineClamp !== '');
    };
    for (const el of document.querySelectorAll<HTMLElement>('body *')) {
      if (!el.matches('.rail .label, main h1 + p.muted') && !cuts(el)) continue;
      if (!el.checkVisibility({ checkVisibilityCSS: true }) || el.closest('[translate="no"]') !== null) continue;
      // A field's own value, or a visually hidden field drawn by its label: no words of the page.
      if (el.matches('input, select, textarea') || (el.textContent ?? '').trim() === '') continue;
      if (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1) {
        cut.push(
          `${el.tagName.toLowerCase()}.${String(el.className).split(' ')[0]} "${(el.textContent ?? '').trim().slice(0, 40)}" (${el.scrollWidth}×${el.scrollHeight} in ${el.clientWidth}×${el.clientHeight})`,
        );
      }
    }
    return cut;
  });
}

/**
 * What an operator or a guest must never read: a "(s)" plural, a raw error code, a driver's
 * word ("CUPS", "fake": behind Détails only), and in French a decimal point. Text on screen and the words of visible elements' placeholders, accessible
 * names and tooltips are read.
 */
export function textProblems(page: Page, language: 'fr' | 'en' = 'fr'): Promise<string[]> {
  return page.evaluate((lang) => {
    // Names that are data, not words (an icon's glyph name, a file's name), are marked
    // translate="no" and left out, as is what sits behind a closed "Détails".
    const hidden = (el: Element): boolean =>
      el.closest('[translate="no"], script, style, details:not([open]) > :not(summary)') !== null ||
      (el.checkVisibility !== undefined && !el.checkVisibility({ checkVisibilityCSS: true }));
    const parts: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || hidden(parent)) continue;
      parts.push(node.textContent ?? '');
    }
    for (const el of document.body.querySelectorAll('[placeholder], [aria-label], [title], img[alt]')) {
      if (hidden(el)) continue;
      for (const name of ['placeholder', 'aria-label', 'title', 'alt']) parts.push(el.getAttribute(name) ?? '');
    }
    parts.push(document.title);
    const text = parts
      .join(' ')
      // Versions ("0.1.0") and addresses ("192.168.1.10") are not decimals.
      .replace(/\d+(?:\.\d+){2,}/g, '')
      .replace(/https?:\/\/\S+/g, '');
    const around = (index: number): string => text.slice(Math.max(0, index - 20), index + 20);
    const problems: string[] = [];
    if (lang === 'fr') for (const m of text.matchAll(/\d\.\d/g)) problems.push(`a decimal point: "${around(m.index)}"`);
    for (const m of text.matchAll(/\w\((?:s|es|ies|x)\)/g)) problems.push(`a lazy plural: "${around(m.index)}"`);
    for (const m of text.matchAll(/\b[a-z]+_[a-z]+(?:_[a-z]+)*\b/g)) problems.push(`a code: "${m[0]}"`);
    for (const m of text.matchAll(/\b(?:CUPS|fake)\b/g)) problems.push(`a driver's word: "${around(m.index)}"`);
    return problems;
  }, language);
}

/**
 * Whether a button is under a finger as the page first shows, nothing scrolled: inside the
 * screen, and the element at its centre is the button itself.
 */
export function underFingerNow(page: Page, testId: string): Promise<string | null> {
  return page.evaluate((id) => {
    const el = document.querySelector(`[data-testid="${id}"]`);
    if (!el) return `${id} is not on the page`;
    const box = el.getBoundingClientRect();
    const x = box.left + box.width / 2;
    const y = box.top + box.height / 2;
    if (box.top < 0 || box.bottom > innerHeight || box.left < 0 || box.right > innerWidth)
      return `${id} lies outside the screen (${Math.round(y)})`;
    const hit = document.elementFromPoint(x, y);
    return hit === el || (hit !== null && el.contains(hit))
      ? null
      : `${id} is under ${hit?.tagName.toLowerCase() ?? 'nothing'}.${hit?.className ?? ''}`;
  }, testId);
}

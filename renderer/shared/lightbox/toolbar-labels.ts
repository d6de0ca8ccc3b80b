/** The gap kept between two buttons' names, and the least margin a button keeps. */
const LABEL_GAP = 12;
const BUTTON_MARGIN = 10;

/**
 * Names every toolbar button (viewerjs leaves them unnamed) and shows the names of the page's own
 * under their icons: a guest reads "Télécharger" rather than guessing an arrow. `name` gives each
 * button's name, 'close' included.
 */
export function labelToolbar<A extends string>(
  buttons: readonly A[],
  name: (action: A | 'prev' | 'next' | 'close') => string,
  closeByTouch: () => void,
): void {
  for (const action of ['prev', 'next', ...buttons] as const) {
    const item = document.querySelector<HTMLElement>(`.viewer-toolbar li.viewer-${action}`);
    if (!item) continue;
    const label = name(action);
    item.setAttribute('aria-label', label);
    item.dataset.testid = `lightbox-${action}`;
    if (action !== 'prev' && action !== 'next') item.dataset.label = label;
  }
  spaceLabels();
  // viewerjs draws the close button as a plain div: make it a named button for screen readers.
  const close = document.querySelector<HTMLElement>('.viewer-container .viewer-button.viewer-close');
  if (close && close.dataset.testid !== 'lightbox-close') {
    close.setAttribute('role', 'button');
    close.setAttribute('aria-label', name('close'));
    close.dataset.testid = 'lightbox-close';
    // viewerjs closes on a click, and ignores it while it thinks the last touch was a drag; after
    // a few swipes Chromium may not turn the tap into a click at all. A finger lifted on the
    // button closes the lightbox, whatever came before.
    close.addEventListener('pointerup', (event) => {
      if (event.pointerType !== 'mouse') closeByTouch();
    });
  }
}

/**
 * A name wider than its 56 px button reaches over its neighbours' ("SupprimerInformations"):
 * each button keeps room for half of its own overhang and the gap, in every language.
 */
function spaceLabels(): void {
  for (const item of document.querySelectorAll<HTMLElement>('.viewer-toolbar li[data-label]')) {
    const labelWidth = parseFloat(getComputedStyle(item, '::after').width) || 0;
    const overhang = Math.max(0, (labelWidth - item.offsetWidth) / 2);
    item.style.marginInline = `${Math.max(BUTTON_MARGIN, Math.ceil(overhang + LABEL_GAP / 2))}px`;
  }
}

import type { Locale } from '../i18n/index.js';

/**
 * How a chart's value axis reads. uPlot draws its ticks on the canvas with the browser's own
 * language ("7.5" and "1,500" on a kiosk set to English under a French console) and with
 * fractions on an axis of counts ("2,5 photos"); neither is seen by the words checks, which read
 * the page's text.
 */

const TAGS: Record<Locale, string> = { fr: 'fr-FR', en: 'en-GB' };

/** Tick labels in the console's language: "1 500", "2,5" in French. */
export function axisNumbers(locale: Locale): (values: number[]) => string[] {
  const format = new Intl.NumberFormat(TAGS[locale], { maximumFractionDigits: 2 });
  return (values) => values.map((v) => format.format(v));
}

/** The steps an axis of counts may take between ticks: whole numbers only. */
export const COUNT_STEPS: number[] = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10_000];

import { t, type Locale } from '../../../shared/i18n/index.js';

export function formatBytes(bytes: number, locale: Locale): string {
  const units = locale === 'fr' ? ['o', 'Ko', 'Mo', 'Go', 'To'] : ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  // A no-break space: "76 Go" never wraps between the number and its unit.
  return `${value.toLocaleString(locale, { maximumFractionDigits: value < 10 && unit > 0 ? 1 : 0 })}\u00a0${units[unit]}`;
}

/** "3 j 4 h", "2 h 05 min", "12 min": the two largest units are enough at a glance. */
export function formatDuration(seconds: number, locale: Locale): string {
  const d = Math.floor(seconds / 86_400);
  const h = Math.floor((seconds % 86_400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  if (d > 0) return t('dash.duration.days', { days: d, hours: h });
  // Minutes on two digits after the hours, as a clock writes them: "2 h 05 min".
  if (h > 0) return t('dash.duration.hours', { hours: h, minutes: new Intl.NumberFormat(locale, { minimumIntegerDigits: 2 }).format(m) });
  return t('dash.duration.minutes', { minutes: m });
}

export function formatTime(iso: string, locale: Locale): string {
  return new Date(iso).toLocaleString(locale, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

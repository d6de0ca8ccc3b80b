import type { FleetEntry, FleetEventState, FleetOutcome } from '../../../server/contract/fleet.contract.js';
import { isToken } from './names.js';
import { parseObject } from './json-object.js';

/**
 * The fleet page: each booth's entry (booths/<name>.json on the company's remote), and the page
 * rebuilt from all of them (fleet.json and index.html). Two booths writing at the same moment each
 * write a whole page from the entries they saw; the next report completes it.
 */

const OUTCOMES: readonly FleetOutcome[] = [
  'installed',
  'watching',
  'up-to-date',
  'deferred',
  'busy',
  'no-space',
  'failed',
  'rolled-back',
  'crash-loop',
  'recovered',
];
const EVENTS: readonly FleetEventState[] = ['idle', 'under-way', 'unknown', 'stopped'];

/** An entry read back from a booth's file (its own, or another booth's on the remote); undefined if it is not one. */
export function parseFleetEntry(text: string): FleetEntry | undefined {
  const d = parseObject(text);
  if (!d) return undefined;
  const str = (v: unknown, max = 200): string => (typeof v === 'string' ? v.slice(0, max) : '-');
  if (typeof d.booth !== 'string' || !isToken(d.booth)) return undefined;
  return {
    booth: d.booth,
    version: str(d.version),
    release_date: str(d.release_date),
    // An entry written by an older deploy keeps its words; one it does not know reads as failed.
    last_outcome: OUTCOMES.includes(d.last_outcome as FleetOutcome)
      ? (d.last_outcome as FleetOutcome)
      : d.last_outcome === 'done'
        ? 'recovered'
        : 'failed',
    last_deploy_at: str(d.last_deploy_at),
    event: EVENTS.includes(d.event as FleetEventState) ? (d.event as FleetEventState) : 'unknown',
    detail: str(d.detail, 500),
  };
}

const escape = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const HEADERS = ['Booth', 'Version', 'Release date', 'Last deploy', 'When', 'Event', 'Detail'];

/** fleet.json and index.html from every booth's entry, sorted by booth. */
export function fleetPage(entries: readonly FleetEntry[]): { json: string; html: string } {
  const booths = [...entries].sort((a, b) => a.booth.localeCompare(b.booth));
  const rows = booths
    .map((b) =>
      [b.booth, b.version, b.release_date, b.last_outcome, b.last_deploy_at, b.event, b.detail]
        .map((v) => `<td>${escape(v)}</td>`)
        .join(''),
    )
    .map((cells) => `<tr>${cells}</tr>\n`)
    .join('');
  const html =
    '<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width">' +
    '<title>Boothdeck fleet</title><style>body{font:16px system-ui;margin:2em}td,th{padding:.3em .8em;text-align:left;vertical-align:top}' +
    'tr:nth-child(even){background:#f2f2f2}</style><h1>Boothdeck fleet</h1>' +
    `<table><tr>${HEADERS.map((h) => `<th>${h}</th>`).join('')}</tr>\n${rows}</table><p><a href="fleet.json">fleet.json</a></p></html>\n`;
  return { json: `${JSON.stringify({ booths }, null, 1)}\n`, html };
}

/** The entry as a row of the pipeline's job summary (Markdown; a `|` in a sentence cannot break the table). */
export function summaryRow(e: FleetEntry): string {
  const cell = (s: string): string => s.replace(/\|/g, '/').replace(/\n/g, ' ');
  return `| ${[e.booth, e.version, e.release_date, e.last_outcome, e.last_deploy_at, e.event, e.detail].map(cell).join(' | ')} |`;
}

export const SUMMARY_HEADER = '| Booth | Version | Release date | Last deploy | When | Event | Detail |\n|---|---|---|---|---|---|---|';

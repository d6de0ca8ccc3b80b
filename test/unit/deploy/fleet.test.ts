import { describe, expect, it } from 'vitest';
import type { FleetEntry } from '../../../server/contract/fleet.contract.js';
import { fleetPage, parseFleetEntry, summaryRow } from '../../../deploy/src/rules/fleet.js';
import { parseHealth } from '../../../deploy/src/rules/health.js';

const entry = (over: Partial<FleetEntry> = {}): FleetEntry => ({
  booth: 'salle-a',
  version: '0.2.0-g1a2b3c4',
  release_date: '2026-11-26T18:00:00Z',
  last_outcome: 'installed',
  last_deploy_at: '2026-11-26T18:20:12Z',
  event: 'idle',
  detail: 'installed; stayed up for the 60 s watch window',
  ...over,
});

describe('the fleet page', () => {
  it('rebuilds fleet.json and the table from every booth, sorted, each outcome with its time', () => {
    const page = fleetPage([entry({ booth: 'salle-b', last_outcome: 'deferred', event: 'under-way' }), entry()]);
    expect((JSON.parse(page.json) as { booths: FleetEntry[] }).booths.map((b) => `${b.booth} ${b.last_outcome}`)).toEqual([
      'salle-a installed',
      'salle-b deferred',
    ]);
    expect(page.html).toContain(
      '<td>salle-b</td><td>0.2.0-g1a2b3c4</td><td>2026-11-26T18:00:00Z</td><td>deferred</td><td>2026-11-26T18:20:12Z</td><td>under-way</td>',
    );
  });

  it("never lets a booth's text into the page as markup", () => {
    const page = fleetPage([entry({ detail: '<script>alert(1)</script>' })]);
    expect(page.html).not.toContain('<script>');
    expect(page.html).toContain('&#60;script&#62;');
  });

  it("reads another booth's file defensively: an older deploy's words, a name that is not one", () => {
    expect(parseFleetEntry(JSON.stringify({ ...entry(), last_outcome: 'done', event: 'weird', detail: undefined }))).toMatchObject({
      last_outcome: 'recovered',
      event: 'unknown',
      detail: '-',
    });
    expect(parseFleetEntry(JSON.stringify(entry({ booth: '../x' })))).toBeUndefined();
    expect(parseFleetEntry('not json')).toBeUndefined();
  });

  it("is a row of the pipeline's summary whose cells a sentence cannot break", () => {
    expect(summaryRow(entry({ detail: 'a | b' }))).toBe(
      '| salle-a | 0.2.0-g1a2b3c4 | 2026-11-26T18:00:00Z | installed | 2026-11-26T18:20:12Z | idle | a / b |',
    );
  });
});

describe("/healthz's answer", () => {
  it("reads the service's answer, an older release's without event_age_seconds included", () => {
    expect(parseHealth('{"ok":true,"version":"0.1.0-ga","simulator":false,"event_active":true,"last_photo_age_seconds":12}')).toEqual({
      ok: true,
      version: '0.1.0-ga',
      simulator: false,
      event_active: true,
      last_photo_age_seconds: 12,
      event_age_seconds: null,
    });
  });

  it("refuses what is not a Boothdeck's answer", () => {
    for (const body of [
      '<html>',
      '{"ok":false,"version":"x","event_active":false}',
      '{"ok":true,"event_active":false}',
      '{"ok":true,"version":"x","event_active":"no"}',
      '{"ok":true,"version":"x","event_active":true,"last_photo_age_seconds":-1}',
    ]) {
      expect(parseHealth(body), body).toBeUndefined();
    }
  });
});

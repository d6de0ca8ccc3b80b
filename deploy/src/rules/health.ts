import type { HealthStatus } from '../../../server/contract/health.contract.js';
import { parseObject } from './json-object.js';

/**
 * `/healthz`'s body as the service writes it (server/contract/health.contract.ts), checked field
 * by field: anything else is not a Boothdeck's answer.
 */
export function parseHealth(body: string): HealthStatus | undefined {
  const d = parseObject(body);
  if (!d) return undefined;
  const age = (v: unknown): number | null | undefined =>
    v === null || v === undefined ? null : typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined;
  const lastPhoto = age(d.last_photo_age_seconds);
  const eventAge = age(d.event_age_seconds);
  if (d.ok !== true || typeof d.version !== 'string' || d.version === '' || d.version.length > 200) return undefined;
  if (typeof d.event_active !== 'boolean' || lastPhoto === undefined || eventAge === undefined) return undefined;
  return {
    ok: true,
    version: d.version,
    simulator: d.simulator === true,
    event_active: d.event_active,
    last_photo_age_seconds: lastPhoto,
    event_age_seconds: eventAge,
  };
}

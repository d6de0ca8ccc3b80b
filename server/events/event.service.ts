import type { Clock } from '../core/clock/clock.port.js';
import type { BoothEvent, EventHistoryEntry, EventsResponse } from '../contract/events.contract.js';
import { ConflictError, NotFoundError, ValidationError } from '../core/errors.js';
import type { EventHub } from '../core/event-hub.js';
import type { EventRepository, EventRow } from './event.repository.js';
import { slugify } from '../../common/text.js';
import { isoOrNull as iso } from '../core/util/json.js';

/** Events: named groups of photos, one current at a time, each with its history. */
export class EventService {
  constructor(
    private readonly events: EventRepository,
    private readonly clock: Clock,
    private readonly hub: EventHub,
  ) {}

  list(): EventsResponse {
    const stats = new Map(this.events.stats().map((s) => [s.event_id, s]));
    const history = new Map<number, EventHistoryEntry[]>();
    for (const h of this.events.history()) {
      const list = history.get(h.event_id) ?? [];
      list.push({ at: new Date(h.at).toISOString(), kind: h.kind as EventHistoryEntry['kind'], detail: h.detail });
      history.set(h.event_id, list);
    }
    const events: BoothEvent[] = this.events.list().map((row) => {
      const s = stats.get(row.id);
      return {
        slug: row.slug,
        name: row.name,
        welcome: row.welcome,
        current: row.archived_at === null,
        created_at: new Date(row.created_at).toISOString(),
        archived_at: iso(row.archived_at),
        photo_count: s?.photo_count ?? 0,
        first_photo_at: iso(s?.first_taken ?? null),
        last_photo_at: iso(s?.last_taken ?? null),
        history: history.get(row.id) ?? [],
      };
    });
    return { current_slug: events.find((e) => e.current)?.slug ?? null, events };
  }

  get(slug: string): EventRow {
    const row = this.events.findBySlug(slug);
    if (!row) throw new NotFoundError(`There is no event "${slug}"`);
    return row;
  }

  /** Archives every open event and makes the new one current, in one transaction. */
  create(input: { name: string; slug?: string | undefined; welcome?: string | undefined }): BoothEvent {
    const slug = input.slug ?? slugify(input.name);
    if (!slug) throw new ValidationError('Invalid event: slug: cannot be made from this name; give one');
    if (this.events.findBySlug(slug)) throw new ConflictError(`An event with the slug "${slug}" already exists`, 'slug_taken');
    try {
      this.events.createCurrent(slug, input.name, this.clock.now(), input.welcome || null);
    } catch (err) {
      if ((err as { code?: unknown }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
        throw new ConflictError(`An event with the slug "${slug}" already exists`, 'slug_taken');
      }
      throw err;
    }
    this.hub.publish('gallery', 'event', { name: input.name });
    this.hub.publish('admin', 'event', { slug });
    const created = this.list().events.find((e) => e.slug === slug);
    if (!created) throw new Error('the new event is not listed');
    return created;
  }

  /**
   * Makes an archived event current again (guests see its photos from now on); the current one
   * is archived. Reopening the current event changes nothing.
   */
  reopen(slug: string): BoothEvent {
    const row = this.events.reopen(slug, this.clock.now());
    if (!row) throw new NotFoundError(`There is no event "${slug}"`);
    this.hub.publish('gallery', 'event', { name: row.name });
    this.hub.publish('admin', 'event', { slug });
    const reopened = this.list().events.find((e) => e.slug === slug);
    if (!reopened) throw new Error('the reopened event is not listed');
    return reopened;
  }

  recordExport(eventId: number, detail: string): void {
    this.events.addHistory({ event_id: eventId, at: this.clock.now(), kind: 'exported', detail });
  }
}

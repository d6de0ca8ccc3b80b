import type { PhotoRow } from '../../server/photos/photo.repository.js';

const STEM = '20261122-143005-123456';

/** A processed, visible photo row as the index holds it, numbered `n` (its id and mtime). */
export function photoRow(n: number): PhotoRow {
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    stem: STEM,
    file: `media/processed_full/${STEM}.jpg`,
    kind: 'photo',
    event_id: 1,
    taken_at: 0,
    created_at: 0,
    updated_at: 0,
    mtime: n,
    size: 1,
    processed: 1,
    visible: 1,
    missing: 0,
    printed_copies: 0,
    indexed_at: 0,
    sort_key: STEM,
    part_of: null,
  };
}

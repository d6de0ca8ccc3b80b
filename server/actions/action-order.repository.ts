import type { Db } from '../db/database.js';
import type { ActionKind } from '../contract/actions.contract.js';

/**
 * The order of the action list across kinds. The capture app keeps one list per kind, so the
 * interleaving of kinds is the one thing Boothdeck must remember itself.
 */
export class ActionOrderRepository {
  constructor(private readonly db: Db) {}

  load(): ActionKind[] | undefined {
    const row = this.db.prepare<[], { kinds: string }>('SELECT kinds FROM action_order WHERE id = 1').get();
    return row ? (JSON.parse(row.kinds) as ActionKind[]) : undefined;
  }

  save(kinds: readonly ActionKind[]): void {
    this.db
      .prepare(
        `INSERT INTO action_order (id, kinds, updated_at) VALUES (1, ?, ?)
         ON CONFLICT(id) DO UPDATE SET kinds = excluded.kinds, updated_at = excluded.updated_at`,
      )
      .run(JSON.stringify(kinds), new Date().toISOString());
  }
}

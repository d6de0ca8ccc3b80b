import type { Db } from '../db/database.js';
import type { StoredAction } from '../actions/action.mapper.js';

export interface PresetRow {
  id: number;
  name: string;
  description: string;
  actions: StoredAction[];
  created_at: string;
}

interface DbRow {
  id: number;
  name: string;
  description: string;
  actions: string;
  created_at: string;
}

const fromDb = (row: DbRow): PresetRow => ({ ...row, actions: JSON.parse(row.actions) as StoredAction[] });

export class PresetRepository {
  constructor(private readonly db: Db) {}

  list(): PresetRow[] {
    return this.db.prepare<[], DbRow>('SELECT * FROM action_presets ORDER BY created_at DESC, id DESC').all().map(fromDb);
  }

  find(id: number): PresetRow | undefined {
    const row = this.db.prepare<[number], DbRow>('SELECT * FROM action_presets WHERE id = ?').get(id);
    return row ? fromDb(row) : undefined;
  }

  findByName(name: string): PresetRow | undefined {
    const row = this.db.prepare<[string], DbRow>('SELECT * FROM action_presets WHERE name = ?').get(name);
    return row ? fromDb(row) : undefined;
  }

  insert(preset: Omit<PresetRow, 'id'>): PresetRow {
    const info = this.db
      .prepare('INSERT INTO action_presets (name, description, actions, created_at) VALUES (?, ?, ?, ?)')
      .run(preset.name, preset.description, JSON.stringify(preset.actions), preset.created_at);
    return { ...preset, id: Number(info.lastInsertRowid) };
  }

  delete(id: number): boolean {
    return this.db.prepare('DELETE FROM action_presets WHERE id = ?').run(id).changes > 0;
  }

  deleteAll(): void {
    this.db.prepare('DELETE FROM action_presets').run();
  }
}

import type { ActionsService } from '../actions/actions.service.js';
import { FIELDS } from '../actions/action.fields.js';
import type { StoredAction } from '../actions/action.mapper.js';
import { ACTION_KINDS } from '../capture/capture.types.js';
import type { ActionsResponse, PresetSummary } from '../contract/actions.contract.js';
import { ConflictError, NotFoundError, ValidationError } from '../core/errors.js';
import type { Clock } from '../core/clock/clock.port.js';
import type { PresetRepository, PresetRow } from './preset.repository.js';
import { isObject, ownValue } from '../core/util/json.js';

const summary = (row: PresetRow): PresetSummary => ({
  id: row.id,
  name: row.name,
  description: row.description,
  created_at: row.created_at,
  actions: row.actions.map((a) => ({ name: typeof a.entry.name === 'string' ? a.entry.name : '', kind: a.kind })),
});

function valueAt(entry: unknown, path: readonly string[]): unknown {
  return path.reduce<unknown>((node, key) => (isObject(node) ? ownValue(node, key) : undefined), entry);
}

/** Checks a saved list against today's rules before it goes back to the capture app. */
export function problemsOf(actions: readonly StoredAction[]): string[] {
  const problems: string[] = [];
  actions.forEach((action, i) => {
    if (!(ACTION_KINDS as readonly string[]).includes(action.kind)) {
      problems.push(`action ${i + 1}: unknown kind "${String(action.kind)}"`);
      return;
    }
    for (const [name, spec] of Object.entries(FIELDS[action.kind])) {
      const value = valueAt(action.entry, spec.capture);
      if (value === undefined) continue;
      // Checked in Boothdeck's form: colours by name, frames as durations.
      const parsed = spec.schema.safeParse(spec.read ? spec.read(value) : value);
      if (!parsed.success) problems.push(`action ${i + 1}: ${name}: ${parsed.error.issues[0]?.message ?? 'is invalid'}`);
    }
  });
  return problems;
}

/** Named snapshots of the whole action list: save, list, restore, delete. */
export class PresetsService {
  constructor(
    private readonly presets: PresetRepository,
    private readonly actions: ActionsService,
    private readonly clock: Clock,
  ) {}

  list(): PresetSummary[] {
    return this.presets.list().map(summary);
  }

  async save(input: { name: string; description: string }): Promise<PresetSummary> {
    if (this.presets.findByName(input.name)) throw new ConflictError(`A preset named "${input.name}" already exists`, 'preset_exists');
    const actions = await this.actions.current();
    try {
      const row = this.presets.insert({
        name: input.name,
        description: input.description,
        actions,
        created_at: new Date(this.clock.now()).toISOString(),
      });
      return summary(row);
    } catch (err) {
      // Another save of the same name got in while the list was being read.
      if ((err as { code?: unknown }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
        throw new ConflictError(`A preset named "${input.name}" already exists`, 'preset_exists');
      }
      throw err;
    }
  }

  async restore(id: number): Promise<ActionsResponse> {
    const row = this.presets.find(id);
    if (!row) throw new NotFoundError(`There is no preset ${id}`);
    const problems = problemsOf(row.actions);
    if (problems.length > 0) {
      throw new ValidationError(`The preset "${row.name}" is no longer valid: ${problems.join('; ')}`, { issues: problems });
    }
    return this.actions.replaceAll(row.actions);
  }

  delete(id: number): void {
    if (!this.presets.delete(id)) throw new NotFoundError(`There is no preset ${id}`);
  }
}

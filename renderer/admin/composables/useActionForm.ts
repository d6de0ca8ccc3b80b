import { computed, ref, type ComputedRef, type Ref } from 'vue';
import type { BoothAction } from '../../../server/contract/actions.contract.js';

export type ActionForm = Pick<BoothAction, 'frame' | 'background' | 'processing' | 'ui_trigger'> & {
  general: { name: string; countdown: number };
};

// JSON, not structuredClone: the action may be a reactive proxy, which cannot be cloned.
const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

const toForm = (action: BoothAction): ActionForm =>
  copy({
    general: { name: action.general.name, countdown: action.general.countdown },
    frame: action.frame,
    background: action.background,
    processing: action.processing,
    ui_trigger: action.ui_trigger,
  });

const asRecord = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};

/** Dotted names of what differs between two forms, with the new values. */
function diff(before: ActionForm, after: ActionForm): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const prior = asRecord(before);
  for (const [group, values] of Object.entries(asRecord(after))) {
    if (values === null) continue;
    const was = asRecord(prior[group]);
    for (const [key, value] of Object.entries(asRecord(values))) {
      if (JSON.stringify(was[key]) !== JSON.stringify(value)) out[`${group}.${key}`] = value;
    }
  }
  return out;
}

/** An editable copy of an action; `changes` is what a save would send. */
export function useActionForm(): {
  form: Ref<ActionForm | null>;
  changes: ComputedRef<Record<string, unknown>>;
  dirty: ComputedRef<boolean>;
  reset: (action: BoothAction) => void;
} {
  const original = ref<ActionForm | null>(null);
  const form = ref<ActionForm | null>(null);
  const changes = computed(() => (original.value && form.value ? diff(original.value, form.value) : {}));
  const dirty = computed(() => Object.keys(changes.value).length > 0);
  const reset = (action: BoothAction): void => {
    original.value = toForm(action);
    form.value = toForm(action);
  };
  return { form, changes, dirty, reset };
}

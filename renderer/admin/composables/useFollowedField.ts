import { watch, type Ref } from 'vue';

/**
 * Keeps a form's field in step with what the service holds (the first read, a re-read after a
 * cut, a save's answer) unless the operator changed it since the last copy arrived: what they
 * typed stays until they save it, however late a background read answers.
 */
export function useFollowedField<S, V>(
  field: Ref<V>,
  source: () => S | null,
  pick: (held: S) => V,
  same: (typed: V, held: V) => boolean = Object.is,
): void {
  watch(
    source,
    (now, before) => {
      if (!now) return;
      if (before && !same(field.value, pick(before))) return;
      field.value = pick(now);
    },
    { immediate: true },
  );
}

import type { LayoutName } from './azerty.js';

export type KeyboardField = HTMLInputElement | HTMLTextAreaElement;

/** Every input a person types into; passwords included (the booth's screen has no other keyboard). */
const TEXT_TYPES = ['text', 'search', 'email', 'url', 'tel', 'number', 'password', ''];

/** A field the on-screen keyboard types into: text, numbers and secrets, not checkboxes, sliders or pickers. */
export function isKeyboardField(el: EventTarget | null): el is KeyboardField {
  if (el instanceof HTMLTextAreaElement) return !el.readOnly && !el.disabled;
  if (!(el instanceof HTMLInputElement) || el.readOnly || el.disabled) return false;
  return TEXT_TYPES.includes(el.type) && el.dataset.keyboard !== 'off';
}

/** Numbers get a keypad; a decimal one when the field takes fractions (its step or its inputmode says so). */
export function layoutFor(el: KeyboardField): LayoutName {
  const mode = el.inputMode;
  if (mode === 'decimal') return 'decimal';
  if (mode === 'numeric' || (el instanceof HTMLInputElement && el.type === 'tel')) return 'numeric';
  if (el instanceof HTMLInputElement && el.type === 'number') {
    const step = el.getAttribute('step') ?? '1';
    return step === 'any' || step.includes('.') ? 'decimal' : 'numeric';
  }
  return 'default';
}

/**
 * A number field has no caret and refuses "1." as a value: its text is kept here while the
 * keypad types, and the field gets every state of it that is a number.
 */
export function typeIntoNumber(el: HTMLInputElement, text: string, button: string): string {
  let next = text;
  if (button === '{bksp}') next = text.slice(0, -1);
  else if (button === '{decimal}') next = text.includes('.') ? text : `${text === '' ? '0' : text}.`;
  else if (/^[0-9]$/.test(button)) next = text === '0' ? button : text + button;
  el.value = next.endsWith('.') ? next.slice(0, -1) : next;
  return next;
}

/**
 * Selects a field's whole text, as a phone does on the first tap into a prefilled field: the
 * first key replaces it instead of typing after it. Number fields have no selection range of
 * their own; `select()` still highlights them (the keypad replaces their text itself).
 */
export function selectAll(el: KeyboardField): void {
  if (el.value === '') return;
  try {
    el.select();
  } catch {
    // A field type without a selection: the keypad's replacement (see typeIntoNumber) still applies.
  }
}

/** Types into a text field at its caret, as a keyboard would; '' is a backspace. */
export function typeIntoText(el: KeyboardField, text: string): void {
  const start = el.selectionStart ?? el.value.length;
  const end = el.selectionEnd ?? el.value.length;
  if (text === '') {
    if (start === end && start > 0) el.setRangeText('', start - 1, end, 'end');
    else el.setRangeText('', start, end, 'end');
  } else {
    if (el.maxLength > 0 && el.value.length - (end - start) + text.length > el.maxLength) return;
    el.setRangeText(text, start, end, 'end');
  }
}

const MARGIN = 16;

function scrollsVertically(el: Element): boolean {
  const overflow = getComputedStyle(el).overflowY;
  return (overflow === 'auto' || overflow === 'scroll') && el.scrollHeight > el.clientHeight;
}

/**
 * The lowest edge of the field and of what describes it (`aria-describedby`: a hint, or a verdict
 * that changes as it is typed, such as a password's strength), in viewport pixels.
 */
function describedBottom(el: Element): number {
  let bottom = el.getBoundingClientRect().bottom;
  for (const id of (el.getAttribute('aria-describedby') ?? '').split(/\s+/)) {
    const hint = id === '' ? null : el.ownerDocument.getElementById(id);
    if (hint && hint.getClientRects().length > 0) bottom = Math.max(bottom, hint.getBoundingClientRect().bottom);
  }
  return bottom;
}

/**
 * Scrolls every container around the field until the field, and what describes it when there is
 * room, sits in view above `limit` (the keyboard's top edge, in viewport pixels): a verdict under
 * a password is read while typing, not once the keyboard is gone. The field's own top always
 * stays in view. The containers reserve the keyboard's height below their content (see the
 * keyboard's styles), so even the last field of a page can come up.
 */
export function revealAbove(el: Element, limit: number): void {
  for (let box: Element | null = el.parentElement; box; box = box.parentElement) {
    if (!scrollsVertically(box)) continue;
    const field = el.getBoundingClientRect();
    const wanted = describedBottom(el);
    const area = box.getBoundingClientRect();
    const bottom = Math.min(area.bottom, limit) - MARGIN;
    const top = area.top + MARGIN;
    if (wanted > bottom) box.scrollTop += Math.min(wanted - bottom, field.top - top);
    else if (field.top < top) box.scrollTop -= top - field.top;
  }
  const field = el.getBoundingClientRect();
  if (field.bottom > limit - MARGIN) window.scrollBy(0, field.bottom - (limit - MARGIN));
}

import type { frFields } from '../fr/fields.js';

export const enFields: Record<keyof typeof frFields, string> = {
  'secret.show': 'Show',
  'secret.hide': 'Hide',
  'secret.showLabel': 'Show the typed text',
  'secret.hideLabel': 'Hide the typed text',

  'datePicker.fieldLabel': '{label}: {day}',
  'datePicker.none': 'No date',
  'datePicker.choose': 'Choose a date',
  'datePicker.previous': 'Previous month',
  'datePicker.next': 'Next month',
  'datePicker.previousYear': 'Previous year',
  'datePicker.nextYear': 'Next year',
  'datePicker.today': 'Today',
  'datePicker.clear': 'No date',
  'datePicker.ok': 'Choose',
  'datePicker.tooEarly': 'Choose a date from {day} on.',
};

/** Words of the console's shared form controls: secrets shown or hidden, the finger-sized date picker. */
export const frFields = {
  'secret.show': 'Afficher',
  'secret.hide': 'Masquer',
  'secret.showLabel': 'Afficher le texte saisi',
  'secret.hideLabel': 'Masquer le texte saisi',

  'datePicker.fieldLabel': '{label} : {day}',
  'datePicker.none': 'Aucune date',
  'datePicker.choose': 'Choisir une date',
  'datePicker.previous': 'Mois précédent',
  'datePicker.next': 'Mois suivant',
  'datePicker.previousYear': 'Année précédente',
  'datePicker.nextYear': 'Année suivante',
  'datePicker.today': 'Aujourd’hui',
  'datePicker.clear': 'Sans date',
  'datePicker.ok': 'Choisir',
  'datePicker.tooEarly': 'Choisissez une date à partir du {day}.',
} as const;

/**
 * The colour filters the capture app knows (its Pilgram filters), by the names it stores;
 * "original" means no filter. A name outside this list (a newer release) is kept as it is.
 */
export const IMAGE_FILTERS = [
  'original',
  '_1977',
  'aden',
  'amaro',
  'ashby',
  'brannan',
  'brooklyn',
  'charmes',
  'clarendon',
  'crema',
  'dogpatch',
  'earlybird',
  'gingham',
  'ginza',
  'hefe',
  'helena',
  'hudson',
  'inkwell',
  'juno',
  'kelvin',
  'lark',
  'lofi',
  'ludwig',
  'maven',
  'mayfair',
  'moon',
  'nashville',
  'perpetua',
  'poprocket',
  'reyes',
  'rise',
  'sierra',
  'skyline',
  'slumber',
  'stinson',
  'sutro',
  'toaster',
  'valencia',
  'walden',
  'willow',
  'xpro2',
] as const;

/** "Clarendon", "1977", "X-Pro II": a filter's name as its makers write it. */
export function filterName(id: string): string {
  if (id === 'xpro2') return 'X-Pro II';
  if (id === 'lofi') return 'Lo-Fi';
  const bare = id.replace(/^_/, '');
  return bare.charAt(0).toUpperCase() + bare.slice(1);
}

/** The list to choose from: the known filters, and the action's own when it is not one of them. */
export function filterChoices(current: string | undefined): string[] {
  const known: string[] = [...IMAGE_FILTERS];
  return current && !known.includes(current) ? [...known, current] : known;
}

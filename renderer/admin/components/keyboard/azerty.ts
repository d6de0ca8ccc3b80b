/** A French AZERTY layout for the booth's screen: digits on top, accents one key away. */
export const AZERTY_LAYOUT = {
  default: [
    '1 2 3 4 5 6 7 8 9 0 {bksp}',
    'a z e r t y u i o p',
    'q s d f g h j k l m',
    "{shift} w x c v b n ' - {shift}",
    '{accents} , {space} . {done}',
  ],
  shift: [
    '1 2 3 4 5 6 7 8 9 0 {bksp}',
    'A Z E R T Y U I O P',
    'Q S D F G H J K L M',
    "{shift} W X C V B N ' _ {shift}",
    '{accents} ; {space} : {done}',
  ],
  accents: [
    '& @ # ( ) / € % + = {bksp}',
    'é è ê ë à â ä ù û ü',
    'É È Ê À Â Ç ç î ï ô',
    '{abc} œ Œ æ ’ « » ! ? {abc}',
    '{abc} " {space} * {done}',
  ],
  /** Whole numbers: a keypad, nothing to miss-type. */
  numeric: ['1 2 3', '4 5 6', '7 8 9', '{bksp} 0 {done}'],
  /** Numbers with a decimal part: the separator the console's language writes. */
  decimal: ['1 2 3', '4 5 6', '7 8 9', '{decimal} 0 {bksp}', '{done}'],
};

/** The layouts a field can open on. */
export type LayoutName = keyof typeof AZERTY_LAYOUT;

export const KEY_LABELS: Record<'fr' | 'en', Record<string, string>> = {
  fr: { '{bksp}': '⌫', '{shift}': '⇧', '{space}': 'espace', '{done}': 'OK', '{accents}': 'éà&', '{abc}': 'abc', '{decimal}': ',' },
  en: { '{bksp}': '⌫', '{shift}': '⇧', '{space}': 'space', '{done}': 'Done', '{accents}': 'éà&', '{abc}': 'abc', '{decimal}': '.' },
};

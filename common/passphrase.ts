import { PASSPHRASE_WORDS } from './passphrase-words.js';

/**
 * What a protected gallery's password must be worth. Its files are public objects: whoever has
 * the link downloads them and tries passwords offline, each at the cost of 600,000 PBKDF2 rounds
 * (docs/online-gallery.md says what that costs). So the password is judged by an estimate of how
 * many guesses an attacker who knows how people choose them would need, not by its length alone.
 */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 128;
/** 2^40 guesses: years of one GPU's time at 600,000 rounds each. */
export const PASSWORD_MIN_BITS = 40;
/** Words in a generated passphrase: 4 × 11 bits, about 44 (four different words, none the guesser knows). */
export const PASSPHRASE_WORD_COUNT = 4;

const WORD_BITS = Math.log2(PASSPHRASE_WORDS.length);
/** A letter of text a person wrote: a word of six letters is one among some 30,000 (15 bits). */
const LETTER_BITS = 2.5;
const DIGIT_BITS = Math.log2(10);
const SYMBOL_BITS = 5;
/** A word every guesser tries first (the password lists' heads, the event's own words). */
const GUESSED_WORD_BITS = 4;

/** Words every list of leaked passwords starts with, in French and English, and the booth's own. */
const GUESSED = new Set(
  (
    'motdepasse password passwd azerty qwerty qwertz soleil bonjour bonsoir salut coucou loulou doudou chouchou ' +
    'cheri cherie amour jetaime iloveyou love princesse prince marseille paris lyon france football dragon ' +
    'monkey letmein welcome admin secret sunshine master shadow superman batman pokemon starwars hello ' +
    'freedom whatever trustno nicolas thomas camille julien marie sophie manon chocolat vacances ' +
    'photo photos photobooth boothdeck galerie gallery mariage wedding anniversaire birthday soiree party ' +
    'fete gala event evenement invite invites guest guests bienvenue famille'
  ).split(' '),
);
const WORDS = new Set(PASSPHRASE_WORDS);
/** Rows of the keyboards people walk along. */
const WALKS = ['azertyuiop', 'qsdfghjklm', 'wxcvbn', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm', 'abcdefghijklmnopqrstuvwxyz'];
const DIGIT_WALKS = ['01234567890', '09876543210'];
/** The digit row shifted, on a QWERTY keyboard and on an AZERTY one (its accents folded). */
const SYMBOL_WALKS = ['!@#$%^&*()_+', '&e"\'(-e_ca)='];
/** A letter or digit typed again right after itself: a guesser's rule, not a new choice. */
const REPEATED_CHAR_BITS = 1;

/** Lower case, accents taken off: what a guesser's rules would try anyway. */
const fold = (text: string): string =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

/** A run that repeats one character, or walks a keyboard row or the alphabet, forwards or back. */
function isPattern(run: string, walks: readonly string[]): boolean {
  if (new Set(run).size === 1) return true;
  const reversed = [...run].reverse().join('');
  return run.length >= 3 && walks.some((w) => w.includes(run) || w.includes(reversed));
}

/**
 * The shortest piece a text is made of, said again and again ('lolololo', '2025202520252025',
 * 'a1a1a1', 'abricot-abricot-abri'), with how many times; undefined when the text is no repeat.
 */
function repeatedUnit(text: string): { unit: string; times: number } | undefined {
  for (let size = 1; size <= text.length / 2; size++) {
    const unit = text.slice(0, size);
    if (unit.repeat(Math.ceil(text.length / size)).slice(0, text.length) === text) return { unit, times: text.length / size };
  }
  return undefined;
}

/** A repeat costs its piece and how many times it is said: a guesser tries repeats of what they try. */
function repeatBits(text: string, bitsOf: (unit: string) => number): number | undefined {
  const repeat = repeatedUnit(text);
  return repeat && bitsOf(repeat.unit) + Math.log2(Math.ceil(repeat.times));
}

/** A run of letters: known words cost what their list is worth, the rest as written text. */
function letterBits(run: string, context: ReadonlySet<string>): number {
  if (isPattern(run, WALKS)) return Math.log2(26) + Math.log2(run.length);
  // A word of the list that sounds like a repeat ('bonbon', 'tutu') is a word of the list.
  if (run.length >= 4 && WORDS.has(run) && !GUESSED.has(run) && !context.has(run)) return WORD_BITS;
  const repeated = repeatBits(run, (unit) => letterBits(unit, context));
  if (repeated !== undefined) return repeated;
  let bits = 0;
  let at = 0;
  while (at < run.length) {
    let taken = 0;
    for (let end = run.length; end >= at + 3; end--) {
      const piece = run.slice(at, end);
      if (GUESSED.has(piece) || context.has(piece)) {
        bits += GUESSED_WORD_BITS;
        taken = end - at;
        break;
      }
      if (end - at >= 4 && WORDS.has(piece)) {
        bits += WORD_BITS;
        taken = end - at;
        break;
      }
    }
    if (taken === 0) {
      bits += at > 0 && run[at] === run[at - 1] ? REPEATED_CHAR_BITS : LETTER_BITS;
      taken = 1;
    }
    at += taken;
  }
  return bits;
}

/** Digits counting up or down by one, round the clock as long as they like ('0123456789012'). */
const isCount = (run: string): boolean =>
  run.length >= 3 && [1, 9].some((step) => [...run].every((d, i) => i === 0 || Number(d) === (Number(run[i - 1]) + step) % 10));

function digitBits(run: string): number {
  if (isPattern(run, DIGIT_WALKS) || isCount(run)) return DIGIT_BITS + Math.log2(run.length);
  // A year (birth, wedding): a couple of centuries to try.
  if (/^(19|20)\d\d$/.test(run)) return Math.log2(200);
  const repeated = repeatBits(run, digitBits);
  if (repeated !== undefined) return repeated;
  return [...run].reduce((bits, digit, i) => bits + (i > 0 && digit === run[i - 1] ? REPEATED_CHAR_BITS : DIGIT_BITS), 0);
}

function symbolBits(run: string): number {
  if (isPattern(run, SYMBOL_WALKS)) return SYMBOL_BITS + Math.log2(run.length);
  return repeatBits(run, symbolBits) ?? run.length * SYMBOL_BITS;
}

/** The words of what the guesser knows (the event's name), as the estimate compares them. */
const knownWords = (context: readonly string[]): Set<string> =>
  new Set(context.flatMap((c) => fold(c).split(/[^a-z0-9]+/)).filter((w) => w.length >= 3));

/** The folded text's parts, each judged on its own; a part said before costs only which one it repeats. */
function textBits(folded: string, known: ReadonlySet<string>): number {
  const runs = [...folded.matchAll(/[a-z]+|[0-9]+|[^a-z0-9]+/g)].map(([run]) => run);
  // One run is judged as one (its repeats included); several said again as a whole ('a1a1a1') cost their first.
  const whole = runs.length > 1 ? repeatBits(folded, (unit) => textBits(unit, known)) : undefined;
  if (whole !== undefined) return whole;
  let bits = 0;
  const separators = new Set<string>();
  const said: string[] = [];
  for (const run of runs) {
    if (/^[ ._-]$/.test(run)) {
      separators.add(run);
      continue;
    }
    if (said.includes(run)) {
      bits += Math.log2(said.length) + 1;
      continue;
    }
    said.push(run);
    if (/^[a-z]/.test(run)) bits += letterBits(run, known);
    else if (/^[0-9]/.test(run)) bits += known.has(run) ? GUESSED_WORD_BITS : digitBits(run);
    else bits += symbolBits(run);
  }
  if (separators.size > 1) bits += Math.log2(separators.size) * 2;
  return bits;
}

/**
 * An estimate, in bits, of how many guesses a password takes: the sum of its parts, each judged
 * pessimistically (a word from the passphrase list is 11 bits, a word any guesser tries first 4,
 * other letters 2.5 each, digits 3.3 each, a year 7.6, a keyboard walk almost nothing, one kind of
 * separator between words nothing). Whatever is said again (a character, a part, the whole)
 * costs almost nothing more. `context` holds words the attacker knows (the event's name).
 */
export function estimatePasswordBits(password: string, context: readonly string[] = []): number {
  let bits = textBits(fold(password), knownWords(context));
  if (/[A-Z]/.test(password) && /[a-z]/.test(password)) bits += 2;
  return Math.round(bits * 10) / 10;
}

export type PasswordVerdict = 'ok' | 'too_short' | 'too_long' | 'too_guessable';

/** Whether a gallery password is worth its name: long enough, and estimated at PASSWORD_MIN_BITS at least. */
export function judgePassword(password: string, context: readonly string[] = []): PasswordVerdict {
  if ([...password].length < PASSWORD_MIN_LENGTH) return 'too_short';
  if ([...password].length > PASSWORD_MAX_LENGTH) return 'too_long';
  return estimatePasswordBits(password, context) >= PASSWORD_MIN_BITS ? 'ok' : 'too_guessable';
}

/**
 * A passphrase of PASSPHRASE_WORD_COUNT different words from the list, joined by dashes: easy to
 * read out to a client, about 44 bits. Drawn with the platform's cryptographic generator (the
 * browser's or Node's); 2,048 divides 2^32, so taking the remainder favours no word. A word drawn
 * twice, or one the guesser knows (the event's name: `context`, or a word every guesser tries
 * first), is drawn again: the booth takes every passphrase it offers.
 */
export function generatePassphrase(count = PASSPHRASE_WORD_COUNT, context: readonly string[] = []): string {
  const known = knownWords(context);
  const usable = (w: string): boolean => !GUESSED.has(w) && !known.has(w);
  if (PASSPHRASE_WORDS.filter(usable).length < count) throw new Error('Not enough words to draw a passphrase from');
  const words: string[] = [];
  const draws = new Uint32Array(count);
  while (words.length < count) {
    globalThis.crypto.getRandomValues(draws);
    for (const n of draws) {
      const word = PASSPHRASE_WORDS[n % PASSPHRASE_WORDS.length]!;
      if (words.length < count && usable(word) && !words.includes(word)) words.push(word);
    }
  }
  return words.join('-');
}

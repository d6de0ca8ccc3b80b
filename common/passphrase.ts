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
/** Words in a generated passphrase: 4 × 11 bits = 44. */
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

/** A run of letters: known words cost what their list is worth, the rest as written text. */
function letterBits(run: string, context: ReadonlySet<string>): number {
  if (isPattern(run, WALKS)) return Math.log2(26) + Math.log2(run.length);
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
      bits += LETTER_BITS;
      taken = 1;
    }
    at += taken;
  }
  return bits;
}

function digitBits(run: string): number {
  if (isPattern(run, DIGIT_WALKS)) return DIGIT_BITS + Math.log2(run.length);
  // A year (birth, wedding): a couple of centuries to try.
  if (/^(19|20)\d\d$/.test(run)) return Math.log2(200);
  return run.length * DIGIT_BITS;
}

/**
 * An estimate, in bits, of how many guesses a password takes: the sum of its parts, each judged
 * pessimistically (a word from the passphrase list is 11 bits, a word any guesser tries first 4,
 * other letters 2.5 each, digits 3.3 each, a year 7.6, a repeat or a keyboard walk almost
 * nothing, one kind of separator between words nothing). `context` holds words the attacker
 * knows (the event's name).
 */
export function estimatePasswordBits(password: string, context: readonly string[] = []): number {
  const folded = fold(password);
  const known = new Set(context.flatMap((c) => fold(c).split(/[^a-z0-9]+/)).filter((w) => w.length >= 3));
  let bits = 0;
  const separators = new Set<string>();
  for (const [run] of folded.matchAll(/[a-z]+|[0-9]+|[^a-z0-9]+/g)) {
    if (/^[a-z]/.test(run)) bits += letterBits(run, known);
    else if (/^[0-9]/.test(run)) bits += known.has(run) ? GUESSED_WORD_BITS : digitBits(run);
    else if (/^[ ._-]$/.test(run)) separators.add(run);
    else bits += run.length * SYMBOL_BITS;
  }
  if (separators.size > 1) bits += Math.log2(separators.size) * 2;
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
 * A passphrase of PASSPHRASE_WORD_COUNT words from the list, joined by dashes: easy to read out to
 * a client, 44 bits. Drawn with the platform's cryptographic generator (the browser's or Node's);
 * 2,048 divides 2^32, so taking the remainder favours no word. A word that the judge counts as
 * one every guesser tries first ("soleil", "mariage"), or as one of `context` (the event's name),
 * is drawn again: it is worth 4 bits, not 11, and one in 37 phrases offered was then refused by
 * the very rule it was offered for.
 */
export function generatePassphrase(count = PASSPHRASE_WORD_COUNT, context: readonly string[] = []): string {
  const words: string[] = [];
  const draw = new Uint32Array(1);
  while (words.length < count) {
    globalThis.crypto.getRandomValues(draw);
    const word = PASSPHRASE_WORDS[draw[0]! % PASSPHRASE_WORDS.length]!;
    if (estimatePasswordBits(word, context) >= WORD_BITS) words.push(word);
  }
  return words.join('-');
}

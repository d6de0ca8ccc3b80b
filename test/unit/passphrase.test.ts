import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  estimatePasswordBits,
  generatePassphrase,
  judgePassword,
  PASSPHRASE_WORD_COUNT,
  PASSWORD_MIN_BITS,
} from '../../common/passphrase.js';
import { PASSPHRASE_WORDS } from '../../common/passphrase-words.js';

describe('the passphrase words', () => {
  it('are 2,048 distinct plain words of 4 to 8 letters', () => {
    expect(PASSPHRASE_WORDS).toHaveLength(2048);
    expect(new Set(PASSPHRASE_WORDS).size).toBe(2048);
    for (const w of PASSPHRASE_WORDS) expect(w).toMatch(/^[a-z]{4,8}$/);
  });

  it('are each worth their 11 bits alone: none is a word every guesser tries first', () => {
    const cheap = PASSPHRASE_WORDS.filter((w) => estimatePasswordBits(w) < 11);
    expect(cheap).toEqual([]);
  });
});

afterEach(() => vi.restoreAllMocks());

/** The platform's generator made to draw these numbers, in this order, then 2,048 times the last. */
function drawing(numbers: number[]): void {
  let at = 0;
  vi.spyOn(globalThis.crypto, 'getRandomValues').mockImplementation(<T extends ArrayBufferView | null>(array: T): T => {
    const out = array as unknown as Uint32Array;
    for (let i = 0; i < out.length; i++) out[i] = numbers[Math.min(at++, numbers.length - 1)]!;
    return array;
  });
}
const indexOf = (word: string): number => PASSPHRASE_WORDS.indexOf(word);

describe('a generated passphrase', () => {
  it('is four words of the list, read out easily, and passes the rule', () => {
    const phrase = generatePassphrase();
    const words = phrase.split('-');
    expect(words).toHaveLength(PASSPHRASE_WORD_COUNT);
    for (const w of words) expect(PASSPHRASE_WORDS).toContain(w);
    expect(estimatePasswordBits(phrase)).toBeCloseTo(44, 0);
    expect(judgePassword(phrase)).toBe('ok');
  });

  it('takes each word by the remainder of a 32-bit draw: every word as likely', () => {
    // 2^32 is 2,097,152 times 2,048: every remainder comes from as many draws.
    expect(2 ** 32 % PASSPHRASE_WORDS.length).toBe(0);
    drawing([indexOf('abeille'), 2048 * 7 + indexOf('bambou'), 2 ** 32 - 2048 + indexOf('cactus'), 2048 + indexOf('zinc')]);
    expect(generatePassphrase()).toBe('abeille-bambou-cactus-zinc');
  });

  it('never repeats a word nor offers one of the event’s name: the booth takes every passphrase it offers', () => {
    const context = ['Bretzel & Cacao', 'bretzel-cacao'];
    drawing([
      indexOf('bretzel'),
      indexOf('abeille'),
      indexOf('abeille'),
      indexOf('cacao'),
      indexOf('bambou'),
      indexOf('cactus'),
      indexOf('zinc'),
    ]);
    const phrase = generatePassphrase(PASSPHRASE_WORD_COUNT, context);
    expect(phrase).toBe('abeille-bambou-cactus-zinc');
    expect(judgePassword(phrase, context)).toBe('ok');
  });

  it('passes the booth’s rule whatever is drawn', () => {
    for (let i = 0; i < 500; i++) {
      const phrase = generatePassphrase(PASSPHRASE_WORD_COUNT, ['Soirée Bretzel']);
      expect(judgePassword(phrase, ['Soirée Bretzel']), phrase).toBe('ok');
    }
  });

  it('is drawn anew each time', () => {
    const phrases = new Set(Array.from({ length: 50 }, () => generatePassphrase()));
    expect(phrases.size).toBe(50);
  });
});

describe('judging a gallery password', () => {
  it.each([
    ['123456', 'too_short'],
    ['abcdef', 'too_short'],
    ['123456789012', 'too_guessable'],
    ['motdepasse123', 'too_guessable'],
    ['azertyuiop12', 'too_guessable'],
    ['aaaaaaaaaaaaaaaaaaaa', 'too_guessable'],
    ['Soleil2026!!', 'too_guessable'],
    ['jesuisunmotdepasse', 'too_guessable'],
    // Three words of the list: 33 bits, under the rule (a fourth makes it).
    ['girafe piano orage', 'too_guessable'],
    ['girafe piano orage cerise', 'ok'],
    ['correct horse battery staple', 'ok'],
    ['Ma tante Lucie a peint 3 volets bleus', 'ok'],
    // Said again and again: a guesser's rules try repeats of what they try.
    ['!!!!!!!!!!!!', 'too_guessable'],
    ['!@#$%^&*()_+', 'too_guessable'],
    ['2025202520252025', 'too_guessable'],
    ['0123456789012345', 'too_guessable'],
    ['lolololololololololo', 'too_guessable'],
    ['a1a1a1a1a1a1a1a1a1a1', 'too_guessable'],
    ['abricot-abricot-abricot', 'too_guessable'],
    ['girafe piano girafe piano', 'too_guessable'],
    ['aaaabbbbccccdddd', 'too_guessable'],
  ])('%s: %s', (password, verdict) => {
    expect(judgePassword(password)).toBe(verdict);
  });

  it('knows the words the attacker knows: the event’s name', () => {
    const phrase = 'Mariage-Lucien-Gaspard-2026';
    expect(judgePassword(phrase)).toBe('ok');
    expect(judgePassword(phrase, ['Mariage Lucien et Gaspard', 'mariage-lucien-et-gaspard'])).toBe('too_guessable');
    expect(estimatePasswordBits(phrase, ['Mariage Lucien et Gaspard'])).toBeLessThan(PASSWORD_MIN_BITS);
  });

  it('reads accents and capitals as a guesser would', () => {
    expect(estimatePasswordBits('GIRAFE-piano-Orage-cérise')).toBeGreaterThanOrEqual(44);
    expect(estimatePasswordBits('MotDePasse')).toBeLessThan(10);
  });
});

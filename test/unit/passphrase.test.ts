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
});

describe('a generated passphrase', () => {
  afterEach(() => vi.restoreAllMocks());

  it('is four words of the list, read out easily, and passes the rule', () => {
    const phrase = generatePassphrase();
    const words = phrase.split('-');
    expect(words).toHaveLength(PASSPHRASE_WORD_COUNT);
    for (const w of words) expect(PASSPHRASE_WORDS).toContain(w);
    expect(estimatePasswordBits(phrase)).toBeCloseTo(44, 0);
    expect(judgePassword(phrase)).toBe('ok');
  });

  it('never offers a word the rule counts as guessed, nor a word of the event’s name: the rule takes every phrase it offers', () => {
    // The generator's draws, scripted: "soleil" and "mariage" (words every guesser tries first),
    // "lampe" (the event's own name), then plain words of the list.
    const order = ['soleil', 'reine', 'mariage', 'cuvette', 'lampe', 'orageux', 'biniou'];
    expect(order.every((w) => PASSPHRASE_WORDS.includes(w))).toBe(true);
    let next = 0;
    vi.spyOn(globalThis.crypto, 'getRandomValues').mockImplementation(<T extends ArrayBufferView | null>(array: T): T => {
      const out = array as unknown as Uint32Array;
      for (let i = 0; i < out.length; i++) out[i] = PASSPHRASE_WORDS.indexOf(order[next++ % order.length]!);
      return array;
    });
    const phrase = generatePassphrase(PASSPHRASE_WORD_COUNT, ['soiree-lampe']);
    expect(phrase).toBe('reine-cuvette-orageux-biniou');
    expect(judgePassword(phrase, ['soiree-lampe'])).toBe('ok');
  });

  it('passes the rule every time, drawn after drawn', () => {
    for (let i = 0; i < 2000; i++) {
      const phrase = generatePassphrase(PASSPHRASE_WORD_COUNT, ['mariage-de-lea']);
      expect(judgePassword(phrase, ['mariage-de-lea']), phrase).toBe('ok');
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

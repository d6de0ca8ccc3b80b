// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import { describeError, reasonOf } from '../../renderer/shared/error-text.js';
import { ApiError } from '../../renderer/shared/http.js';
import { setLocale } from '../../renderer/shared/i18n/index.js';
import { plain } from '../support/plain-spaces.js';

const rejected = (issues: unknown[]): ApiError =>
  new ApiError(
    400,
    'capture_app_rejected',
    'The capture app refused the change: action 2: frame.file: Path does not point to a file',
    undefined,
    {
      issues,
    },
  );
const invalid = (issues: unknown[]): ApiError =>
  new ApiError(400, 'validation_failed', 'Invalid action: general.countdown: Invalid input: expected number, received string', undefined, {
    issues,
  });

describe('errors in words, in French', () => {
  beforeEach(() => setLocale('fr'));

  it('says why a gallery folder, a gallery password or an owner PIN is refused, not only which field', () => {
    const outside = new ApiError(
      400,
      'folder_outside_root',
      'Invalid publishing settings: destination.path must be inside /mnt/usb',
      undefined,
      {
        issues: [
          { field: 'destination.path', message: 'must be inside /mnt/usb (the folder chosen for galleries when the booth was installed)' },
        ],
        root: '/mnt/usb',
      },
    );
    expect(plain(describeError(outside))).toBe(
      'Ce dossier n’est pas dans /mnt/usb, le dossier choisi pour les galeries à l’installation de la borne : choisissez-en un à l’intérieur.',
    );
    const weak = new ApiError(400, 'password_too_weak', 'Invalid gallery password', undefined, {
      issues: [{ field: 'password', message: 'must be at least 12 characters' }],
    });
    expect(plain(describeError(weak))).toMatch(/^Ce mot de passe est trop facile à deviner pour une galerie en ligne/);
    const short = new ApiError(400, 'owner_pin_too_short', 'The owner PIN must have at least 6 digits', undefined, {
      issues: [{ field: 'new_pin', message: 'must be at least 6 digits while an event PIN is set' }],
    });
    expect(plain(describeError(short))).toBe('Un code d’événement existe : le code du propriétaire doit avoir au moins 6 chiffres.');
  });

  it('names a missing frame by its form label and the action by its number from 1', () => {
    const err = rejected([{ index: 1, field: 'frame.file', message: 'Path does not point to a file' }]);
    expect(plain(describeError(err))).toBe('Action 2 — Cadre : ce fichier n’existe pas dans les fichiers de la borne.');
  });

  it('says the flash is resting and that a reboot is already under way, in sentences', () => {
    expect(plain(describeError(new ApiError(409, 'relay_resting', 'The flash light is resting')))).toMatch(/^Le flash se repose/);
    expect(plain(describeError(new ApiError(409, 'maintenance_busy', 'The board is already rebooting')))).toMatch(
      /^Une commande est déjà en cours/,
    );
  });

  it('asks for a number for an emptied countdown', () => {
    const err = invalid([{ field: 'general.countdown', message: 'Invalid input: expected number, received string' }]);
    expect(plain(describeError(err))).toBe('Compte à rebours : saisissez un nombre.');
  });

  it('says a read failed without claiming nothing was changed, and a write that nothing was', () => {
    const err = new ApiError(503, 'capture_app_unavailable', 'The capture app answered HTTP 503 to reading the configuration');
    expect(plain(describeError(err, { reading: true }))).toBe('L’application de capture est injoignable pour le moment.');
    expect(plain(describeError(err))).toBe('L’application de capture est injoignable : rien n’a été modifié.');
  });

  it('never shows the server’s own message, even for a code it does not know', () => {
    const texts = [
      describeError(new ApiError(418, 'teapot', 'I am a teapot')),
      describeError(new ApiError(500, 'internal_error', 'Something went wrong on the booth; the error was logged')),
      describeError(new Error('TypeError: x is undefined')),
      describeError(invalid([{ field: 'mystery.field', message: 'weird' }])),
    ];
    for (const text of texts) expect(text).not.toMatch(/teapot|logged|TypeError|mystery|weird/);
    expect(plain(texts[3])).toBe('Un réglage : cette valeur n’est pas acceptée.');
  });

  it('speaks of the connection when Boothdeck does not answer', () => {
    expect(plain(describeError(new ApiError(0, 'network', 'network')))).toMatch(/^Boothdeck ne répond pas/);
  });
});

describe('errors in words, in English', () => {
  beforeEach(() => setLocale('en'));

  it('words the same errors in English', () => {
    expect(plain(describeError(rejected([{ index: 0, field: 'background.file', message: 'Path does not point to a file' }])))).toBe(
      'Action 1 — Background: this file does not exist among the booth’s files.',
    );
    expect(
      plain(describeError(invalid([{ field: 'general.countdown', message: 'Invalid input: expected number, received string' }]))),
    ).toBe('Countdown: enter a number.');
    expect(plain(describeError(new ApiError(409, 'slug_taken', 'An event with the slug "x" already exists')))).toBe(
      'An event already has this name. Choose another one.',
    );
  });
});

describe('reasons read from either side’s words', () => {
  it.each([
    ['Path does not point to a file', 'file_missing'],
    ['Invalid input: expected number, received string', 'not_number'],
    ['Too small: expected number to be >=0', 'too_small'],
    ['is too long', 'too_long'],
    ['Field required', 'required'],
    ['must be whole seconds', 'not_whole'],
    ['unknown field', 'unknown_field'],
    ['not available for video actions', 'not_available'],
    ['something else', 'invalid'],
  ])('%s → %s', (message, reason) => {
    expect(reasonOf({ field: 'x', message })).toBe(reason);
  });

  it('prefers a reason the server named', () => {
    expect(reasonOf({ field: 'x', reason: 'too_big', message: 'Path does not point to a file' })).toBe('too_big');
  });
});

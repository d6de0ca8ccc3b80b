import type { LedDriverChoice, RelayGpioStatus } from '../../../../server/contract/hardware.contract.js';
import { t, type MessageKey } from '../../../shared/i18n/index.js';

/** Which driver lights the ring and why the other was not used, one sentence each; none without a choice (fake hardware). */
export function ledDriverSentences(choice: LedDriverChoice | null | undefined): string[] {
  if (!choice) return [];
  const gpio = choice.gpio;
  return [
    t(`hw.led.driver.${choice.driver ?? 'none'}` as MessageKey, { gpio }),
    ...choice.passed.map((p) => t(`hw.led.passed.${p.driver}.${p.reason}` as MessageKey, { gpio })),
  ];
}

/** A Pi 4 driving the ring over SPI: whether its core clock is fixed, as a sentence; null elsewhere. */
export function coreClockSentence(choice: LedDriverChoice | null | undefined): { text: string; warning: boolean } | null {
  const clock = choice?.driver === 'spi' ? choice.core_clock : undefined;
  if (!clock) return null;
  const config = clock.config ?? '/boot/firmware/config.txt';
  return clock.fixed
    ? { text: t('hw.led.coreClock.fixed', { config }), warning: false }
    : { text: t('hw.led.coreClock.loose', { config }), warning: true };
}

/** Which GPIO interface drives the flash relay, as a sentence; none with fake hardware. */
export function gpioDriverSentence(status: RelayGpioStatus | undefined): string | null {
  if (!status) return null;
  return t(`hw.gpio.${status.driver ?? 'none'}` as MessageKey);
}

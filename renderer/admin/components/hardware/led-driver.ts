import type { LedDriverChoice } from '../../../../server/contract/hardware.contract.js';
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

import { describe, expect, it } from 'vitest';
import { axisNumbers, COUNT_STEPS } from '../../renderer/shared/components/chart-axes.js';

describe('a chart’s value axis', () => {
  it('reads its numbers in the console’s language, not the browser’s', () => {
    expect(axisNumbers('fr')([0, 2.5, 1500])).toEqual(['0', '2,5', '1\u202f500']);
    expect(axisNumbers('en')([0, 2.5, 1500])).toEqual(['0', '2.5', '1,500']);
  });

  it('counts photos in whole steps: never "2,5 photos" between two ticks', () => {
    expect(COUNT_STEPS.every((step) => Number.isInteger(step) && step >= 1)).toBe(true);
    expect([...COUNT_STEPS].sort((a, b) => a - b)).toEqual(COUNT_STEPS);
  });
});

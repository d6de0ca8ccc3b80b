/**
 * The median of a few measurements and an interval that holds it with at least `confidence`,
 * from the measurements' own order (no assumption about their distribution): with n values
 * sorted, [x(k), x(n+1-k)] misses the true median only when k or fewer of them fall on one side
 * of it, which a fair coin says happens with probability 2·P(Binomial(n, ½) < k).
 */
export interface MedianInterval {
  median: number;
  low: number;
  high: number;
  /** The interval's actual coverage (at least the one asked for), e.g. 0.96. */
  coverage: number;
  n: number;
}

/** P(Binomial(n, ½) ≤ k). */
function binomialHalfCdf(n: number, k: number): number {
  let term = 0.5 ** n;
  let sum = term;
  for (let i = 1; i <= k; i++) {
    term = (term * (n - i + 1)) / i;
    sum += term;
  }
  return sum;
}

/** Undefined when there are too few values for any interval with that confidence (5 at least for 90 %). */
export function medianInterval(values: readonly number[], confidence = 0.9): MedianInterval | undefined {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  const miss = (1 - confidence) / 2;
  // The largest k whose interval still covers the median with the confidence asked for.
  let k = 0;
  while (k + 1 <= n / 2 && binomialHalfCdf(n, k) <= miss) k++;
  if (k === 0) return undefined;
  const mid = n / 2;
  const median = n % 2 === 1 ? (sorted[Math.floor(mid)] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  return { median, low: sorted[k - 1] as number, high: sorted[n - k] as number, coverage: 1 - 2 * binomialHalfCdf(n, k - 1), n };
}

/** The arithmetic of the benchmark's figures: percentiles and the busiest window. */

/** The `fraction` percentile (nearest rank), rounded to 0.1; null for no values. */
export function percentile(values: readonly number[], fraction: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1);
  return round1(sorted[Math.max(0, index)] as number);
}

/** Rounds to one decimal. */
export function round1(value: number): number {
  return Math.round(value * 10) / 10;
}

/** The most of `times` (ascending, ms) that fall within any `windowMs` span. */
export function maxInWindow(times: readonly number[], windowMs: number): number {
  let best = 0;
  let from = 0;
  for (let to = 0; to < times.length; to++) {
    while ((times[to] as number) - (times[from] as number) >= windowMs) from += 1;
    best = Math.max(best, to - from + 1);
  }
  return best;
}

/**
 * Exponential backoff, the one rule every retry in the project follows: the n-th wait doubles
 * from `baseMs` up to `maxMs`, with jitter so that replicas (or clients) that failed together do
 * not all come back at the same moment.
 */

/** How much of each wait is drawn at random. */
export type Jitter =
  /** Anywhere from 0 to the doubled wait: the widest spread (the service-desk client, the outbox). */
  | 'full'
  /** Half fixed, half drawn: never much sooner than the doubled wait (the mirror's polls). */
  | 'half'
  /** No draw: for one process pacing itself against one limit (card updates). */
  | 'none';

/** The wait before retry number `retry` (0 for the first retry), in ms. */
export function backoffMs(
  retry: number,
  options: { baseMs: number; maxMs: number; jitter: Jitter; random?: () => number },
): number {
  // Capped exponent: 2 ** 30 already exceeds any maximum, and larger ones overflow nothing.
  const cap = Math.min(options.maxMs, options.baseMs * 2 ** Math.min(Math.max(0, retry), 30));
  const random = options.random ?? Math.random;
  if (options.jitter === 'none') return cap;
  if (options.jitter === 'half') return Math.round(cap / 2 + (cap / 2) * random());
  return Math.floor(random() * cap);
}

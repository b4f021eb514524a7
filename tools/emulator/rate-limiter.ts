/**
 * Per-key rate limits (docs/platform-contract.md, "Behaviour": 100 a minute and 1,000 an hour, per key).
 *
 * Chosen: fixed windows aligned to the clock. A minute window runs from :00 to :59 and resets
 * at the next minute boundary; an hour window likewise. Fixed windows make `X-RateLimit-Reset`
 * an exact, predictable instant that a client can adopt, at the price of allowing a burst
 * across a boundary, which the platform's published headers suggest it tolerates too.
 */
import type { Now } from './scheduler.ts';

/** Limits per key. */
export interface RateLimits {
  perMinute: number;
  perHour: number;
}

/** The outcome of one request against the limits, with what the headers say. */
export interface RateDecision {
  allowed: boolean;
  /** X-RateLimit-Limit: the limit of the reported window. */
  limit: number;
  /** X-RateLimit-Remaining: requests left in it after this one. */
  remaining: number;
  /** X-RateLimit-Reset: Unix seconds at which it resets. */
  resetSeconds: number;
  /** Retry-After in seconds, set when the request was refused. */
  retryAfterSeconds?: number;
}

interface WindowState {
  start: number;
  count: number;
}

interface KeyState {
  minute: WindowState;
  hour: WindowState;
}

interface WindowView {
  limit: number;
  count: number;
  resetMs: number;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

/** Fixed-window counters per key, on an injectable clock. */
export class RateLimiter {
  readonly #limits: RateLimits;
  readonly #now: Now;
  readonly #keys = new Map<string, KeyState>();

  constructor(limits: RateLimits, now: Now) {
    this.#limits = limits;
    this.#now = now;
  }

  /**
   * Counts one request for a key when both windows have room. A refused request counts in
   * neither window, so a client that keeps retrying early is not punished further.
   */
  take(key: string): RateDecision {
    const now = this.#now();
    const state = this.#state(key, now);
    const minute = {
      limit: this.#limits.perMinute,
      count: state.minute.count,
      resetMs: state.minute.start + MINUTE_MS,
    };
    const hour = {
      limit: this.#limits.perHour,
      count: state.hour.count,
      resetMs: state.hour.start + HOUR_MS,
    };
    const exhausted = [minute, hour].filter((window) => window.count >= window.limit);
    if (exhausted.length > 0) {
      // When both are spent, the later reset is the one that actually frees the key.
      const blocking = exhausted.reduce((a, b) => (b.resetMs > a.resetMs ? b : a));
      return {
        ...headerView(blocking),
        allowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil((blocking.resetMs - now) / 1000)),
      };
    }
    state.minute.count += 1;
    state.hour.count += 1;
    minute.count += 1;
    hour.count += 1;
    return { ...headerView(closestToExhaustion(minute, hour)), allowed: true };
  }

  #state(key: string, now: number): KeyState {
    const minuteStart = now - (now % MINUTE_MS);
    const hourStart = now - (now % HOUR_MS);
    let state = this.#keys.get(key);
    if (!state) {
      state = { minute: { start: minuteStart, count: 0 }, hour: { start: hourStart, count: 0 } };
      this.#keys.set(key, state);
    }
    if (state.minute.start !== minuteStart) state.minute = { start: minuteStart, count: 0 };
    if (state.hour.start !== hourStart) state.hour = { start: hourStart, count: 0 };
    return state;
  }
}

// Fewest requests left wins; on a tie the later reset, since that is the longer wait.
function closestToExhaustion(a: WindowView, b: WindowView): WindowView {
  const left = (window: WindowView) => window.limit - window.count;
  if (left(a) !== left(b)) return left(a) < left(b) ? a : b;
  return a.resetMs >= b.resetMs ? a : b;
}

function headerView(window: WindowView): Omit<RateDecision, 'allowed'> {
  return {
    limit: window.limit,
    remaining: Math.max(0, window.limit - window.count),
    resetSeconds: Math.ceil(window.resetMs / 1000),
  };
}

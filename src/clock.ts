/**
 * Time, as every part of the project reads it and waits on it: the one sleep helper, and the
 * clock a part takes so that tests (and the mirror benchmark) can run it on a simulated one.
 */
import { setTimeout as delay } from 'node:timers/promises';

/** What a part reads the time from and waits on; a part takes either half as an option. */
export interface Clock {
  /** The time in ms since the epoch. */
  now: () => number;
  /** Waits `ms`; must settle (reject) at once when the signal aborts. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** A clock's reading of the time. */
export type Now = Clock['now'];

/** A clock's wait. */
export type Sleep = Clock['sleep'];

/** How a wait treats the process. */
export interface SleepOptions {
  /**
   * Whether the pending wait keeps the process alive (default true). A wait in the background
   * (a card waiting on Slack) passes false: it must not hold up the process's end.
   */
  keepsAlive?: boolean;
}

/** The real wait: `ms`, rejecting with the abort's reason as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal, options: SleepOptions = {}): Promise<void> {
  const ref = options.keepsAlive ?? true;
  return delay(ms, undefined, signal ? { signal, ref } : { ref });
}

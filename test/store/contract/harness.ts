/** What a backend gives the contract suites: fresh namespaces, replicas and a fake clock. */
import type { RateBudgetLimits, Stores } from '../../../src/store/types.ts';

/** A clock the test moves by hand, so leases expire without waiting. */
export interface FakeClock {
  now: () => number;
  advance(ms: number): void;
}

/** A clock at a fixed, realistic time. */
export function fakeClock(start = 1_700_000_000_000): FakeClock {
  let time = start;
  return {
    now: () => time,
    advance: (ms) => {
      time += ms;
    },
  };
}

/** Options a suite may set on a namespace's stores. */
export interface NamespaceOptions {
  deadLetterCap?: number;
  budget?: Partial<RateBudgetLimits>;
  triageDefaults?: ReadonlyMap<string, string>;
}

/** One empty area of a backend that tests do not share. */
export interface StoresNamespace {
  /** Stores for replica `n`: for Redis, a new store instance on connection n % 2. */
  open(replica?: number): Stores;
}

/** A backend under test. */
export interface StoresBackend {
  /** Whether a new store instance sees what an earlier one wrote (a restart keeps the outbox). */
  durable: boolean;
  /** A fresh, empty namespace whose stores read `clock`. */
  namespace(clock: FakeClock, options?: NamespaceOptions): StoresNamespace;
}

/**
 * Fault injection for reliability tests. The fault for a request is drawn before the request
 * touches any state, so a faulted write never half-applies: it either did not happen at all
 * or (no fault) happened completely.
 */
import { EmulatorConfigError } from './errors.ts';
import type { Random } from './random.ts';

/** Fault settings; every field can change at runtime through `setFaults`. */
export interface FaultSettings {
  /** Fraction (0 to 1) of requests answered 500, 503 or with a dropped connection. */
  faultRate: number;
  /** Milliseconds added before every request is handled. */
  latencyMs: number;
  /** When true, every request is a 503, as during an outage. */
  down: boolean;
  /**
   * The next N writes are applied and then their connection is dropped before the answer: the
   * platform did the work but the client timed out. Only idempotency keys make a retry safe.
   */
  loseWriteResponses?: number;
}

/** What happens to one request. */
export type Fault = 'none' | 'status_500' | 'status_503' | 'drop_connection';

const RANDOM_FAULTS: readonly Fault[] = ['status_500', 'status_503', 'drop_connection'];

/** Holds the current settings and draws a fault per request from a seeded random source. */
export class FaultInjector {
  #settings: FaultSettings;
  readonly #random: Random;

  constructor(settings: FaultSettings, random: Random) {
    this.#settings = checkedSettings(settings);
    this.#random = random;
  }

  /** The current settings. */
  get settings(): Readonly<FaultSettings> {
    return this.#settings;
  }

  /** Changes some settings; the next request sees them. */
  update(change: Partial<FaultSettings>): void {
    this.#settings = checkedSettings({ ...this.#settings, ...change });
  }

  /** Whether the answer to a write that was just applied is to be lost (counts it down). */
  takeLostWriteResponse(): boolean {
    const remaining = this.#settings.loseWriteResponses ?? 0;
    if (remaining <= 0) return false;
    this.#settings = { ...this.#settings, loseWriteResponses: remaining - 1 };
    return true;
  }

  /** Draws the fault of the next request. */
  draw(): Fault {
    if (this.#settings.down) return 'status_503';
    if (this.#settings.faultRate <= 0 || this.#random() >= this.#settings.faultRate) return 'none';
    const index = Math.floor(this.#random() * RANDOM_FAULTS.length);
    return RANDOM_FAULTS[index] ?? 'status_500';
  }
}

function checkedSettings(settings: FaultSettings): FaultSettings {
  const { faultRate, latencyMs, loseWriteResponses = 0 } = settings;
  if (!(Number.isInteger(loseWriteResponses) && loseWriteResponses >= 0)) {
    throw new EmulatorConfigError('loseWriteResponses must be a whole number, 0 or more');
  }
  if (!(Number.isFinite(faultRate) && faultRate >= 0 && faultRate <= 1)) {
    throw new EmulatorConfigError('faultRate must be a number from 0 to 1');
  }
  if (!(Number.isFinite(latencyMs) && latencyMs >= 0)) {
    throw new EmulatorConfigError('latencyMs must be a number of milliseconds, 0 or more');
  }
  return { ...settings };
}

/**
 * The one retry policy of the client: which failures are retried, how long to wait, and when
 * to give up. Pure (time and randomness come in), so every branch is testable without timers.
 */
import { backoffMs } from '../backoff.ts';
import { ApiError, ConnectionError, RateLimitError, ServerError } from './errors.ts';

/** Retry settings of a client. */
export interface RetryOptions {
  /** Attempts per logical operation, the first included. Default 4. */
  maxAttempts?: number;
  /** Overall time budget of one logical operation, in ms. Default 30 000. */
  deadlineMs?: number;
  /** Backoff base, in ms: the cap of the n-th retry's wait is base * 2^n. Default 500. */
  baseDelayMs?: number;
  /** Largest backoff wait, in ms. Default 8 000. */
  maxDelayMs?: number;
  /** Largest wait taken from Retry-After or X-RateLimit-Reset, in ms. Default 60 000. */
  maxRetryAfterMs?: number;
}

/** Retry settings with every default filled in. */
export type ResolvedRetryOptions = Readonly<Required<RetryOptions>>;

/** The defaults of `RetryOptions`. */
export const DEFAULT_RETRY_OPTIONS: ResolvedRetryOptions = {
  maxAttempts: 4,
  deadlineMs: 30_000,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};

/** Fills in defaults and refuses values that would make the policy meaningless. */
export function resolveRetryOptions(options: RetryOptions = {}): ResolvedRetryOptions {
  const resolved = { ...DEFAULT_RETRY_OPTIONS };
  for (const key of Object.keys(DEFAULT_RETRY_OPTIONS) as (keyof RetryOptions)[]) {
    const value = options[key];
    if (value === undefined) continue;
    if (!Number.isFinite(value) || value < 0) {
      throw new TypeError(`retry.${key} must be a finite number >= 0, got ${value}`);
    }
    resolved[key] = value;
  }
  if (!Number.isInteger(resolved.maxAttempts) || resolved.maxAttempts < 1) {
    throw new TypeError(`retry.maxAttempts must be an integer >= 1, got ${resolved.maxAttempts}`);
  }
  return resolved;
}

// Transport failures that no retry can fix: the dispatcher was closed, or the request itself
// is invalid (a bug, or an unmatched mock in a test).
const PERMANENT_TRANSPORT_CODES = new Set([
  'UND_ERR_DESTROYED',
  'UND_ERR_CLOSED',
  'UND_ERR_INVALID_ARG',
  'UND_ERR_NOT_SUPPORTED',
  'UND_MOCK_ERR_MOCK_NOT_MATCHED',
]);

/** Whether a failure may succeed when tried again: connection errors, 408, 429 and 5xx. */
export function isRetryableError(error: unknown): boolean {
  if (error instanceof ConnectionError) {
    return !(error.causeCode && PERMANENT_TRANSPORT_CODES.has(error.causeCode));
  }
  if (error instanceof RateLimitError || error instanceof ServerError) return true;
  return error instanceof ApiError && error.status === 408;
}

/** Why the policy gave up. */
export type GiveUpReason = 'not_retryable' | 'post_without_key' | 'max_attempts' | 'deadline';

/** The policy's answer after a failed attempt. */
export type RetryDecision =
  | { retry: true; delayMs: number; basis: 'server' | 'backoff' }
  | { retry: false; reason: GiveUpReason };

/** One failed attempt, as the policy sees it. */
export interface FailedAttempt {
  error: unknown;
  /** Attempts made so far, this one included (1 after the first). */
  attempt: number;
  method: string;
  /** Whether the request carried X-Idempotency-Key. */
  hasIdempotencyKey: boolean;
  /** Current time, in ms. */
  now: number;
  /** When the logical operation must be over, in ms. */
  deadline: number;
}

/** Decides, after each failed attempt, whether and how long to wait before the next. */
export class RetryPolicy {
  readonly options: ResolvedRetryOptions;
  readonly #random: () => number;

  constructor(options: RetryOptions = {}, random: () => number = Math.random) {
    this.options = resolveRetryOptions(options);
    this.#random = random;
  }

  /** Whether to retry, and after which wait. */
  decide(failed: FailedAttempt): RetryDecision {
    if (!isRetryableError(failed.error)) return { retry: false, reason: 'not_retryable' };
    // A POST without a key could create a second ticket; once is the only safe count.
    if (failed.method === 'POST' && !failed.hasIdempotencyKey) {
      return { retry: false, reason: 'post_without_key' };
    }
    if (failed.attempt >= this.options.maxAttempts) return { retry: false, reason: 'max_attempts' };
    const hinted = failed.error instanceof ApiError ? failed.error.retryAfterMs : undefined;
    const decision: RetryDecision =
      hinted !== undefined
        ? { retry: true, delayMs: Math.min(hinted, this.options.maxRetryAfterMs), basis: 'server' }
        : { retry: true, delayMs: this.backoffMs(failed.attempt - 1), basis: 'backoff' };
    // Sleeping into the deadline only to fail there wastes the caller's time: give up now.
    if (failed.now + decision.delayMs > failed.deadline)
      return { retry: false, reason: 'deadline' };
    return decision;
  }

  /** Full-jitter exponential backoff for the n-th retry (0-based). */
  backoffMs(retryIndex: number): number {
    return backoffMs(retryIndex, {
      baseMs: this.options.baseDelayMs,
      maxMs: this.options.maxDelayMs,
      jitter: 'full',
      random: this.#random,
    });
  }
}

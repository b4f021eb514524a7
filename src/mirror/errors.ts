/** The mirror's errors, one class per case, each with a string `code`. */
import { CodedError } from '../coded-error.ts';

/** Codes of every mirror error, one per class below. */
export const MIRROR_ERROR_CODES = {
  budgetDeferred: 'mirror_budget_deferred',
  budgetExhausted: 'mirror_budget_exhausted',
  postBusy: 'mirror_post_busy',
  postDeferred: 'mirror_post_deferred',
} as const;

/** A code of the mirror's errors. */
export type MirrorErrorCode = (typeof MIRROR_ERROR_CODES)[keyof typeof MIRROR_ERROR_CODES];

/** The base of every mirror error. */
export class MirrorError extends CodedError<MirrorErrorCode> {}

/**
 * Background work found no budget: the request was not sent, and the poller tries again at
 * `retryAt`. Never a failure: it is how the reserve stays free for people.
 */
export class BudgetDeferredError extends MirrorError {
  readonly operation: string;
  /** When the budget may have room again, in ms since the epoch. */
  readonly retryAt: number;
  /** `window`: a window is spent; `backoff`: every replica holds back after a 429. */
  readonly reason: 'window' | 'backoff';

  constructor(operation: string, retryAt: number, reason: 'window' | 'backoff') {
    super(
      MIRROR_ERROR_CODES.budgetDeferred,
      `${operation} deferred: no rate budget for background work until ${new Date(retryAt).toISOString()} (${reason})`,
    );
    this.operation = operation;
    this.retryAt = retryAt;
    this.reason = reason;
  }
}

/**
 * An interactive request waited as long as it may for budget and found none; the request was
 * not sent. Transient: the outbox retries it later.
 */
export class BudgetExhaustedError extends MirrorError {
  readonly operation: string;
  readonly retryAt: number;

  constructor(operation: string, retryAt: number, waitedMs: number) {
    super(
      MIRROR_ERROR_CODES.budgetExhausted,
      `${operation} not sent: the rate budget had no room for ${waitedMs} ms (next room at ${new Date(retryAt).toISOString()})`,
    );
    this.operation = operation;
    this.retryAt = retryAt;
  }
}

/**
 * Another poller holds the claim on a post of this ticket (its own claim on the ticket lapsed
 * while it was slow): this poll stops before that post, so nothing is skipped.
 */
export class PostBusyError extends MirrorError {
  constructor(ticketId: string, itemId: string) {
    super(MIRROR_ERROR_CODES.postBusy, `another poller is posting ${itemId} of ${ticketId}`);
  }
}

/**
 * The place posts go (Slack) asked the mirror to wait: nothing was posted, and the ticket is
 * looked at again at `retryAt`, not before, by whichever replica claims it then.
 */
export class PostDeferredError extends MirrorError {
  /** When posting may go again, in ms since the epoch. */
  readonly retryAt: number;

  constructor(retryAt: number, options?: ErrorOptions) {
    super(
      MIRROR_ERROR_CODES.postDeferred,
      `posting deferred until ${new Date(retryAt).toISOString()}: Slack asked to wait`,
      options,
    );
    this.retryAt = retryAt;
  }
}

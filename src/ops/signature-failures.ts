/**
 * Requests that fail Slack's signature check, made visible: a wrong SLACK_SIGNING_SECRET
 * turns away every request while the app looks healthy (Bolt only warns, once per request,
 * without naming the cause). Each failure is counted; the likely cause is logged at error, at
 * most once a minute, so a busy workspace does not flood the log.
 */
import type { Logger } from 'pino';
import type { SignatureFailureMetrics, SignatureFailureReason } from './metrics.ts';

/** What a person reading the log sees for a signature that does not match. */
export const WRONG_SECRET_LINE =
  "Slack requests fail the signature check: SLACK_SIGNING_SECRET is likely not this app's (Basic Information → App Credentials)";

/** What they see for a signature made too far from this server's time. */
export const STALE_SIGNATURE_LINE =
  "Slack requests fail the signature check: signed more than five minutes from this server's time; check its clock (NTP)";

/** Options of `SignatureFailures`. */
export interface SignatureFailuresOptions {
  logger: Logger;
  metrics: SignatureFailureMetrics;
  /** The least time between two log lines of one reason; one minute by default. */
  logEveryMs?: number;
  /** The clock, for tests. */
  now?: () => number;
}

/** Counts each signature failure and logs its likely cause, at most once per period. */
export class SignatureFailures {
  readonly #logger: Logger;
  readonly #metrics: SignatureFailureMetrics;
  readonly #logEveryMs: number;
  readonly #now: () => number;
  readonly #lastLogged = new Map<SignatureFailureReason, number>();
  readonly #unlogged = new Map<SignatureFailureReason, number>();

  constructor(options: SignatureFailuresOptions) {
    this.#logger = options.logger;
    this.#metrics = options.metrics;
    this.#logEveryMs = options.logEveryMs ?? 60_000;
    this.#now = options.now ?? Date.now;
  }

  /** One request turned away for its signature, and why. */
  record(reason: SignatureFailureReason): void {
    this.#metrics.countSignatureFailure(reason);
    // Unsigned requests are scanners and health checks that hit the wrong path, not Slack.
    if (reason === 'unsigned') return;
    const now = this.#now();
    const last = this.#lastLogged.get(reason);
    if (last !== undefined && now - last < this.#logEveryMs) {
      this.#unlogged.set(reason, (this.#unlogged.get(reason) ?? 0) + 1);
      return;
    }
    // The count since the last line tells whether it is every request or a stray one.
    const sinceLastLine = (this.#unlogged.get(reason) ?? 0) + 1;
    this.#lastLogged.set(reason, now);
    this.#unlogged.set(reason, 0);
    this.#logger.error(
      { reason, failures: sinceLastLine },
      reason === 'mismatch' ? WRONG_SECRET_LINE : STALE_SIGNATURE_LINE,
    );
  }
}

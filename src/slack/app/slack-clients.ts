/**
 * The app's two Slack Web API clients. Each has its own request queue, so a rate limit met by
 * background work (posting cards and mirrored messages) never holds up a person's modal, and
 * neither sleeps through a Retry-After: a 429 comes back at once, and whoever made the call
 * decides when to try again (the outbox's schedule, the mirror's, or the person, told so).
 * Both are bounded, so work done under a lease finishes inside it (see `SLACK_CALL_MAX_MS`).
 */
import { WebClient, type WebClientOptions } from '@slack/web-api';
import type { Logger } from 'pino';
import { boltLogger } from './bolt-logger.ts';
import { HeldWebClient, type SlackMethodHolds } from './slack-method-holds.ts';

/** Longest one background Slack call can take: two tries of 10 s and the wait between them. */
export const SLACK_CALL_MAX_MS = 2 * 10_000 + 2_000;

/**
 * A person waits on these (views.open within a trigger's 3 s, ephemerals): one quick try more
 * after a network error or a 5xx, no more.
 */
export const interactiveClientOptions: WebClientOptions = {
  rejectRateLimitedCalls: true,
  retryConfig: { retries: 1, factor: 1, minTimeout: 200, maxTimeout: 500 },
  timeout: 5_000,
};

/** Background work has a lease to finish in; the outbox and the mirror retry it later, keyed. */
export const backgroundClientOptions: WebClientOptions = {
  rejectRateLimitedCalls: true,
  retryConfig: { retries: 1, factor: 1, minTimeout: 1_000, maxTimeout: 2_000, randomize: true },
  timeout: 10_000,
};

/** What a background client may be built with besides its token. */
export interface BackgroundClientExtras {
  /** Keeps Slack's Retry-After per method (the app's clients share one); none in some unit tests. */
  holds?: SlackMethodHolds;
  /** For tests that time a call out without waiting 10 s. */
  timeoutMs?: number;
}

/**
 * Builds the background client (the interactive one is built from `interactiveClientOptions`);
 * with `holds`, no call of a method goes inside a 429's Retry-After.
 */
export function createBackgroundClient(
  token: string,
  logger: Logger,
  apiUrl: string | undefined,
  extras: BackgroundClientExtras = {},
): WebClient {
  const options: WebClientOptions = {
    ...backgroundClientOptions,
    ...(extras.timeoutMs !== undefined ? { timeout: extras.timeoutMs } : {}),
    logger: boltLogger(logger),
    ...(apiUrl ? { slackApiUrl: apiUrl } : {}),
  };
  return extras.holds
    ? new HeldWebClient(token, options, extras.holds)
    : new WebClient(token, options);
}

/** When a Slack rate-limit error says the call may go again, or undefined. */
export function slackRetryAt(error: unknown, now: number): number | undefined {
  const limited = error as { code?: unknown; retryAfter?: unknown } | null;
  if (limited?.code !== 'slack_webapi_rate_limited_error') return undefined;
  return typeof limited.retryAfter === 'number' ? now + limited.retryAfter * 1_000 : undefined;
}

/**
 * Which failures of an outbox write are worth another attempt later. The answer decides
 * between "keep the person's text and retry" and "tell the person it failed", so unknown
 * errors count as transient: a bug must never cost somebody what they wrote.
 */
import { isRetryableError, isServiceDeskError } from '../../servicedesk/index.ts';
import { slackRetryAt } from '../app/slack-clients.ts';
import {
  ChangeRefusedError,
  ClosedTicketError,
  LeaseRunningOutError,
  NotFiledYetError,
  PersonWithoutEmailError,
  SlackAppError,
  TicketPostDelayedError,
} from '../errors.ts';

// Slack platform errors that say "not now" rather than "never".
const TRANSIENT_SLACK_ERRORS = new Set([
  'ratelimited',
  'rate_limited',
  'internal_error',
  'fatal_error',
  'service_unavailable',
  'request_timeout',
  'team_added_to_org',
]);

/** Whether a failed write may succeed when tried again later. */
export function isTransient(error: unknown): boolean {
  if (isServiceDeskError(error)) return isRetryableError(error);
  if (
    error instanceof LeaseRunningOutError ||
    error instanceof TicketPostDelayedError ||
    error instanceof NotFiledYetError
  )
    return true;
  if (error instanceof SlackAppError) return false;
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'slack_webapi_platform_error') {
    const slackError = (error as { data?: { error?: string } }).data?.error ?? '';
    return TRANSIENT_SLACK_ERRORS.has(slackError);
  }
  // Slack rate limits, request and HTTP errors, Redis and anything unforeseen.
  return true;
}

// When a spent rate budget lets the write go again: the desk is busy, not down.
function budgetRetryAt(error: unknown): number | undefined {
  const retryAt = (error as { retryAt?: unknown } | null)?.retryAt;
  return typeof retryAt === 'number' ? retryAt : undefined;
}

/**
 * When a refusal says the write may go again, or undefined: a spent rate budget, or Slack's
 * Retry-After (the clients never sleep through one; the outbox's schedule waits instead).
 */
export function retryAtOf(error: unknown, now: number = Date.now()): number | undefined {
  const slackError = error instanceof TicketPostDelayedError ? error.cause : error;
  return budgetRetryAt(error) ?? slackRetryAt(slackError, now);
}

/** Whether an error is the Slack Web API's (a refusal, a 429, an HTTP or request error). */
export function isSlackCallError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('slack_webapi_');
}

/** Whether a Slack call failed for Slack's rate limit (a 429, or `ratelimited`). */
export function isSlackRateLimited(error: unknown): boolean {
  const failed = error as { code?: unknown; data?: { error?: unknown } } | null;
  return (
    failed?.code === 'slack_webapi_rate_limited_error' ||
    failed?.data?.error === 'ratelimited' ||
    failed?.data?.error === 'rate_limited'
  );
}

/** How long the person waits for a write the platform's rate budget held back, if it was. */
export function busyForMs(error: unknown, now: number = Date.now()): number | undefined {
  const retryAt = budgetRetryAt(error);
  return retryAt === undefined ? undefined : Math.max(0, retryAt - now);
}

/** Whether an error is one the code anticipates (its failure is told, not reported as a bug). */
export function isExpected(error: unknown): boolean {
  if (isServiceDeskError(error) || error instanceof SlackAppError) return true;
  const code = (error as { code?: unknown } | null)?.code;
  // A spent rate budget is the platform's limit working as designed, not a bug to report.
  return (
    typeof code === 'string' &&
    (code.startsWith('slack_webapi_') || code.startsWith('mirror_budget_'))
  );
}

// The platform's answers about the request itself (not the key, not the platform's health).
const PLATFORM_REFUSALS = new Set([
  'servicedesk_bad_request',
  'servicedesk_not_found',
  'servicedesk_validation',
]);

/**
 * Whether the app itself refused what the person asked (not allowed, the ticket closed, no
 * email to act as): a decision, not a failure. The entry is finished, not dead-lettered: anyone
 * can click a button they may not use, and their refusals must not push real failed writes out
 * of the dead letters kept.
 */
export function isAppRefusal(error: unknown): boolean {
  return (
    error instanceof ChangeRefusedError ||
    error instanceof ClosedTicketError ||
    error instanceof PersonWithoutEmailError
  );
}

/**
 * Whether a failure is a refusal of what the person asked (not allowed, closed, not found, a
 * field the platform rejected): the person is told why, and there is nothing for an operator to
 * fix, so it is logged at info without a stack. A refused key or Slack error stays a warning.
 */
export function isRefusal(error: unknown): boolean {
  if (isAppRefusal(error)) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return isServiceDeskError(error) && typeof code === 'string' && PLATFORM_REFUSALS.has(code);
}

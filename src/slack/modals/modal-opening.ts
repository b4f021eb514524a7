/**
 * Opening a modal for a person who clicked or typed: when Slack will not open it (rate limited,
 * the 3-second trigger gone, Slack unreachable), the person is told privately what happened,
 * with the words they typed, instead of being left looking at nothing.
 */
import type { ViewsOpenArguments, ViewsOpenResponse } from '@slack/web-api';
import { buildFailureNotice } from '../builders/notice-builder.ts';
import type { SlackDeps } from '../deps.ts';
import { type PrivateTarget, tellPrivately } from '../posting/private-notice.ts';

/** Why a modal did not open, in words a person can act on; undefined for a bug. */
export function modalFailureReason(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'slack_webapi_rate_limited_error') {
    const seconds = (error as { retryAfter?: unknown }).retryAfter;
    const wait = typeof seconds === 'number' ? `about ${Math.max(1, seconds)} seconds` : 'a moment';
    return `:hourglass_flowing_sand: Slack is busy and asked this app to wait, so the form could not open. Please try again in ${wait}.`;
  }
  const slackError = (error as { data?: { error?: unknown } } | null)?.data?.error;
  if (slackError === 'expired_trigger_id' || slackError === 'invalid_trigger_id')
    return ':hourglass_flowing_sand: Slack took too long to hand the form over, so it could not open. Please try again.';
  if (typeof code === 'string' && code.startsWith('slack_webapi_'))
    return ':warning: Slack did not open the form (it did not answer in time or refused). Please try again.';
  return undefined;
}

/**
 * Opens the view; when Slack will not, tells the person (with `typed`, what they wrote) and
 * returns undefined. Anything else is a bug and is rethrown.
 */
export async function openModalOrTell(
  deps: Pick<SlackDeps, 'client' | 'logger'>,
  args: ViewsOpenArguments,
  person: PrivateTarget,
  typed?: string,
): Promise<ViewsOpenResponse | undefined> {
  try {
    return await deps.client.views.open(args);
  } catch (error) {
    const reason = modalFailureReason(error);
    if (!reason) throw error;
    deps.logger.warn({ err: error, user: person.userId }, 'a modal could not be opened');
    await tellPrivately(deps.client, person, buildFailureNotice(reason, typed || undefined));
    return undefined;
  }
}

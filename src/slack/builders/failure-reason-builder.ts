/** Why a write failed for good, said to the person in a sentence they can act on. */
import { codeOf } from '../../coded-error.ts';
import {
  AuthenticationError,
  BadRequestError,
  isRetryableError,
  isServiceDeskError,
  NotFoundError,
  PermissionDeniedError,
  ValidationError,
} from '../../servicedesk/index.ts';
import {
  AppNotInChannelError,
  MessageNotFoundError,
  PersonWithoutEmailError,
  slackErrorOf,
  TicketNotPostedError,
  TicketPostDelayedError,
} from '../errors.ts';
import { safeMrkdwn } from './mrkdwn.ts';

// The Web API client's codes for "Slack did not answer" (as opposed to "Slack said no").
const SLACK_UNREACHABLE = new Set([
  'slack_webapi_request_error',
  'slack_webapi_http_error',
  'slack_webapi_rate_limited_error',
]);

/**
 * The reason a request failed, as safe mrkdwn, naming the real cause: the service desk, Slack,
 * or the app itself. `what` names the request ("ticket", "reply").
 */
export function describeFailure(error: unknown, what: string): string {
  // Slack that never took the post of a filed ticket, refusing it or limiting the app for a day.
  if (error instanceof TicketNotPostedError || error instanceof TicketPostDelayedError) {
    const id = safeMrkdwn(error.ticketId, 40);
    return `:white_check_mark: Your ticket is filed as *${id}*, but Slack would not take its card (${safeMrkdwn(slackErrorOf(error.cause) ?? codeOf(error.cause) ?? 'unknown error', 80)}), so no thread follows it here. \`/ticket ${id}\` shows it; please don't file it again.`;
  }
  const head = `:warning: Your ${what} could not be sent to the service desk.`;
  if (error instanceof AuthenticationError || error instanceof PermissionDeniedError) {
    return `${head} The service desk refused this app's access key (${error.status === 401 ? 'the key is missing, wrong or revoked' : 'the key may only read, not write'}). Please ask your Slack admin to check the Service Desk app's key.`;
  }
  if (error instanceof ValidationError) {
    const fields = Object.entries(error.fieldErrors())
      .map(([field, msg]) => `${safeMrkdwn(field, 60)}: ${safeMrkdwn(msg, 200)}`)
      .join('; ');
    return `${head} It was refused as incomplete or invalid${fields ? ` (${fields})` : ''}.`;
  }
  if (error instanceof NotFoundError)
    return `${head} The ticket no longer exists, or this app can no longer see it.`;
  if (error instanceof BadRequestError) {
    const detail =
      typeof (error.body as { detail?: unknown })?.detail === 'string'
        ? safeMrkdwn((error.body as { detail: string }).detail, 300)
        : "it breaks one of the service desk's rules";
    return `${head} The service desk said: ${detail}.`;
  }
  if (error instanceof PersonWithoutEmailError) {
    return `${head} Your Slack profile has no email address, so the service desk cannot tell who you are. Please ask your Slack admin to add one.`;
  }
  if (error instanceof MessageNotFoundError)
    return `${head} The message is no longer there, or this app cannot read it.`;
  if (error instanceof AppNotInChannelError) {
    return `${head} The app is not a member of <#${error.channel}>, so it cannot read messages there. Invite it with \`/invite @Service Desk\` in that channel, then try again.`;
  }
  if (isServiceDeskError(error) && isRetryableError(error))
    return `${head} The service desk did not answer for too long. Please try again later.`;
  const slackError = slackErrorOf(error);
  if (slackError)
    return `${head} Slack refused one of the app's requests (\`${safeMrkdwn(slackError, 80)}\`). Please try again, or ask your Slack admin if it keeps happening.`;
  const code = codeOf(error);
  if (code && SLACK_UNREACHABLE.has(code))
    return `${head} Slack did not answer the app for too long. Please try again later.`;
  if (isServiceDeskError(error))
    return `${head} The service desk gave an answer this app did not expect (\`${safeMrkdwn(code ?? 'error', 60)}\`). Please try again, or ask your Slack admin if it keeps happening.`;
  return `${head} Something went wrong inside the app${code ? ` (\`${safeMrkdwn(code, 60)}\`)` : ''}; it has been logged. Please try again, or ask your Slack admin if it keeps happening.`;
}

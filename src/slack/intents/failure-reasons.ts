/** Why a write failed for good, said to the person in a sentence they can act on. */
import {
  AuthenticationError,
  BadRequestError,
  NotFoundError,
  PermissionDeniedError,
  ValidationError,
} from '../../servicedesk/index.ts';
import { safeMrkdwn } from '../builders/mrkdwn.ts';
import { MessageNotFoundError, PersonWithoutEmailError } from '../errors.ts';

/** The reason a request failed, as safe mrkdwn. `what` names the request ("ticket", "reply"). */
export function describeFailure(error: unknown, what: string): string {
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
  return `${head} The service desk did not answer for too long. Please try again later.`;
}

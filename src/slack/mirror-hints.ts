/**
 * What the Slack side tells the mirror when a person writes to a ticket from Slack: the message
 * is the app's own (never echoed back into the thread), and the ticket's answer should be
 * looked for soon.
 */
import { ownMessageIdMark, ownMessageTextMark } from '../store/index.ts';
import type { SlackDeps } from './deps.ts';

/**
 * Marks a message about to be added as the app's own, by its author and text: the platform may
 * hold it before its id comes back (a slow or lost answer), and a poll in between must not
 * take it for someone else's.
 */
export async function rememberOwnText(
  deps: Pick<SlackDeps, 'stores'>,
  ticketId: string,
  authorEmail: string,
  body: string,
): Promise<void> {
  await deps.stores.mirror.rememberOwn(ticketId, [ownMessageTextMark(authorEmail, body)]);
}

/**
 * After a write from Slack: remembers the added message's id as the app's own, and has the
 * mirror look for the answer soon. The write itself already succeeded, so a failure to hint is
 * logged rather than thrown: the regular schedule still finds the answer, only later.
 */
export async function afterSlackWrite(
  deps: Pick<SlackDeps, 'stores' | 'mirror' | 'logger'>,
  ticketId: string,
  messageId?: string,
): Promise<void> {
  if (messageId) await deps.stores.mirror.rememberOwn(ticketId, [ownMessageIdMark(messageId)]);
  try {
    await deps.mirror?.slackWrote(ticketId);
  } catch (error) {
    deps.logger.warn({ err: error, ticket_id: ticketId }, 'mirror not told about a write');
  }
}

/**
 * After a change made from Slack (status, priority, assignee): has the mirror read the ticket's
 * activity soon, so the change is announced and the requester told within seconds. Best effort,
 * like `afterSlackWrite`.
 */
export async function afterSlackChange(
  deps: Pick<SlackDeps, 'mirror' | 'logger'>,
  ticketId: string,
): Promise<void> {
  try {
    await deps.mirror?.slackChanged(ticketId);
  } catch (error) {
    deps.logger.warn({ err: error, ticket_id: ticketId }, 'mirror not told about a change');
  }
}

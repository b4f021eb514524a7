/**
 * What the Slack side tells the mirror when a person writes to a ticket from Slack: the message
 * is the app's own (never echoed back into the thread), and the ticket's answer should be
 * looked for soon; and, for a thread re-linked after Redis came back empty, where to resume.
 */
import type { ServiceDeskClient } from '../../servicedesk/index.ts';
import { initialMirrorState, ownMessageIdMark, ownMessageTextMark } from '../../store/index.ts';
import type { Thread } from '../../store/types.ts';
import type { SlackDeps } from '../deps.ts';

// A person's reply waits behind the reads of a re-link, as behind the add itself.
const PERSON_WAITING = { priority: 'interactive' } as const;

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

/**
 * Links a thread found from its messages (Redis came back empty) to its ticket again and puts
 * the ticket back on the poll schedule. When the mirror has not read the ticket, it resumes
 * from what the platform holds now: its cursors, post claims and own-message marks went with
 * Redis, so reading from the start would post the whole history into the thread again, the
 * thread's own replies included. The price: what the desk wrote while the app did not know the
 * thread stays on the platform only.
 */
export async function relinkThread(
  deps: Pick<SlackDeps, 'stores' | 'serviceDesk' | 'statuses'>,
  ticketId: string,
  thread: Thread,
  now: () => number = Date.now,
): Promise<void> {
  // The record first: a poll between the link and the record would read from the start. A
  // record never polled holds only a write from Slack (a button), and no place to resume from.
  const state = await deps.stores.mirror.state(ticketId);
  if (!state || state.lastPolledAt === 0) await resumeFromNow(deps, ticketId, now);
  await deps.stores.links.link(ticketId, thread);
  // After the link: a poll of a ticket with no thread takes it off the schedule.
  await deps.stores.schedule.pollAt(ticketId, now());
}

async function resumeFromNow(
  deps: Pick<SlackDeps, 'stores' | 'serviceDesk' | 'statuses'>,
  ticketId: string,
  now: () => number,
): Promise<void> {
  const ticket = await deps.serviceDesk.getTicket(ticketId, PERSON_WAITING);
  deps.statuses.remember(ticket);
  const messages = await countMessages(deps.serviceDesk, ticketId);
  const activity = await countActivity(deps.serviceDesk, ticketId);
  const changedAt = Date.parse(ticket.updated_at ?? ticket.created_at) || 0;
  const settled = ticket.status === 'resolved' || ticket.status === 'closed';
  await deps.stores.mirror.saveState(ticketId, {
    ...initialMirrorState(),
    activityCursor: activity,
    messageCursor: messages,
    // Every message read counts as announced, so only a newer one makes the mirror read messages.
    messagesAnnounced: messages,
    lastActivityAt: changedAt,
    lastPolledAt: now(),
    status: ticket.status,
    settledAt: settled ? changedAt : undefined,
    requesterEmail: ticket.requester_email ?? undefined,
  });
}

// One item per page is enough to learn the total; a platform that leaves it out is counted.
async function countMessages(platform: ServiceDeskClient, ticketId: string): Promise<number> {
  const first = await platform.listMessages(ticketId, { page: 1, page_size: 1 }, PERSON_WAITING);
  if (typeof first.total_count === 'number') return first.total_count;
  let count = 0;
  for await (const _ of platform.iterateMessages(ticketId, PERSON_WAITING)) count++;
  return count;
}

async function countActivity(platform: ServiceDeskClient, ticketId: string): Promise<number> {
  const first = await platform.listActivity(ticketId, { offset: 0, limit: 1 }, PERSON_WAITING);
  if (typeof first.total_count === 'number') return first.total_count;
  let count = 0;
  for await (const _ of platform.iterateActivity(ticketId, PERSON_WAITING)) count++;
  return count;
}

/**
 * Replies that meet a closed or resolved ticket. Closed is final on the platform: a reply is
 * refused (400), and the person is offered to file it as a new ticket instead, privately and
 * with their words shown, so nothing is lost. Resolved is not: the platform reopens a ticket
 * when its requester writes, and the thread is told. Both use the last known status (the memo,
 * else the mirror's record) where they can, so an ordinary reply costs no request beyond the add.
 */
import { BadRequestError } from '../../servicedesk/index.ts';
import { buildReopenedByReply } from '../builders/change-notice-builder.ts';
import {
  buildClosedTicketPrompt,
  buildOthersTicketPrompt,
} from '../builders/closed-ticket-prompt-builder.ts';
import type { IntentDeps } from '../deps.ts';
import { ChangeRefusedError, ClosedTicketError } from '../errors.ts';
import { tellPrivately } from '../posting/private-notice.ts';
import type { KnownTicket } from './ticket-status-memo.ts';

/** The parts of a thread reply these rules need. */
export interface ThreadReply {
  ticketId: string;
  userId: string;
  body: string;
  channel: string;
  threadTs: string;
  ts: string;
}

/**
 * The ticket's last known status: this process's memo, else the mirror's record shared by
 * every replica (one Redis read, no platform request). Undefined when neither knows it fresh.
 */
export async function lastKnownStatus(
  deps: Pick<IntentDeps, 'logger' | 'mirror' | 'statuses'>,
  ticketId: string,
): Promise<KnownTicket | undefined> {
  const known = deps.statuses.get(ticketId);
  if (known) return known;
  try {
    const read = await deps.mirror.lastRead(ticketId);
    if (read?.status) {
      deps.statuses.adopt(ticketId, {
        status: read.status,
        requesterEmail: read.requesterEmail,
        at: read.polledAt,
      });
    }
  } catch (error) {
    // Only a hint: without it the platform's answer decides.
    deps.logger.warn({ err: error, ticket_id: ticketId }, 'the mirror state could not be read');
  }
  return deps.statuses.get(ticketId);
}

/**
 * Refuses a reply that would reopen a resolved ticket when its writer is neither the ticket's
 * requester nor an agent: the platform reopens for any non-agent's message, and the app keeps
 * the rule its Reopen button keeps. Colleagues adding details to an open ticket are welcome.
 * What is known spares a read only where it cannot be wrong in a way that matters: the
 * requester may always write, and a ticket known resolved refuses at once. A colleague's reply
 * to a ticket known open reads the ticket: the memo is this process's, and another replica may
 * have resolved it since. A record that does not know the requester never makes the writer a
 * stranger either. Returns what is known of the ticket after the check, for the reopen notice.
 */
export async function refuseReopenByOthers(
  deps: IntentDeps,
  reply: Pick<ThreadReply, 'ticketId' | 'userId'>,
  known: KnownTicket | undefined,
  writerEmail: string,
): Promise<KnownTicket | undefined> {
  const writer = writerEmail.toLowerCase();
  if (known?.requesterEmail === writer) return known;
  if (await deps.people.isAgent(reply.userId)) return known;
  if (known?.status === 'resolved' && known.requesterEmail !== undefined)
    throw new ChangeRefusedError(reply.ticketId, 'reopen_not_allowed');
  const fresh = await deps.serviceDesk.getTicket(reply.ticketId, { priority: 'interactive' });
  deps.statuses.remember(fresh);
  const requester = fresh.requester_email?.toLowerCase();
  // A ticket with no requester at all is nobody's to guard: the platform's own rule decides.
  if (fresh.status === 'resolved' && requester !== undefined && requester !== writer)
    throw new ChangeRefusedError(reply.ticketId, 'reopen_not_allowed');
  return deps.statuses.get(reply.ticketId);
}

/** Refuses at once a reply to a ticket known to be closed: the platform would only say 400. */
export function refuseIfKnownClosed(ticketId: string, known: KnownTicket | undefined): void {
  if (known?.status === 'closed') throw new ClosedTicketError(ticketId);
}

/**
 * Whether a failed add was refused because the ticket is closed. A 400 can mean other broken
 * rules too, so it is confirmed with one read, spent only on a refusal.
 */
export async function isClosedRefusal(
  deps: IntentDeps,
  ticketId: string,
  error: unknown,
): Promise<boolean> {
  if (error instanceof ClosedTicketError) return true;
  if (!(error instanceof BadRequestError)) return false;
  try {
    const ticket = await deps.serviceDesk.getTicket(ticketId, { priority: 'interactive' });
    deps.statuses.remember(ticket);
    return ticket.status === 'closed';
  } catch {
    return false;
  }
}

/**
 * Offers the person who replied to file their reply as a ticket (only they see it): a new one
 * for a closed ticket, their own for someone else's resolved one.
 */
export async function promptReplyAsTicket(
  deps: IntentDeps,
  reply: ThreadReply,
  kind: 'closed' | 'others',
): Promise<void> {
  const about = {
    ticketId: reply.ticketId,
    channel: reply.channel,
    ts: reply.ts,
    threadTs: reply.threadTs,
  };
  const prompt =
    kind === 'closed'
      ? buildClosedTicketPrompt(about, reply.body)
      : buildOthersTicketPrompt(about, reply.body);
  await tellPrivately(
    deps.client,
    { userId: reply.userId, channel: reply.channel, threadTs: reply.threadTs },
    prompt,
  );
}

/**
 * After a reply was added: when the ticket was last seen resolved and the writer is its
 * requester, the platform has reopened it, and the thread is told so. Best effort: the reply
 * itself is on the ticket already.
 */
export async function announceReopen(
  deps: IntentDeps,
  reply: ThreadReply,
  before: KnownTicket | undefined,
  writerEmail: string,
  messageId: string,
): Promise<void> {
  if (before?.status !== 'resolved' || before.requesterEmail !== writerEmail.toLowerCase()) return;
  deps.statuses.setStatus(reply.ticketId, 'open');
  try {
    // Before the post: a look in between must not announce the change a second time.
    await deps.mirror.reopenAnnounced(reply.ticketId, messageId, {
      channel: reply.channel,
      threadTs: reply.threadTs,
    });
    await deps.client.chat.postMessage({
      channel: reply.channel,
      thread_ts: reply.threadTs,
      ...buildReopenedByReply(reply.ticketId, reply.userId),
    });
  } catch (error) {
    deps.logger.warn(
      { err: error, ticket_id: reply.ticketId },
      'the thread could not be told that a reply reopened its ticket',
    );
  }
}

/**
 * Which ticket a thread already is, asked before anything is filed from one of its messages (a
 * 🎫, the message shortcut), and telling the person who asked. A thread belongs to one ticket:
 * filing from it must never take it from that ticket, whose agents' answers would stop reaching
 * Slack and whose requester's next reply would go elsewhere.
 */
import { withinOr } from '../../timeout.ts';
import {
  buildThreadTakenNotice,
  type TakenMessage,
} from '../builders/thread-taken-notice-builder.ts';
import type { IntentDeps } from '../deps.ts';
import { type PrivateTarget, tellPrivately } from '../posting/private-notice.ts';
import type { ThreadTicketFinder } from './thread-tickets.ts';

/** A thread asked about, and what is known of who wrote in it. */
export interface ThreadAsked {
  channel: string;
  threadTs: string;
  /** The app's bot user, whose posts name their ticket; unknown means the links alone decide. */
  appUserId: string | undefined;
  /** Whether the app wrote the message or the thread's parent. */
  appWrote: boolean;
}

// A title is a courtesy: the notice goes without it rather than wait on a slow platform.
const TITLE_WAIT_MS = 1_500;

/**
 * The ticket the thread belongs to: its link, else, when the links may have lost it, the one
 * the app's own posts in the thread name. Slack is read only where a ticket's thread can be: a
 * direct message with the app, a thread the app wrote in, or any thread while links may have
 * been lost with the store (as for a reply, `listeners/events/message.ts`).
 */
export async function ownerOfThread(
  deps: Pick<IntentDeps, 'stores' | 'healWindow'>,
  finder: ThreadTicketFinder,
  asked: ThreadAsked,
): Promise<string | undefined> {
  const linked = await deps.stores.links.ticketForThread(asked.channel, asked.threadTs);
  if (linked) return linked;
  if (!asked.appUserId) return undefined;
  const mayBeTicketThread =
    asked.channel.startsWith('D') || asked.appWrote || (await deps.healWindow.isOpen());
  if (!mayBeTicketThread) return undefined;
  return finder.ticketOf({ channel: asked.channel, threadTs: asked.threadTs }, asked.appUserId);
}

/**
 * The ticket's title from the platform, or undefined when it does not answer soon. Asked for a
 * person (`paidBy`), it is read through their fair share and the shared cache of tickets: when
 * their share is spent, the title read earlier if any, else none.
 */
export async function ticketTitle(
  deps: Pick<IntentDeps, 'serviceDesk' | 'statuses'> & Partial<Pick<IntentDeps, 'reads'>>,
  ticketId: string,
  paidBy?: { userId: string },
): Promise<string | undefined> {
  const fromPlatform = () =>
    deps.serviceDesk.getTicket(ticketId, { priority: 'interactive' }).then((ticket) => {
      deps.statuses.remember(ticket);
      return ticket.title;
    });
  const forPerson = (reads: NonNullable<typeof deps.reads>, userId: string) =>
    reads.ticket(userId, ticketId, 'lookup').then((read) => {
      if (read.kind === 'read') deps.statuses.remember(read.value);
      return read.kind === 'read' ? read.value.title : read.kept?.value.title;
    });
  const read = deps.reads && paidBy ? forPerson(deps.reads, paidBy.userId) : fromPlatform();
  return withinOr(TITLE_WAIT_MS, read, undefined);
}

/**
 * Tells the person privately where they acted (a DM when the conversation will not take it)
 * which ticket the thread already is, with the button to file the message as their own.
 * Slack's failure to say it anywhere is thrown: the caller tries again or reports it.
 */
export async function tellThreadTaken(
  deps: Pick<IntentDeps, 'client'>,
  where: Omit<PrivateTarget, 'userId'>,
  taken: TakenMessage,
  title: string | undefined,
): Promise<void> {
  await tellPrivately(
    deps.client,
    { ...where, userId: taken.userId },
    buildThreadTakenNotice(taken, title),
  );
}

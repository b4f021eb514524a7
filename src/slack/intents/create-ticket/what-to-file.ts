/**
 * The create-ticket intent's first step: what is filed and for whom. A form or a DM queues the
 * ticket's fields; a reaction queues only its message, read here, when a thread that is already
 * a ticket's files nothing and the person is told whose thread it is instead.
 */
import type { ReservedEntry } from '../../../store/types.ts';
import type { IntentDeps } from '../../deps.ts';
import {
  AppNotInChannelError,
  InvalidIntentError,
  MessageNotFoundError,
  PersonWithoutEmailError,
} from '../../errors.ts';
import { isConversationUnavailable, permalinkOf } from '../../posting/slack-posting.ts';
import { readMessageAt } from '../../posting/thread-reader.ts';
import { ownerOfThread, tellThreadTaken, ticketTitle } from '../../threads/thread-owner.ts';
import type { ThreadTicketFinder } from '../../threads/thread-tickets.ts';
import { slackToPlain, titleFromText } from '../../tickets/message-text.ts';
import type { CreateTicketPayload, MessageRef, ThreadTakenResult } from '../payloads.ts';

/** The ticket's fields as sent to the platform (less its requester). */
export type TicketFields = NonNullable<CreateTicketPayload['ticket']>;

/** What the run files: the fields, its requesters in order, and a reacted message's thread. */
export interface Filing {
  fields: TicketFields;
  requesterIds: string[];
  /** The thread of the message the ticket is made from, once read (a reaction's). */
  messageThreadTs: string | undefined;
}

/**
 * What this entry files, or, for a reaction on a thread that is a ticket's, that ticket after
 * the person was told (nothing is filed then).
 */
export async function whatToFile(
  deps: IntentDeps,
  threads: ThreadTicketFinder,
  payload: CreateTicketPayload,
  entry: ReservedEntry,
): Promise<Filing | { taken: ThreadTakenResult }> {
  if (payload.ticket)
    return {
      fields: payload.ticket,
      requesterIds: payload.requesterUserIds,
      messageThreadTs: undefined,
    };
  if (!payload.fromMessage)
    throw new InvalidIntentError(entry.kind, 'neither ticket nor fromMessage');
  const { authorId, parentAuthorId, threadTs, ...fromMessage } = await ticketFromMessage(
    deps,
    payload.fromMessage,
  );
  // Only now is a reply's thread known: a thread that is a ticket's files nothing.
  const owner = await threadTakenBy(deps, threads, payload, entry, {
    threadTs,
    authorId,
    parentAuthorId,
  });
  if (owner) return { taken: await tellTaken(deps, payload, payload.fromMessage, owner, threadTs) };
  // A reacted message goes to its channel's desk (CHANNEL_DESKS), as the channel's forms do.
  const desk = deps.settings.channelDesks.get(payload.fromMessage.channel);
  const requesterIds = authorId
    ? [authorId, ...payload.requesterUserIds.filter((id) => id !== authorId)]
    : payload.requesterUserIds;
  return {
    fields: { ...fromMessage, ...(desk ? { desk_id: desk } : {}) },
    requesterIds,
    messageThreadTs: threadTs,
  };
}

/** The email of the first of the people, in order, who has one and is not a bot. */
export async function requesterEmail(deps: IntentDeps, ids: readonly string[]): Promise<string> {
  for (const id of ids) {
    const person = await deps.people.person(id);
    if (person.email && !person.isBot) return person.email;
  }
  throw new PersonWithoutEmailError(ids[0] as string);
}

async function ticketFromMessage(deps: IntentDeps, ref: MessageRef) {
  // Slack answers with the thread's parent first, whatever ts names: for a reply, the window
  // [ts, ts] plus the parent takes two messages.
  const { message, parent } = await readMessageAt(deps.client, ref).catch((error: unknown) => {
    // A reaction in a channel the app was never invited to: the person must learn to invite it.
    if (isConversationUnavailable(error))
      throw new AppNotInChannelError(ref.channel, { cause: error });
    throw error;
  });
  if (!message) throw new MessageNotFoundError(ref.channel, ref.ts);
  const text = slackToPlain(message.text ?? '');
  const permalink = await permalinkOf(deps.client, ref.channel, ref.ts);
  return {
    title: titleFromText(text) || 'Request from Slack',
    description: permalink ? `${text}\n\n— From Slack: ${permalink}` : text,
    authorId: message.user,
    parentAuthorId: parent?.user,
    threadTs: message.thread_ts ?? message.ts ?? ref.ts,
  };
}

/**
 * The ticket a reacted message's thread already is, when this entry is to tell the person so
 * instead of filing. An entry that got as far as posting its card before (a retry) filed the
 * ticket the thread now belongs to, and finishes as it began.
 */
async function threadTakenBy(
  deps: IntentDeps,
  threads: ThreadTicketFinder,
  payload: CreateTicketPayload,
  entry: ReservedEntry,
  read: { threadTs: string; authorId: string | undefined; parentAuthorId: string | undefined },
): Promise<string | undefined> {
  if (payload.moveThread) return undefined;
  if (await deps.stores.claims.get(`card-post:${entry.deliveryKey}`)) return undefined;
  const app = payload.appUserId;
  return ownerOfThread(deps, threads, {
    channel: payload.reply.channel,
    threadTs: read.threadTs,
    appUserId: app,
    appWrote: app !== undefined && (read.authorId === app || read.parentAuthorId === app),
  });
}

async function tellTaken(
  deps: IntentDeps,
  payload: CreateTicketPayload,
  ref: MessageRef,
  threadTicketId: string,
  threadTs: string,
): Promise<ThreadTakenResult> {
  const title = await ticketTitle(deps, threadTicketId);
  const taken = {
    ticketId: threadTicketId,
    channel: ref.channel,
    ts: ref.ts,
    threadTs,
    userId: payload.actorUserId,
  };
  // In the thread when they reacted on a reply; where they saw the message otherwise.
  await tellThreadTaken(
    deps,
    { channel: ref.channel, ...(ref.ts !== threadTs ? { threadTs } : {}) },
    taken,
    title,
  );
  deps.logger.info(
    { ticket_id: threadTicketId, channel: ref.channel, thread_ts: threadTs },
    'ticket asked on a ticket’s thread: nothing filed, the person told',
  );
  return { threadTicketId, channel: ref.channel, threadTs, ...(title ? { title } : {}) };
}

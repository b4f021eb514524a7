/**
 * Reacting with the ticket emoji files the message as a ticket, without a modal; its author is
 * the requester. Keyed by the message, so two people reacting make one ticket. On a message of
 * a thread that already is a ticket's (its card, a reply, the app's posts in it) nothing is
 * filed: the intent, once it has read which thread the message is in, tells the person which
 * ticket the thread is, and the thread stays with it.
 */
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import { safeMrkdwn } from '../../builders/mrkdwn.ts';
import type { SlackDeps } from '../../deps.ts';
import {
  type CreateTicketPayload,
  createTicket,
  type ThreadTakenResult,
} from '../../intents/create-ticket.ts';
import { awaitsDetails, tellAwaitingDetails } from '../../intents/desk-details.ts';
import { messageKey } from '../../outbox/delivery-keys.ts';
import { enqueueIntent } from '../../outbox/intent-definition.ts';
import { tellThreadTaken } from '../../threads/thread-owner.ts';

/** Builds the reaction_added handler. */
export function reactionAdded(
  deps: Pick<
    SlackDeps,
    'client' | 'deskFields' | 'desks' | 'logger' | 'settings' | 'stores' | 'tasks'
  >,
) {
  return async ({
    event,
    context,
  }: SlackEventMiddlewareArgs<'reaction_added'> & AllMiddlewareArgs): Promise<void> => {
    // Skin tones arrive as "name::skin-tone-2"; the emoji is the same.
    if (
      event.reaction.split('::')[0] !== deps.settings.ticketEmoji ||
      event.item.type !== 'message'
    )
      return;
    const { channel, ts } = event.item;
    const payload: CreateTicketPayload = {
      actorUserId: event.user,
      requesterUserIds:
        event.item_user && event.item_user !== event.user
          ? [event.item_user, event.user]
          : [event.user],
      fromMessage: { channel, ts },
      reply: { kind: 'thread', channel },
      ...(context.botUserId ? { appUserId: context.botUserId } : {}),
    };
    const outcome = await enqueueIntent(deps, messageKey(channel, ts), createTicket, payload);
    if (outcome.enqueued) return;
    const done = outcome.result as
      | ({ ticketId?: string } & Partial<ThreadTakenResult>)
      | null
      | undefined;
    if (outcome.state === 'done' && done?.threadTicketId && done.threadTs) {
      const { threadTicketId, threadTs } = done;
      // The thread's ticket as it is now: the requester may have moved it to a follow-up since.
      deps.tasks.run(
        'tell-thread-taken',
        async () => {
          const now = await deps.stores.links.ticketForThread(channel, threadTs);
          const ticketId = now ?? threadTicketId;
          await tellThreadTaken(
            deps,
            { channel, ...(ts !== threadTs ? { threadTs } : {}) },
            { ticketId, channel, ts, threadTs, userId: event.user },
            ticketId === threadTicketId ? done.title : undefined,
          );
        },
        { channel, user: event.user },
      );
      return;
    }
    if (outcome.state === 'done' && awaitsDetails(outcome.result)) {
      // The message waits for its desk's fields: its filer gets the prompt again.
      const key = messageKey(channel, ts);
      deps.tasks.run(
        'tell-awaiting-details',
        () => tellAwaitingDetails(deps, key, { userId: event.user, channel }),
        { channel, user: event.user },
      );
      return;
    }
    const ticketId = done?.ticketId;
    // A second person reacting learns the ticket exists, or is being filed, instead of
    // wondering whether their reaction did anything.
    const text =
      outcome.state === 'done' && ticketId
        ? `:ticket: This message is already ticket *${safeMrkdwn(ticketId, 40)}*.`
        : outcome.state === 'pending'
          ? ':ticket: This message is already being filed as a ticket; the confirmation will appear in its thread.'
          : undefined;
    if (!text) return;
    deps.tasks.run(
      'tell-already-filed',
      () => deps.client.chat.postEphemeral({ channel, user: event.user, text }),
      { channel, user: event.user },
    );
  };
}

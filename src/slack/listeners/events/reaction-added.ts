/**
 * Reacting with the ticket emoji files the message as a ticket, without a modal; its author is
 * the requester. Keyed by the message, so two people reacting make one ticket.
 */
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import { safeMrkdwn } from '../../builders/mrkdwn.ts';
import type { SlackDeps } from '../../deps.ts';
import { type CreateTicketPayload, createTicket } from '../../intents/create-ticket.ts';
import { messageKey } from '../../outbox/delivery-keys.ts';
import { enqueueIntent } from '../../outbox/intent-definition.ts';

/** Builds the reaction_added handler. */
export function reactionAdded(deps: SlackDeps) {
  return async ({
    event,
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
    };
    const outcome = await enqueueIntent(deps, messageKey(channel, ts), createTicket, payload);
    if (outcome.enqueued) return;
    const ticketId = (outcome.result as { ticketId?: string } | undefined)?.ticketId;
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

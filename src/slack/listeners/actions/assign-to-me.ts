/**
 * "Assign to me" (agents only), on a card or in an agent's queue: queues the assignment through
 * the outbox. From a queue (Home, `/ticket queue`) the assignment runs at once and the queue
 * shows the ticket among the agent's own (`posting/queue-assign.ts`).
 */
import { cardRefFromAction } from '../../builders/card-ref.ts';
import type { SlackDeps } from '../../deps.ts';
import { ACTIONS } from '../../ids.ts';
import { type UpdateTicketPayload, updateTicket } from '../../intents/update-ticket.ts';
import { enqueueIntent } from '../../outbox/intent-definition.ts';
import { homeQueueAsk } from '../../posting/home-publisher.ts';
import { assignFromQueue, type QueueClick } from '../../posting/queue-assign.ts';
import {
  type ButtonArgs,
  type ButtonDeps,
  clickedTicketId,
  clickKey,
  clickOf,
  refuseClicker,
} from './button-click.ts';

/** Whether the person has a queue: an agent of every desk, or of the desks of their channels. */
async function hasQueue(deps: Parameters<typeof assignToMe>[0], userId: string): Promise<boolean> {
  const email = (await deps.people.person(userId)).email;
  return email !== undefined && (await homeQueueAsk(deps, userId, email)) !== undefined;
}

/** Where a queue's click was: the Home, or `/ticket queue`'s private answer. */
function queuePlace(body: ButtonArgs['body']): QueueClick['place'] | undefined {
  if (body.view?.type === 'home') return { kind: 'home' };
  const container = body.container as { is_ephemeral?: boolean } | undefined;
  if (container?.is_ephemeral && body.response_url) {
    return { kind: 'message', responseUrl: body.response_url };
  }
  return undefined;
}

/** Builds the handler of "Assign to me". */
export function assignToMe(
  deps: ButtonDeps & Pick<SlackDeps, 'tasks' | 'triageMembers' | 'worker'>,
) {
  return async ({ ack, body }: ButtonArgs): Promise<void> => {
    await ack();
    const ticketId = clickedTicketId(body);
    if (!ticketId) return;
    // Checked here and again when the intent runs: a crafted click never reaches the platform.
    // In a queue (Home, `/ticket queue`) the click does not say the ticket's desk: anyone with a
    // queue may ask, and the intent decides with the ticket read.
    const fromQueue = clickOf(body).actionId !== ACTIONS.assignToMe;
    const agent =
      (await deps.people.isAgent(body.user.id, { ticketId, channel: body.channel?.id })) ||
      (fromQueue && (await hasQueue(deps, body.user.id)));
    if (!agent) {
      await refuseClicker(deps, body, ticketId, 'agents_only');
      return;
    }
    // From a queue: run at once, and the queue shows the ticket among the agent's own.
    const place = fromQueue ? queuePlace(body) : undefined;
    if (place) {
      const click = { key: clickKey(body), userId: body.user.id, ticketId, place };
      deps.tasks.run('assign-from-queue', () => assignFromQueue(deps, click), {
        user: body.user.id,
        ticket_id: ticketId,
      });
      return;
    }
    const card = cardRefFromAction(body, clickOf(body).blockId);
    const payload: UpdateTicketPayload = {
      ticketId,
      actorUserId: body.user.id,
      request: { kind: 'assign_to_me' },
      ...(card ? { card } : {}),
    };
    await enqueueIntent(deps, clickKey(body), updateTicket, payload);
  };
}

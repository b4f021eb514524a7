/**
 * "Assign to me" (agents only), on a card or in an agent's queue: queues the assignment through
 * the outbox. From the Home queue the assignment runs at once and the Home shows the ticket
 * among the agent's own (`posting/home-assign.ts`).
 */
import { cardRefFromAction } from '../../builders/card-ref.ts';
import type { SlackDeps } from '../../deps.ts';
import { ACTIONS } from '../../ids.ts';
import { type UpdateTicketPayload, updateTicket } from '../../intents/update-ticket.ts';
import { enqueueIntent } from '../../outbox/intent-definition.ts';
import { assignFromHome } from '../../posting/home-assign.ts';
import { homeQueueAsk } from '../../posting/home-publisher.ts';
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
    if (body.view?.type === 'home') {
      const payload: UpdateTicketPayload = {
        ticketId,
        actorUserId: body.user.id,
        request: { kind: 'assign_to_me' },
      };
      const click = { key: clickKey(body), userId: body.user.id, ticketId };
      deps.tasks.run('assign-from-home', () => assignFromHome(deps, click, payload), {
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

/**
 * "Assign to me" (agents only), on a card or in an agent's queue: queues the assignment through
 * the outbox. From the Home queue the assignment runs at once and the Home shows the ticket
 * among the agent's own (`posting/home-assign.ts`).
 */
import { cardRefFromAction } from '../../builders/card-ref.ts';
import type { SlackDeps } from '../../deps.ts';
import { type UpdateTicketPayload, updateTicket } from '../../intents/update-ticket.ts';
import { enqueueIntent } from '../../outbox/intent-definition.ts';
import { assignFromHome } from '../../posting/home-assign.ts';
import {
  type ButtonArgs,
  type ButtonDeps,
  clickedTicketId,
  clickKey,
  clickOf,
  refuseClicker,
} from './button-click.ts';

/** Builds the handler of "Assign to me". */
export function assignToMe(
  deps: ButtonDeps & Pick<SlackDeps, 'tasks' | 'triageMembers' | 'worker'>,
) {
  return async ({ ack, body }: ButtonArgs): Promise<void> => {
    await ack();
    const ticketId = clickedTicketId(body);
    if (!ticketId) return;
    // Checked here and again when the intent runs: a crafted click never reaches the platform.
    if (!(await deps.people.isAgent(body.user.id, { ticketId, channel: body.channel?.id }))) {
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

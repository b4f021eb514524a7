/** The card's "Assign to me" button (agents only): queues the assignment through the outbox. */
import { cardRefFromAction } from '../../builders/card-ref.ts';
import { type UpdateTicketPayload, updateTicket } from '../../intents/update-ticket.ts';
import { enqueueIntent } from '../../outbox/intent-definition.ts';
import {
  type ButtonArgs,
  type ButtonDeps,
  clickedTicketId,
  clickKey,
  clickOf,
  refuseClicker,
} from './button-click.ts';

/** Builds the handler of "Assign to me". */
export function assignToMe(deps: ButtonDeps) {
  return async ({ ack, body }: ButtonArgs): Promise<void> => {
    await ack();
    const ticketId = clickedTicketId(body);
    if (!ticketId) return;
    // Checked here and again when the intent runs: a crafted click never reaches the platform.
    if (!(await deps.people.isAgent(body.user.id, { ticketId, channel: body.channel?.id }))) {
      await refuseClicker(deps, body, ticketId, 'agents_only');
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

/**
 * "Mark resolved" and "Reopen": the requester's buttons (agents may use them too), on the card
 * and, for Reopen, in the requester's "resolved" direct message. Anyone else is refused at
 * once when the requester is already known, and in any case by the intent, which applies the
 * rule to the ticket as it is before any write.
 */
import { cardRefFromAction } from '../../builders/card-ref.ts';
import { type UpdateTicketPayload, updateTicket } from '../../intents/update-ticket.ts';
import { enqueueIntent } from '../../outbox/intent-definition.ts';
import {
  type ButtonArgs,
  type ButtonDeps,
  clickedTicketId,
  clickKey,
  clickOf,
  refusedEarly,
} from './button-click.ts';

/** Builds the handler of "Mark resolved" (`resolve`) or "Reopen" (`reopen`). */
export function requesterStatusChange(deps: ButtonDeps, kind: 'resolve' | 'reopen') {
  return async ({ ack, body }: ButtonArgs): Promise<void> => {
    await ack();
    const ticketId = clickedTicketId(body);
    if (!ticketId) return;
    if (await refusedEarly(deps, body, ticketId)) return;
    const card = cardRefFromAction(body, clickOf(body).blockId);
    const payload: UpdateTicketPayload = {
      ticketId,
      actorUserId: body.user.id,
      request: { kind },
      ...(card ? { card } : {}),
    };
    await enqueueIntent(deps, clickKey(body), updateTicket, payload);
  };
}

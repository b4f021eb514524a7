/**
 * The update-ticket intent's first steps: the ticket as it is now, who asks (with their rights
 * on it), and what the request means for it, decided by the rules of ticket access.
 */
import { NotFoundError, type Ticket } from '../../../servicedesk/index.ts';
import type { IntentDeps } from '../../deps.ts';
import { ChangeRefusedError } from '../../errors.ts';
import {
  type Actor,
  actorOf,
  type ChangeDecision,
  type ChangeRequest,
  decideChange,
} from '../../people/ticket-access.ts';
import { pinnedRaiseFrom } from '../../tickets/priority-raise.ts';
import type { UpdateTicketPayload } from '../payloads.ts';

/** The ticket, who asks, what they asked for resolved against it, and the rules' decision. */
export interface DecidedChange {
  ticket: Ticket;
  actor: Actor;
  request: ChangeRequest;
  decision: Exclude<ChangeDecision, { outcome: 'refused' }>;
}

/**
 * Reads the ticket and decides the change with it as it is now; a refusal is thrown as a
 * `ChangeRefusedError`, a ticket gone or never there refused like one not the person's.
 */
export async function decideUpdate(
  deps: IntentDeps,
  payload: UpdateTicketPayload,
  deliveryKey: string,
): Promise<DecidedChange> {
  const ticket = await currentTicket(deps, payload.ticketId);
  // A member of a private triage channel of the ticket's desk is its agent too.
  const actor = await actorOf(deps, payload.actorUserId, {
    ticketId: ticket.id,
    deskId: ticket.desk_id ?? null,
    channel: payload.card?.kind === 'triage' ? payload.card.channel : undefined,
  });
  const request = await changeRequest(deps, payload, ticket, deliveryKey);
  const decision = decideChange(ticket, actor, request);
  if (decision.outcome === 'refused') throw new ChangeRefusedError(ticket.id, decision.reason);
  return { ticket, actor, request, decision };
}

async function currentTicket(deps: IntentDeps, ticketId: string): Promise<Ticket> {
  try {
    const ticket = await deps.serviceDesk.getTicket(ticketId, { priority: 'interactive' });
    deps.statuses.remember(ticket);
    return ticket;
  } catch (error) {
    // Gone, or never was: said exactly like a ticket that is not the person's.
    if (error instanceof NotFoundError) throw new ChangeRefusedError(ticketId, 'not_visible');
    throw error;
  }
}

// The request as the rules take it: a raise pinned to the priority it first saw, an assignee
// as their email.
async function changeRequest(
  deps: IntentDeps,
  payload: UpdateTicketPayload,
  ticket: Ticket,
  deliveryKey: string,
): Promise<ChangeRequest> {
  const request = payload.request;
  if (request.kind === 'raise_priority') {
    const from = await pinnedRaiseFrom(deps.stores.claims, deliveryKey, ticket.priority);
    return { kind: 'raise_priority', from };
  }
  if (request.kind !== 'fields') return request;
  return {
    kind: 'fields',
    status: request.status,
    priority: request.priority,
    assigneeEmail: request.assigneeUserId
      ? await deps.people.email(request.assigneeUserId)
      : undefined,
  };
}

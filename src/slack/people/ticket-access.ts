/**
 * Who may see and change a ticket. Agents see and change every ticket; anyone else sees only
 * tickets they are the requester of, and may only mark them resolved, reopen them, or ask for
 * a person. A ticket someone may not see is answered exactly like one that does not exist.
 * Every action and view handler decides with these rules on the server: a hidden button is a
 * courtesy, never the check.
 */
import {
  NotFoundError,
  normaliseTicketId,
  type Ticket,
  type TicketPriority,
  type TicketStatus,
  type UpdateTicketInput,
} from '../../servicedesk/index.ts';
import type { CardAudience } from '../builders/card-actions-builder.ts';
import type { AgentScope, IntentDeps, SlackDeps } from '../deps.ts';
import type { RefusalReason } from '../errors.ts';
import { isAtLeast, priorityAbove } from '../tickets/priority-raise.ts';
import type { PeopleRequest, PersonRead } from './fair-share.ts';

/**
 * The ticket for a person, through their fair share and the short shared cache: undefined when
 * it does not exist or they may not see it, and when the platform cannot be asked now, why,
 * when to try again and the earlier read if they may see it. The check runs for this person on
 * every answer, cached or not: the cache is everyone's.
 */
export async function readVisibleTicket(
  deps: Pick<SlackDeps, 'people' | 'reads' | 'statuses'>,
  userId: string,
  rawId: string,
  request: PeopleRequest,
): Promise<PersonRead<Ticket | undefined>> {
  const id = normaliseTicketId(rawId);
  // Not an ID at all: nothing to read, and nothing to spend on it.
  if (!id) return { kind: 'read', value: undefined, source: 'cache' };
  let read: PersonRead<Ticket>;
  try {
    read = await deps.reads.ticket(userId, id, request);
  } catch (error) {
    if (error instanceof NotFoundError)
      return { kind: 'read', value: undefined, source: 'platform' };
    throw error;
  }
  if (read.kind === 'busy') {
    const kept = read.kept && (await maySee(deps, userId, read.kept.value)) ? read.kept : undefined;
    return { ...read, kept };
  }
  if (read.source === 'platform') deps.statuses.remember(read.value);
  const visible = (await maySee(deps, userId, read.value)) ? read.value : undefined;
  return { ...read, value: visible };
}

/** Whether the person may see a ticket the app only knows the status and requester of. */
export async function maySeeKnown(
  deps: Pick<IntentDeps, 'people'>,
  userId: string,
  known: { requesterEmail: string | undefined },
): Promise<boolean> {
  const person = await deps.people.person(userId);
  if (isRequester(person, { requester_email: known.requesterEmail ?? null })) return true;
  return deps.people.isAgent(userId);
}

/** Whether the person may see the ticket. */
export async function maySee(
  deps: Pick<IntentDeps, 'people'>,
  userId: string,
  ticket: Ticket,
): Promise<boolean> {
  return maySeeKnown(deps, userId, { requesterEmail: ticket.requester_email ?? undefined });
}

/** A Slack person as the rules see them. */
export interface Actor {
  userId: string;
  /** Lower-case email, when their Slack profile has one. */
  email: string | undefined;
  isAgent: boolean;
}

/** Looks the person up: email and agent standing (on the ticket `on`, when given). */
export async function actorOf(
  deps: Pick<IntentDeps, 'people'>,
  userId: string,
  on?: AgentScope,
): Promise<Actor> {
  const person = await deps.people.person(userId);
  return { userId, email: person.email, isAgent: await deps.people.isAgent(userId, on) };
}

/** Whether the person is the ticket's requester (matched by email, as the platform does). */
export function isRequester(actor: Pick<Actor, 'email'>, ticket: Pick<Ticket, 'requester_email'>) {
  const requester = ticket.requester_email?.toLowerCase();
  return Boolean(actor.email && requester && actor.email === requester);
}

/** The buttons one person should see on a ticket's card. */
export async function audienceOf(
  deps: Pick<IntentDeps, 'people'>,
  userId: string,
  ticket: Ticket,
): Promise<CardAudience> {
  const actor = await actorOf(deps, userId);
  return { isAgent: actor.isAgent, isRequester: isRequester(actor, ticket) };
}

/** A change someone asks for from Slack. */
export type ChangeRequest =
  /** The update modal: only the fields the agent changed. */
  | {
      kind: 'fields';
      status?: TicketStatus | undefined;
      priority?: TicketPriority | undefined;
      assigneeEmail?: string | undefined;
    }
  | { kind: 'assign_to_me' }
  | { kind: 'resolve' }
  | { kind: 'reopen' }
  /** One step up from `from`, the priority the ticket had when the raise was first tried. */
  | { kind: 'raise_priority'; from: string | null };

/** What to do about a change request on a ticket as it is now. */
export type ChangeDecision =
  | { outcome: 'change'; input: UpdateTicketInput }
  /** The ticket is already as asked (a repeat click, or a retry whose first write landed). */
  | { outcome: 'unchanged' }
  | { outcome: 'refused'; reason: RefusalReason };

/** Statuses from which a requester may mark their ticket resolved. */
const RESOLVABLE: ReadonlySet<string> = new Set([
  'new',
  'open',
  'in_progress',
  'waiting_on_requester',
]);

/**
 * Decides a change request against the ticket's current state. Pure: the caller fetched the
 * ticket and the actor; nothing is written unless the outcome is `change`.
 */
export function decideChange(ticket: Ticket, actor: Actor, request: ChangeRequest): ChangeDecision {
  const requester = isRequester(actor, ticket);
  if (!actor.isAgent && !requester) return { outcome: 'refused', reason: 'not_visible' };
  // Closed is final on the platform: any change would be a 400.
  if (ticket.status === 'closed') return { outcome: 'refused', reason: 'closed' };
  switch (request.kind) {
    case 'resolve':
      if (!actor.isAgent && !RESOLVABLE.has(ticket.status)) return { outcome: 'unchanged' };
      return ticket.status === 'resolved'
        ? { outcome: 'unchanged' }
        : { outcome: 'change', input: { status: 'resolved' } };
    case 'reopen':
      return ticket.status === 'resolved'
        ? { outcome: 'change', input: { status: 'open' } }
        : { outcome: 'unchanged' };
    case 'assign_to_me': {
      if (!actor.isAgent) return { outcome: 'refused', reason: 'agents_only' };
      if (!actor.email) return { outcome: 'refused', reason: 'no_email' };
      return sameEmail(ticket.assignee_email, actor.email)
        ? { outcome: 'unchanged' }
        : { outcome: 'change', input: { assignee_email: actor.email } };
    }
    case 'fields': {
      if (!actor.isAgent) return { outcome: 'refused', reason: 'agents_only' };
      const input: UpdateTicketInput = {};
      if (request.status && request.status !== ticket.status) input.status = request.status;
      if (request.priority && request.priority !== ticket.priority)
        input.priority = request.priority;
      if (request.assigneeEmail && !sameEmail(ticket.assignee_email, request.assigneeEmail))
        input.assignee_email = request.assigneeEmail;
      return Object.keys(input).length > 0
        ? { outcome: 'change', input }
        : { outcome: 'unchanged' };
    }
    case 'raise_priority': {
      if (!actor.isAgent) return { outcome: 'refused', reason: 'agents_only' };
      const to = priorityAbove(request.from);
      // Already there or above (a retry whose write landed, or a colleague raised it further):
      // a raise never lowers a priority.
      return to && !isAtLeast(ticket.priority, to)
        ? { outcome: 'change', input: { priority: to } }
        : { outcome: 'unchanged' };
    }
  }
}

/** Whether the person may ask for a human on the ticket: its requester or an agent. */
export function mayAskForPerson(ticket: Ticket, actor: Actor): RefusalReason | undefined {
  if (!actor.isAgent && !isRequester(actor, ticket)) return 'not_visible';
  if (ticket.status === 'closed') return 'closed';
  return undefined;
}

function sameEmail(a: string | null | undefined, b: string): boolean {
  return (a ?? '').toLowerCase() === b.toLowerCase();
}

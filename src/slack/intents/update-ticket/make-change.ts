/**
 * The update-ticket intent's write: the decided change made on the platform as the person who
 * asked, known to the mirror beforehand as made from Slack.
 */
import type { SlackChange } from '../../../mirror/mirror.ts';
import type { Ticket, UpdateTicketInput } from '../../../servicedesk/index.ts';
import type { IntentDeps } from '../../deps.ts';
import type { UpdateTicketPayload } from '../payloads.ts';
import type { DecidedChange } from './decide-change.ts';

/** Makes the change when the rules decided one; the ticket as it is afterwards. */
export async function makeChange(
  deps: IntentDeps,
  payload: UpdateTicketPayload,
  { ticket, actor, decision }: DecidedChange,
): Promise<Ticket> {
  if (decision.outcome !== 'change') return ticket;
  // Recorded on the platform as the person, and known to the mirror as made from Slack.
  const input = actor.email ? { ...decision.input, actor_email: actor.email } : decision.input;
  if (actor.email) await rememberSlackChanges(deps, ticket, decision.input, actor.email);
  const updated = await deps.serviceDesk.updateTicket(ticket.id, input, {
    priority: 'interactive',
  });
  deps.statuses.remember(updated);
  // The change's line in every thread, the other cards and the requester's DM come from the
  // mirror's claimed posts: it looks at once.
  await deps.mirror.slackChanged(ticket.id);
  deps.logger.info(
    { ticket_id: ticket.id, fields: Object.keys(decision.input), request: payload.request.kind },
    'ticket changed from Slack',
  );
  return updated;
}

/**
 * Marks each change about to be made as made from Slack, before it is made: a look right after
 * the write must already know it, to say so in the thread.
 */
async function rememberSlackChanges(
  deps: Pick<IntentDeps, 'mirror'>,
  ticket: Ticket,
  input: UpdateTicketInput,
  actorEmail: string,
): Promise<void> {
  const changes: SlackChange[] = [];
  if (input.status !== undefined)
    changes.push({ type: 'status_changed', from: ticket.status, to: input.status, actorEmail });
  if (input.priority !== undefined)
    changes.push({
      type: 'priority_changed',
      from: ticket.priority,
      to: input.priority,
      actorEmail,
    });
  if (input.assignee_email !== undefined)
    changes.push({
      type: 'assigned',
      from: ticket.assignee_email,
      to: input.assignee_email,
      actorEmail,
    });
  await deps.mirror.rememberSlackChanges(ticket.id, changes);
}

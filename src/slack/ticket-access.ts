/**
 * Who may see a ticket: agents see every ticket; anyone else only tickets they are the
 * requester of. A ticket someone may not see is answered exactly like one that does not exist.
 */
import { NotFoundError, normaliseTicketId, type Ticket } from '../servicedesk/index.ts';
import type { SlackDeps } from './deps.ts';

/** The ticket if it exists and the person may see it, else undefined. */
export async function findVisibleTicket(
  deps: SlackDeps,
  userId: string,
  rawId: string,
): Promise<Ticket | undefined> {
  const id = normaliseTicketId(rawId);
  if (!id) return undefined;
  let ticket: Ticket;
  try {
    ticket = await deps.serviceDesk.getTicket(id, { priority: 'interactive' });
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
  return (await maySee(deps, userId, ticket)) ? ticket : undefined;
}

/** Whether the person may see the ticket. */
export async function maySee(deps: SlackDeps, userId: string, ticket: Ticket): Promise<boolean> {
  const person = await deps.people.person(userId);
  const requester = ticket.requester_email?.toLowerCase();
  if (person.email && requester && person.email === requester) return true;
  return deps.people.isAgent(userId);
}

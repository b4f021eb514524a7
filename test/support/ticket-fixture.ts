/**
 * A platform ticket for tests that build one by hand: a new IT ticket of Alice's from the portal,
 * five seconds old, with whatever the test sets over it; and a message added to one.
 */
import type { AddMessageInput, Message, Ticket } from '../../src/contract/schemas.ts';

/** A ticket with `overrides` over the defaults above. */
export function ticketWith(overrides: Partial<Ticket> & Pick<Ticket, 'id' | 'title'>): Ticket {
  const fiveSecondsAgo = new Date(Date.now() - 5_000).toISOString();
  return {
    status: 'new',
    priority: 'medium',
    created_at: fiveSecondsAgo,
    updated_at: fiveSecondsAgo,
    description: null,
    desk_id: 'it',
    requester_email: 'alice@acme.example',
    assignee_email: null,
    team: null,
    channel: 'portal',
    url: null,
    ...overrides,
  };
}

/**
 * A ticket's message as the platform answers an added one: `input` (the body, its author's
 * email, whether internal) on `ticketId`, written now by an agent, with whatever the test sets
 * over it.
 */
export function messageWith(
  ticketId: string,
  input: AddMessageInput,
  overrides: Partial<Message> = {},
): Message {
  return {
    id: 'm-1',
    ticket_id: ticketId,
    body: input.body,
    created_at: new Date().toISOString(),
    internal: input.internal ?? false,
    author: { type: 'agent', email: input.author_email ?? null },
    sources: [],
    ...overrides,
  };
}

/**
 * A platform ticket for tests that build one by hand: a new IT ticket of Alice's from the portal,
 * five seconds old, with whatever the test sets over it.
 */
import type { Ticket } from '../../src/contract/schemas.ts';

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

import { describe, expect, it } from 'vitest';
import type { Ticket } from '../../../src/contract/schemas.ts';
import { buildTicketList } from '../../../src/slack/builders/ticket-list-builder.ts';

const ticket = (n: number): Ticket => ({
  id: `IT-${n}`,
  title: `Ticket ${n}`,
  status: 'open',
  priority: 'medium',
  created_at: '2026-11-20T09:30:00Z',
});

describe('the /ticket mine answer', () => {
  it('counts one open ticket in the singular', () => {
    expect(buildTicketList([ticket(1)], undefined).text).toBe('You have 1 open ticket.');
  });

  it('counts several open tickets in the plural', () => {
    expect(buildTicketList([ticket(1), ticket(2)], undefined).text).toBe(
      'You have 2 open tickets.',
    );
  });
});

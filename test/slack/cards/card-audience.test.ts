import { describe, expect, it } from 'vitest';
import type { Ticket } from '../../../src/contract/schemas.ts';
import { buildTicketCard } from '../../../src/slack/builders/ticket-card-builder.ts';
import { audienceShownBy, isDirectMessage } from '../../../src/slack/cards/card-audience.ts';

const ticket = (status: string): Ticket => ({
  id: 'IT-4',
  title: 'Mouse',
  status,
  priority: 'low',
  created_at: '2026-11-20T09:30:00Z',
});

describe('who a card is for', () => {
  it('counts a DM, or a person’s id standing for one, as a direct message and a channel not', () => {
    expect(isDirectMessage('D0ALICE')).toBe(true);
    expect(isDirectMessage('U0ALICE')).toBe(true);
    expect(isDirectMessage('C0ITHELP')).toBe(false);
    expect(isDirectMessage('G0PRIVATE')).toBe(false);
  });

  it('reads a requester from a card offering Mark resolved or Reopen', () => {
    for (const status of ['open', 'resolved']) {
      const card = buildTicketCard(ticket(status), {
        audience: { isAgent: false, isRequester: true },
      });
      expect(audienceShownBy(card.blocks), status).toEqual({ isAgent: false, isRequester: true });
    }
  });

  it('reads an agent from a card offering Update and Assign to me', () => {
    const card = buildTicketCard(ticket('in_progress'), {
      audience: { isAgent: true, isRequester: false },
    });
    expect(audienceShownBy(card.blocks)).toEqual({ isAgent: true, isRequester: false });
  });

  it('reads nobody’s buttons from a card that carries none', () => {
    const card = buildTicketCard(ticket('closed'), { audience: 'everyone' });
    expect(audienceShownBy(card.blocks)).toEqual({ isAgent: false, isRequester: false });
  });
});

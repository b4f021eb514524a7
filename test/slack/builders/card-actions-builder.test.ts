import { describe, expect, it } from 'vitest';
import type { Ticket } from '../../../src/contract/schemas.ts';
import { buildCardActions } from '../../../src/slack/builders/card-actions-builder.ts';
import { buildTicketCard } from '../../../src/slack/builders/ticket-card-builder.ts';

const ticket: Ticket = {
  id: 'IT-12',
  title: 'VPN drops every hour',
  status: 'in_progress',
  priority: 'high',
  created_at: '2026-11-20T09:30:00Z',
};
const ids = (buttons: { action_id?: string }[]) => buttons.map((b) => b.action_id);

describe('card buttons', () => {
  it('shows every button that applies on a card everyone sees', () => {
    expect(ids(buildCardActions(ticket, 'everyone'))).toEqual([
      'mark_resolved',
      'open_update_modal',
      'assign_to_me',
    ]);
  });

  it('shows an agent only Update and Assign to me', () => {
    expect(ids(buildCardActions(ticket, { isAgent: true, isRequester: false }))).toEqual([
      'open_update_modal',
      'assign_to_me',
    ]);
  });

  it('shows the requester Mark resolved while the ticket is open', () => {
    expect(ids(buildCardActions(ticket, { isAgent: false, isRequester: true }))).toEqual([
      'mark_resolved',
    ]);
  });

  it('shows the requester Reopen once the ticket is resolved', () => {
    expect(
      ids(
        buildCardActions({ ...ticket, status: 'resolved' }, { isAgent: false, isRequester: true }),
      ),
    ).toEqual(['reopen_ticket']);
  });

  it('shows no button to someone who is neither requester nor agent', () => {
    expect(buildCardActions(ticket, { isAgent: false, isRequester: false })).toEqual([]);
  });

  it('shows no button on a closed ticket', () => {
    expect(buildCardActions({ ...ticket, status: 'closed' }, 'everyone')).toEqual([]);
  });

  it('carries the ticket id as every button’s value', () => {
    for (const button of buildCardActions(ticket, 'everyone')) expect(button.value).toBe('IT-12');
  });

  it('puts the buttons on the card before the dashboard link', () => {
    const card = buildTicketCard(
      { ...ticket, url: 'https://acme.example/t/IT-12' },
      { audience: { isAgent: true, isRequester: false } },
    );
    const actions = card.blocks.find((b) => b.type === 'actions');
    expect(actions && 'elements' in actions ? ids(actions.elements) : []).toEqual([
      'open_update_modal',
      'assign_to_me',
      'open_in_dashboard',
    ]);
  });

  it('leaves the buttons off when asked for none', () => {
    const card = buildTicketCard(ticket, { audience: 'none' });
    expect(card.blocks.some((b) => b.type === 'actions')).toBe(false);
  });
});

/**
 * The ticket card's buttons. Who sees the card decides which appear: a card in a channel is
 * seen by everyone, so it carries every button that applies to the ticket's status and each
 * click is checked on the server; a private card shows only the viewer's own buttons.
 */
import type { Button } from '@slack/types';
import type { Ticket } from '../../contract/schemas.ts';
import { ACTIONS } from '../ids.ts';
import { LIMITS, plain, truncate } from './mrkdwn.ts';

/** Who sees a card: everyone in a conversation, or one person with their standing. */
export type CardAudience = 'everyone' | { isAgent: boolean; isRequester: boolean };

const button = (
  actionId: string,
  text: string,
  ticketId: string,
  style?: 'primary' | 'danger',
): Button => ({
  type: 'button',
  action_id: actionId,
  text: plain(text, LIMITS.buttonText),
  value: truncate(ticketId, 2000),
  ...(style ? { style } : {}),
});

/** The card's action buttons for an audience; none on a closed ticket (closed is final). */
export function buildCardActions(ticket: Ticket, audience: CardAudience): Button[] {
  if (ticket.status === 'closed') return [];
  const agent = audience === 'everyone' || audience.isAgent;
  const requester = audience === 'everyone' || audience.isRequester;
  const buttons: Button[] = [];
  if (requester && ticket.status === 'resolved') {
    buttons.push(button(ACTIONS.reopenTicket, 'Reopen', ticket.id));
  } else if (requester) {
    buttons.push(button(ACTIONS.markResolved, 'Mark resolved', ticket.id, 'primary'));
  }
  if (agent) {
    buttons.push(button(ACTIONS.openUpdate, 'Update', ticket.id));
    buttons.push(button(ACTIONS.assignToMe, 'Assign to me', ticket.id));
  }
  return buttons;
}

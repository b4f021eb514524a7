/** Why a change asked for from Slack was refused, said privately to the person who asked. */
import type { RefusalReason } from '../errors.ts';
import { ACTIONS } from '../ids.ts';
import { LIMITS, md, plain, safeMrkdwn } from './mrkdwn.ts';
import type { SlackMessage } from './ticket-card-builder.ts';

/**
 * Why a change was refused. A ticket the person may not see gets the same words whether it
 * exists or not, so a crafted click learns nothing about other people's tickets.
 */
export function buildRefusal(reason: RefusalReason, ticketId: string): SlackMessage {
  const id = safeMrkdwn(ticketId, 40);
  if (reason === 'closed') {
    const text = `:lock: *${id}* is closed, so it can no longer change. If you still need help, open a new ticket.`;
    return {
      text,
      blocks: [
        { type: 'section', text: md(text) },
        {
          type: 'actions',
          elements: [
            {
              type: 'button',
              action_id: ACTIONS.newTicket,
              text: plain('New ticket', LIMITS.buttonText),
              value: ticketId.slice(0, 100),
            },
          ],
        },
      ],
    };
  }
  const text =
    reason === 'reopen_not_allowed'
      ? `:no_entry: *${id}* is resolved, and a reply in its thread would reopen it: only its requester or a service-desk agent can do that, so your reply was not added. If you need help with this too, file your own ticket with \`/ticket\`.`
      : reason === 'agents_only'
        ? `:no_entry: Only service-desk agents can change the status, priority or assignee of *${id}*. A ticket’s requester can mark it resolved or reopen it.`
        : reason === 'no_email'
          ? ':no_entry: Your Slack profile has no email address, so the service desk cannot tell who you are. Please ask your Slack admin to add one.'
          : `:no_entry: You can’t change *${id}*: only its requester and the service desk’s agents can.`;
  return { text, blocks: [{ type: 'section', text: md(text) }] };
}

/**
 * Said to someone who clicks a Reopen that is out of date: the ticket is open already, so the
 * click changed nothing.
 */
export function buildAlreadyOpen(ticketId: string): SlackMessage {
  const text = `:arrows_counterclockwise: ${safeMrkdwn(ticketId, 40)} is already open again, so there is nothing to reopen: the service desk is looking at it.`;
  return { text, blocks: [{ type: 'section', text: md(text) }] };
}

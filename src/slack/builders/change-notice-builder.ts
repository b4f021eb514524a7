/**
 * Lines about changes made from Slack: why a change was refused (said privately), a thread's
 * note that a reply reopened its ticket or that someone asked for a person, and the line that
 * replaces the buttons of a message once they were used.
 */
import type { KnownBlock } from '@slack/types';
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

/** Told in the thread when a reply reopened its resolved ticket (the platform does that). */
export function buildReopenedByReply(ticketId: string, userId: string): SlackMessage {
  const text = `:arrows_counterclockwise: <@${userId}>’s reply reopened *${safeMrkdwn(ticketId, 40)}*; the service desk will look at it again.`;
  return { text, blocks: [{ type: 'context', elements: [md(text)] }] };
}

/**
 * Told in the thread when someone asked for a person instead of the AI agent; `reopened` when
 * the request reopened the resolved ticket.
 */
export function buildPersonRequested(
  ticketId: string,
  userId: string,
  options: { reopened?: boolean } = {},
): SlackMessage {
  const id = safeMrkdwn(ticketId, 40);
  const text = options.reopened
    ? `:raising_hand: <@${userId}> asked to talk to a person about *${id}*, so it is open again. An agent will answer in this thread.`
    : `:raising_hand: <@${userId}> asked to talk to a person about *${id}*. An agent will answer in this thread.`;
  return { text, blocks: [{ type: 'context', elements: [md(text)] }] };
}

/** The ticket message that asks for a person, written as the person who clicked. */
export function personRequestBody(name: string): string {
  return `${name} would like to talk to a person instead of the AI agent. (Sent with the "Talk to a person" button in Slack.)`;
}

/** The line that replaces a message's used buttons, saying where the ticket now stands. */
export function buildOutcomeLine(ticketId: string, status: string, userId: string): KnownBlock {
  const id = safeMrkdwn(ticketId, 40);
  const text =
    status === 'resolved' || status === 'closed'
      ? `:white_check_mark: *${id}* is ${safeMrkdwn(status, 40)}.`
      : `:arrows_counterclockwise: *${id}* is open again (<@${userId}>).`;
  return { type: 'context', elements: [md(text)] };
}

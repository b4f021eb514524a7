/**
 * Lines about changes made from Slack: a thread's note that a reply reopened its ticket or that
 * someone asked for a person, and the line that replaces the buttons of a message once they
 * were used.
 */
import type { KnownBlock } from '@slack/types';
import { md, safeMrkdwn } from './mrkdwn.ts';
import type { SlackMessage } from './ticket-card-builder.ts';

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

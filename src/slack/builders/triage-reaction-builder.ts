/**
 * What an agent's reaction on a triage card (TRIAGE_REACTIONS) says privately when it does
 * nothing: to someone who is not an agent of the ticket, and to an agent raising a ticket that is
 * urgent already. What a reaction did is said in the triage thread, as any change from Slack.
 */
import type { TriageReactionAction } from '../../config.ts';
import { md, safeMrkdwn } from './mrkdwn.ts';
import type { SlackMessage } from './ticket-card-builder.ts';

// What each action would have done, as the refusal says it.
const WOULD: Record<TriageReactionAction, string> = {
  assign: 'assign it to you',
  resolve: 'resolve it',
  raise: 'raise its priority',
};

/** Told privately to someone who is not an agent and reacted on a triage card: nothing changed. */
export function buildReactionRefusal(
  ticketId: string,
  emoji: string,
  action: TriageReactionAction,
): SlackMessage {
  const id = safeMrkdwn(ticketId, 40);
  const name = safeMrkdwn(emoji, 100);
  const text = `:no_entry: Reactions on a triage card are actions for service-desk agents: an agent's :${name}: on *${id}* would ${WOULD[action]}. Yours changed nothing.`;
  return { text, blocks: [{ type: 'section', text: md(text) }] };
}

/** Told privately to an agent who raised a ticket that is urgent already: nothing changed. */
export function buildAlreadyUrgent(ticketId: string): SlackMessage {
  const text = `:arrow_up_small: *${safeMrkdwn(ticketId, 40)}* is already urgent, the highest priority, so it was not raised.`;
  return { text, blocks: [{ type: 'section', text: md(text) }] };
}

/**
 * What a triage card in the catch-all becomes once its ticket is on a desk with a triage
 * channel of its own: one line pointing to the card there, so the ticket has one card.
 */
import { escapeMrkdwn, link, md } from './mrkdwn.ts';
import type { SlackMessage } from './ticket-card-builder.ts';

/** The catch-all card's pointer to the ticket's card in its desk's triage channel. */
export function buildTriageMovedPointer(
  ticketId: string,
  channel: string,
  permalink: string | undefined,
): SlackMessage {
  const where = `<#${channel}>`;
  const thread = permalink ? ` (${link(permalink, 'its triage thread')})` : '';
  const text = `${escapeMrkdwn(ticketId)} moved to ${where}${thread}: it is on a desk now.`;
  return { text, blocks: [{ type: 'section', text: md(text) }] };
}

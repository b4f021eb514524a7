/** The `/ticket mine` answer: the person's open tickets. */
import type { KnownBlock } from '@slack/types';
import type { Ticket } from '../../contract/schemas.ts';
import { link, md, safeMrkdwn, truncate } from './mrkdwn.ts';
import { dashboardLink, type SlackMessage } from './ticket-card-builder.ts';
import { statusLabel } from './ticket-labels.ts';

/** Most tickets listed in one answer; Slack caps a message at 50 blocks. */
export const LIST_MAX = 20;

/** Lists tickets one line each, newest first, with a count of any left out. */
export function buildTicketList(
  tickets: readonly Ticket[],
  dashboardUrl: string | undefined,
): SlackMessage {
  if (tickets.length === 0) {
    const text = 'You have no open tickets. `/ticket` files a new one.';
    return { text, blocks: [{ type: 'section', text: md(text) }] };
  }
  const shown = tickets.slice(0, LIST_MAX);
  const blocks: KnownBlock[] = [
    { type: 'section', text: md(`*Your open tickets* (${tickets.length})`) },
    ...shown.map((t): KnownBlock => {
      const url = dashboardLink(t, dashboardUrl);
      const id = url ? link(url, truncate(t.id, 40)) : `*${safeMrkdwn(t.id, 40)}*`;
      return {
        type: 'section',
        text: md(`${id} · ${safeMrkdwn(t.title, 300)}\n${safeMrkdwn(statusLabel(t.status), 200)}`),
      };
    }),
  ];
  if (tickets.length > shown.length) {
    blocks.push({ type: 'context', elements: [md(`…and ${tickets.length - shown.length} more.`)] });
  }
  const count = `${tickets.length} open ticket${tickets.length === 1 ? '' : 's'}`;
  return { text: `You have ${count}.`, blocks };
}

/**
 * The answer to `/ticket <id>` for a ticket that does not exist or is not the person's: one
 * text for both, so a lookup tells nobody that someone else's ticket exists. When the words
 * were read as an ID without a hyphen (`wifi 5`), it says how to file them as a ticket instead.
 */
export function buildTicketNotFound(ticketId: string, typed: string): SlackMessage {
  const id = safeMrkdwn(ticketId, 40);
  const lines = [
    `I couldn’t find ${id}, or it isn’t yours to see. Check the ID, or use \`/ticket mine\` to list your tickets.`,
  ];
  if (!/[-‐‑–—]/.test(typed)) {
    const words = safeMrkdwn(typed.trim(), 60);
    lines.push(`To file a new ticket about “${words}” instead, use \`/ticket new ${words}\`.`);
  }
  const text = lines.join(' ');
  return { text, blocks: [{ type: 'section', text: md(text) }] };
}

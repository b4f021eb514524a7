/** The ticket card: what `/ticket ABC-123` answers and what is posted when a ticket is filed. */
import type { KnownBlock } from '@slack/types';
import type { Ticket } from '../../servicedesk/schemas.ts';
import { ACTIONS } from '../ids.ts';
import { LIMITS, md, plain, safeMrkdwn, slackDate } from './mrkdwn.ts';
import { priorityLabel, statusLabel } from './ticket-labels.ts';

/** A Slack message: fallback text (notifications, screen readers) and blocks. */
export interface SlackMessage {
  text: string;
  blocks: KnownBlock[];
}

/** Where the dashboard shows a ticket: the platform's own link, else one built from the base. */
export function dashboardLink(
  ticket: Ticket,
  dashboardUrl: string | undefined,
): string | undefined {
  const url =
    ticket.url ??
    (dashboardUrl
      ? `${dashboardUrl.replace(/\/+$/, '')}/tickets/${encodeURIComponent(ticket.id)}`
      : undefined);
  return url && /^https?:\/\//.test(url) && url.length <= LIMITS.url ? url : undefined;
}

/** Options of the ticket card. */
export interface TicketCardOptions {
  dashboardUrl?: string | undefined;
  /** A line above the card, e.g. "Ticket filed", already safe mrkdwn. */
  lead?: string;
}

/** Builds the ticket card: title, status, priority, created, assignee and a dashboard link. */
export function buildTicketCard(ticket: Ticket, options: TicketCardOptions = {}): SlackMessage {
  const id = safeMrkdwn(ticket.id, 40);
  const title = safeMrkdwn(ticket.title, 500);
  const blocks: KnownBlock[] = [];
  if (options.lead) blocks.push({ type: 'context', elements: [md(options.lead)] });
  blocks.push({
    type: 'section',
    text: md(`*${id}* · ${title}`),
  });
  blocks.push({
    type: 'section',
    fields: [
      md(`*Status*\n${statusLabel(ticket.status)}`),
      md(`*Priority*\n${safeMrkdwn(priorityLabel(ticket.priority), 200)}`),
      md(`*Created*\n${slackDate(ticket.created_at)}`),
      md(
        `*Assignee*\n${ticket.assignee_email ? safeMrkdwn(ticket.assignee_email, 200) : ticket.team ? `Team ${safeMrkdwn(ticket.team, 100)}` : '_Not assigned yet_'}`,
      ),
    ],
  });
  const url = dashboardLink(ticket, options.dashboardUrl);
  if (url) {
    blocks.push({
      type: 'actions',
      elements: [
        {
          type: 'button',
          action_id: ACTIONS.openInDashboard,
          text: plain('Open in dashboard', LIMITS.buttonText),
          url,
        },
      ],
    });
  }
  const text = safeMrkdwn(`${ticket.id}: ${ticket.title} (${ticket.status})`, LIMITS.messageText);
  return { text, blocks };
}

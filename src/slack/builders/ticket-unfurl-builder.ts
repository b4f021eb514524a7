/**
 * A ticket's dashboard link as Slack unfurls it under the message: a compact card for a ticket
 * the person who shared the link may see, else only its ID and "a private ticket". Everyone in
 * the conversation sees an unfurl, so it carries nothing a card for the channel would not: no
 * internal note, no custom field value, no description, and no buttons but the dashboard link.
 */
import type { KnownBlock } from '@slack/types';
import type { Desk, Ticket } from '../../contract/schemas.ts';
import { LIMITS, md, safeMrkdwn, slackDate } from './mrkdwn.ts';
import { personText, type ShownPerson, teamText } from './person-text.ts';
import { dashboardButton } from './ticket-card-builder.ts';
import { priorityLabel, statusLabel } from './ticket-labels.ts';

/** One link's unfurl, as `chat.unfurl` takes it (an attachment with blocks). */
export interface TicketUnfurl {
  /** Slack's fallback for clients that cannot show blocks. */
  fallback: string;
  blocks: KnownBlock[];
}

/** What the card shows besides the ticket: its assignee as Slack knows them, its desk's name. */
export interface TicketUnfurlOptions {
  assignee?: ShownPerson | undefined;
  /** The desks as kept (never read for an unfurl): the desk is shown by its name when known. */
  desks?: readonly Desk[] | undefined;
  dashboardUrl?: string | undefined;
}

/**
 * The compact card: ID and title, status, priority, assignee, desk, updated, and **Open in
 * dashboard**.
 */
export function buildTicketUnfurl(ticket: Ticket, options: TicketUnfurlOptions = {}): TicketUnfurl {
  const assignee = ticket.assignee_email
    ? personText(ticket.assignee_email, options.assignee)
    : ticket.team
      ? teamText(ticket.team, 100)
      : '_Not assigned yet_';
  const desk = ticket.desk_id
    ? safeMrkdwn(options.desks?.find((d) => d.slug === ticket.desk_id)?.name ?? ticket.desk_id, 100)
    : '_No desk_';
  const blocks: KnownBlock[] = [
    {
      type: 'section',
      text: md(`*${safeMrkdwn(ticket.id, 40)}* · ${safeMrkdwn(ticket.title, 300)}`),
    },
    {
      type: 'section',
      fields: [
        md(`*Status*\n${safeMrkdwn(statusLabel(ticket.status), 200)}`),
        md(`*Priority*\n${safeMrkdwn(priorityLabel(ticket.priority), 200)}`),
        md(`*Assignee*\n${assignee}`),
        md(`*Desk*\n${desk}`),
        md(`*Updated*\n${slackDate(ticket.updated_at ?? ticket.created_at)}`),
      ],
    },
  ];
  const dashboard = dashboardButton(ticket, options.dashboardUrl);
  if (dashboard) blocks.push({ type: 'actions', elements: [dashboard] });
  const fallback = safeMrkdwn(
    `${ticket.id}: ${ticket.title} (${ticket.status})`,
    LIMITS.messageText,
  );
  return { fallback, blocks };
}

/**
 * A ticket the person who shared the link may not see (or that the app cannot tell they may):
 * its ID, which the link itself shows, and nothing more.
 */
export function buildPrivateTicketUnfurl(ticketId: string): TicketUnfurl {
  const text = `${safeMrkdwn(ticketId, 40)} · a private ticket`;
  return {
    fallback: text,
    blocks: [{ type: 'context', elements: [md(`:lock: ${text}`)] }],
  };
}

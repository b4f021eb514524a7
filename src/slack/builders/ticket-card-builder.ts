/** The ticket card: what `/ticket ABC-123` answers and what is posted when a ticket is filed. */
import type { Button, KnownBlock } from '@slack/types';
import type { CustomField, Ticket } from '../../contract/schemas.ts';
import type { ClockInputs } from '../../contract/service-levels.ts';
import { ACTIONS, CARD_BLOCKS } from '../ids.ts';
import { buildCardActions, type CardAudience } from './card-actions-builder.ts';
import { deskFieldsSection } from './desk-fields-builder.ts';
import { LIMITS, md, plain, safeMrkdwn, slackDate } from './mrkdwn.ts';
import { personText, type ShownPerson, teamText } from './person-text.ts';
import { clockBlock } from './service-clock-builder.ts';
import { priorityLabel, statusLabel } from './ticket-labels.ts';

/** A Slack message: fallback text (notifications, screen readers) and blocks. */
export interface SlackMessage {
  text: string;
  blocks: KnownBlock[];
}

/** The ticket's page under the configured dashboard base, when there is one. */
export function ticketPageUrl(
  ticketId: string,
  dashboardUrl: string | undefined,
): string | undefined {
  return dashboardUrl
    ? `${dashboardUrl.replace(/\/+$/, '')}/tickets/${encodeURIComponent(ticketId)}`
    : undefined;
}

/** Where the dashboard shows a ticket: the platform's own link, else one built from the base. */
export function dashboardLink(
  ticket: Ticket,
  dashboardUrl: string | undefined,
): string | undefined {
  const url = ticket.url ?? ticketPageUrl(ticket.id, dashboardUrl);
  return url && isPlainHttpUrl(url) && url.length <= LIMITS.url ? url : undefined;
}

/** The card's "Open in dashboard" link button, when the ticket has a page to open. */
export function dashboardButton(
  ticket: Ticket,
  dashboardUrl: string | undefined,
): Button | undefined {
  const url = dashboardLink(ticket, dashboardUrl);
  return url
    ? {
        type: 'button',
        action_id: ACTIONS.openInDashboard,
        text: plain('Open in dashboard', LIMITS.buttonText),
        url,
      }
    : undefined;
}

// Only a URL that parses as http(s) is linked: anything else from the platform is not a link.
function isPlainHttpUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return (protocol === 'https:' || protocol === 'http:') && !/[\s<>|]/.test(url);
  } catch {
    return false;
  }
}

/** Options of the ticket card. */
export interface TicketCardOptions {
  dashboardUrl?: string | undefined;
  /** A line above the card, e.g. "Ticket filed", already safe mrkdwn. */
  lead?: string;
  /** Who sees the card, deciding its buttons (default: everyone); `none` for no buttons. */
  audience?: CardAudience | 'none';
  /**
   * The ticket's desk's custom fields: their values are shown under their names (the lookup
   * card). Without them no custom field is shown.
   */
  deskFields?: readonly CustomField[] | undefined;
  /** The assignee as Slack knows them (found by their email): shown by name, not address. */
  assignee?: ShownPerson | undefined;
  /**
   * What the ticket's service-level clocks are computed from, as of when the card is built.
   * Internal targets: shown only when `audience` is one person who is an agent (their
   * `/ticket` answer), never on a channel's card or a requester's. Without it, no clock.
   */
  clocks?: ClockInputs | undefined;
}

/** Builds the ticket card: title, status, priority, created, assignee and a dashboard link. */
export function buildTicketCard(ticket: Ticket, options: TicketCardOptions = {}): SlackMessage {
  const id = safeMrkdwn(ticket.id, 40);
  const title = safeMrkdwn(ticket.title, 500);
  const blocks: KnownBlock[] = [];
  if (options.lead)
    blocks.push({ type: 'context', block_id: CARD_BLOCKS.lead, elements: [md(options.lead)] });
  blocks.push({
    type: 'section',
    text: md(`*${id}* · ${title}`),
  });
  blocks.push({
    type: 'section',
    fields: [
      md(`*Status*\n${safeMrkdwn(statusLabel(ticket.status), 200)}`),
      md(`*Priority*\n${safeMrkdwn(priorityLabel(ticket.priority), 200)}`),
      md(`*Created*\n${slackDate(ticket.created_at)}`),
      md(
        `*Assignee*\n${ticket.assignee_email ? personText(ticket.assignee_email, options.assignee) : ticket.team ? teamText(ticket.team, 100) : '_Not assigned yet_'}`,
      ),
    ],
  });
  const audience = options.audience ?? 'everyone';
  // Fail closed: a card anyone but one agent may see never shows internal targets.
  const agentAlone = typeof audience === 'object' && audience.isAgent === true;
  const clocks =
    agentAlone && options.clocks && clockBlock(ticket, options.clocks, CARD_BLOCKS.clocks);
  if (clocks) blocks.push(clocks);
  const fieldsSection = options.deskFields
    ? deskFieldsSection(ticket.custom_fields, options.deskFields)
    : undefined;
  if (fieldsSection) blocks.push(fieldsSection);
  const elements: Button[] = audience === 'none' ? [] : buildCardActions(ticket, audience);
  const dashboard = dashboardButton(ticket, options.dashboardUrl);
  if (dashboard) elements.push(dashboard);
  if (elements.length > 0)
    blocks.push({ type: 'actions', block_id: CARD_BLOCKS.actions, elements });
  const text = safeMrkdwn(`${ticket.id}: ${ticket.title} (${ticket.status})`, LIMITS.messageText);
  return { text, blocks };
}

/**
 * The triage card: what a desk's triage channel shows of each new ticket, so its agents can
 * take it from there. Everything from the ticket or a person goes through `safeMrkdwn`, so no
 * title or description can ping @channel or anyone else.
 */

import type { Button, KnownBlock } from '@slack/types';
import type { CustomField, Ticket } from '../../contract/schemas.ts';
import type { ClockInputs } from '../../contract/service-levels.ts';
import { ACTIONS, TRIAGE_CARD_BLOCKS } from '../ids.ts';
import { deskFieldsSection } from './desk-fields-builder.ts';
import { LIMITS, link, md, plain, safeMrkdwn, slackDate, truncate } from './mrkdwn.ts';
import { personText, type ShownPerson, teamText } from './person-text.ts';
import { clockBlock } from './service-clock-builder.ts';
import { dashboardButton, type SlackMessage } from './ticket-card-builder.ts';
import { priorityLabel, statusLabel } from './ticket-labels.ts';

/** How many lines of the description the card shows, and at most how many characters. */
export const TRIAGE_DESCRIPTION_LINES = 5;
const DESCRIPTION_MAX = 500;

/** Who filed the ticket, as far as Slack knows them. */
export interface TriageRequester {
  /** Their Slack user id, when the ticket's requester email is a Slack user's. */
  userId?: string | undefined;
  /** Their name, when known (the platform's or Slack's). */
  name?: string | undefined;
}

/** What the triage card shows besides the ticket itself. */
export interface TriageCardOptions {
  requester?: TriageRequester | undefined;
  /** The desk's name, when the ticket is on a desk the catalog knows. */
  deskName?: string | undefined;
  /** A link to the requester's Slack message or thread the ticket was filed from. */
  slackPermalink?: string | undefined;
  dashboardUrl?: string | undefined;
  /** The desk's custom fields: the ticket's values are shown by their names. */
  deskFields?: readonly CustomField[] | undefined;
  /** The assignee as Slack knows them (found by their email): shown by name, not address. */
  assignee?: ShownPerson | undefined;
  /**
   * What the ticket's service-level clocks are computed from, as of when the card is built:
   * shown under the fields (a triage channel is its agents'). Without it, no clock.
   */
  clocks?: ClockInputs | undefined;
}

/** Builds the triage card of a ticket. */
export function buildTriageCard(ticket: Ticket, options: TriageCardOptions = {}): SlackMessage {
  const id = safeMrkdwn(ticket.id, 40);
  const title = safeMrkdwn(ticket.title, 500);
  const blocks: KnownBlock[] = [
    { type: 'section', text: md(`:inbox_tray: *${id}* · ${title}`) },
    {
      type: 'section',
      fields: [
        md(`*Requester*\n${requesterText(ticket, options.requester)}`),
        md(`*Desk*\n${deskText(ticket, options.deskName)}`),
        md(`*Priority*\n${safeMrkdwn(priorityLabel(ticket.priority), 200)}`),
        md(`*Status*\n${safeMrkdwn(statusLabel(ticket.status), 200)}`),
        md(`*Assignee*\n${assigneeText(ticket, options.assignee)}`),
        md(`*Filed*\n${slackDate(ticket.created_at)}`),
        md(`*From*\n${originText(ticket, options.slackPermalink)}`),
      ],
    },
  ];
  const clocks = options.clocks && clockBlock(ticket, options.clocks, TRIAGE_CARD_BLOCKS.clocks);
  if (clocks) blocks.push(clocks);
  const description = firstLines(ticket.description ?? '');
  if (description) blocks.push({ type: 'section', text: md(description) });
  const fieldsSection = options.deskFields
    ? deskFieldsSection(ticket.custom_fields, options.deskFields)
    : undefined;
  if (fieldsSection) blocks.push(fieldsSection);
  const elements = buttons(ticket, options.dashboardUrl);
  if (elements.length > 0)
    blocks.push({ type: 'actions', block_id: TRIAGE_CARD_BLOCKS.actions, elements });
  const text = safeMrkdwn(`New ticket ${ticket.id}: ${ticket.title}`, LIMITS.messageText);
  return { text, blocks };
}

function requesterText(ticket: Ticket, requester: TriageRequester | undefined): string {
  // A Slack id is only ever one the app looked up, never text from the ticket.
  if (requester?.userId && /^[UW][A-Z0-9]+$/.test(requester.userId))
    return `<@${requester.userId}>`;
  const name = requester?.name ? safeMrkdwn(requester.name, 200) : undefined;
  const email = ticket.requester_email ? safeMrkdwn(ticket.requester_email, 300) : undefined;
  if (name && email) return `${name} (${email})`;
  return name ?? email ?? '_Unknown_';
}

function deskText(ticket: Ticket, deskName: string | undefined): string {
  if (!ticket.desk_id) return '_No desk_';
  return safeMrkdwn(deskName ?? ticket.desk_id, 200);
}

function assigneeText(ticket: Ticket, assignee: ShownPerson | undefined): string {
  if (ticket.assignee_email) return personText(ticket.assignee_email, assignee, 300);
  if (ticket.team) return teamText(ticket.team);
  return '_Not assigned yet_';
}

function originText(ticket: Ticket, permalink: string | undefined): string {
  if (permalink && /^https:\/\/\S+$/.test(permalink) && permalink.length <= LIMITS.url)
    return link(permalink, 'Slack message');
  if (ticket.channel) return safeMrkdwn(humanise(ticket.channel), 100);
  return '_Unknown_';
}

const humanise = (value: string) => value.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());

/**
 * The description's first lines as a quote, blank lines dropped, with a note when more was
 * left out: the card is for deciding who takes the ticket; the whole text is one click away.
 */
function firstLines(description: string): string {
  const lines = description
    .split(/\r?\n/)
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '');
  if (lines.length === 0) return '';
  const shown = truncate(lines.slice(0, TRIAGE_DESCRIPTION_LINES).join('\n'), DESCRIPTION_MAX);
  const quoted = shown
    .split('\n')
    .map((line) => `>${safeMrkdwn(line, LIMITS.sectionText)}`)
    .join('\n');
  const cut = lines.length > TRIAGE_DESCRIPTION_LINES || shown.endsWith('…');
  return truncate(cut ? `${quoted}\n_…more in the ticket_` : quoted, LIMITS.sectionText);
}

const button = (actionId: string, text: string, ticketId: string): Button => ({
  type: 'button',
  action_id: actionId,
  text: plain(text, LIMITS.buttonText),
  value: truncate(ticketId, 2000),
});

function buttons(ticket: Ticket, dashboardUrl: string | undefined): Button[] {
  // Closed is final: nothing is left to take, change or answer.
  const elements: Button[] =
    ticket.status === 'closed'
      ? []
      : [
          { ...button(ACTIONS.assignToMe, 'Assign to me', ticket.id), style: 'primary' },
          button(ACTIONS.openUpdate, 'Update', ticket.id),
          button(ACTIONS.replyToRequester, 'Reply to requester', ticket.id),
        ];
  const dashboard = dashboardButton(ticket, dashboardUrl);
  if (dashboard) elements.push(dashboard);
  return elements;
}

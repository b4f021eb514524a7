/**
 * The triage channels' morning summary: the channel's open tickets, unassigned, breached and
 * due today, and links to the oldest unassigned ones (their triage thread, else their page in
 * the dashboard). For agents only: it is posted in private triage channels, never elsewhere.
 */
import type { KnownBlock } from '@slack/types';
import type { Ticket } from '../../contract/schemas.ts';
import type { DigestSummary } from '../triage/digest-summary.ts';
import { escapeMrkdwn, LIMITS, link, md, plain, safeMrkdwn, slackDate } from './mrkdwn.ts';
import type { SlackMessage } from './ticket-card-builder.ts';

/** What the summary message shows besides the figures. */
export interface TriageDigestView {
  summary: DigestSummary;
  /** The day it summarises, as people read it ("Monday 30 November"). */
  dayLabel: string;
  /** What the channel covers ("IT, IT hardware", "tickets on no desk"). */
  scope: string;
  /** Where each of the oldest unassigned tickets is opened (its triage thread, else the dashboard). */
  links: ReadonlyMap<string, string | undefined>;
  /** Some statuses' lists were cut at their page limit: the figures are lower bounds. */
  partial?: boolean;
}

const TITLE_MAX = 120;

/** The summary message; see the file comment. */
export function buildTriageDigest(view: TriageDigestView): SlackMessage {
  const { summary } = view;
  const more = view.partial ? '+' : '';
  const figure = (n: number) => `${n.toLocaleString('en-US')}${more}`;
  const text =
    `Morning summary for ${view.dayLabel}: ${figure(summary.open)} open, ` +
    `${figure(summary.unassigned)} unassigned, ${figure(summary.breached)} breached, ` +
    `${figure(summary.dueToday)} due today.`;
  const blocks: KnownBlock[] = [
    {
      type: 'header',
      text: plain(`:sunny: Morning summary · ${view.dayLabel}`, LIMITS.headerText),
    },
    {
      type: 'context',
      elements: [md(safeMrkdwn(`Open tickets for ${view.scope}`, LIMITS.contextText))],
    },
    {
      type: 'section',
      fields: [
        md(`*Open*\n${figure(summary.open)}`),
        md(`*Unassigned*\n${figure(summary.unassigned)}`),
        md(`*Breached*\n${summary.breached > 0 ? ':red_circle: ' : ''}${figure(summary.breached)}`),
        md(`*Due today*\n${summary.dueToday > 0 ? ':clock3: ' : ''}${figure(summary.dueToday)}`),
      ],
    },
  ];
  if (summary.oldestUnassigned.length > 0) {
    const lines = summary.oldestUnassigned.map((ticket) => ticketLine(ticket, view.links));
    blocks.push({
      type: 'section',
      text: md(`*Oldest unassigned*\n${lines.join('\n')}`),
    });
  } else if (summary.open > 0) {
    blocks.push({ type: 'section', text: md('Every open ticket has an assignee. :tada:') });
  }
  if (view.partial) {
    blocks.push({
      type: 'context',
      elements: [
        md('_Counted from the first pages of the platform’s lists: there are more than shown._'),
      ],
    });
  }
  return { text, blocks };
}

function ticketLine(ticket: Ticket, links: ReadonlyMap<string, string | undefined>): string {
  const url = links.get(ticket.id);
  const id = url ? link(url, ticket.id) : `*${escapeMrkdwn(ticket.id)}*`;
  return `• ${id} ${safeMrkdwn(ticket.title, TITLE_MAX)} · opened ${slackDate(ticket.created_at)}`;
}

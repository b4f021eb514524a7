/**
 * App Home: the person's open tickets with their status, a "New ticket" button, and a "Request
 * something" button (the service catalog). An agent's Home lists their queue instead
 * (`agent-queue-builder.ts`), within the 100 blocks a Home holds.
 */
import type { HomeView, KnownBlock } from '@slack/types';
import type { Ticket } from '../../contract/schemas.ts';
import type { AgentQueue } from '../deps.ts';
import { ACTIONS } from '../ids.ts';
import { HOME_QUEUE_BLOCKS, type QueueClockInputs, queueBlocks } from './agent-queue-builder.ts';
import { ageText, type BusyReason, busyLine } from './busy-builder.ts';
import { LIMITS, link, md, plain, safeMrkdwn, truncate } from './mrkdwn.ts';
import { dashboardLink } from './ticket-card-builder.ts';
import { priorityLabel, statusLabel } from './ticket-labels.ts';

/** Most tickets listed; a Home view holds 100 blocks. */
export const HOME_LIST_MAX = 40;

/** A list shown from an earlier read because the platform could not be asked now. */
export interface HomeAsOf {
  ageMs: number;
  reason: BusyReason;
  retryInMs: number;
}

/** What App Home shows below its button. */
export type AppHomeState =
  | { kind: 'tickets'; tickets: readonly Ticket[]; asOf?: HomeAsOf }
  /** An agent's queue (AGENT_EMAILS, the agents' group, a triage channel's member). */
  | { kind: 'queue'; queue: AgentQueue; clocks: QueueClockInputs; asOf?: HomeAsOf }
  /** The platform could not be asked now (the person's share or the shared budget). */
  | { kind: 'busy'; reason: BusyReason; retryInMs: number }
  /** The platform did not answer: the button still works. */
  | { kind: 'unavailable' }
  /** The person's Slack profile has no email, so the platform cannot find their tickets. */
  | { kind: 'no_email' };

/**
 * Builds the person's App Home; an agent's queue carries what its clocks are shown with
 * (SLA_TARGETS, SLA_WARN_AT, the time it was read at).
 */
export function buildAppHome(state: AppHomeState, dashboardUrl: string | undefined): HomeView {
  const blocks: KnownBlock[] = [
    { type: 'header', text: plain('Service Desk', LIMITS.headerText) },
    {
      type: 'section',
      text: md(
        'File an IT request, follow your tickets and talk to the service desk without leaving Slack.',
      ),
    },
    {
      type: 'actions',
      elements: [
        {
          type: 'button',
          action_id: ACTIONS.newTicket,
          text: plain('New ticket', LIMITS.buttonText),
          style: 'primary',
        },
        {
          type: 'button',
          action_id: ACTIONS.requestSomething,
          text: plain('Request something', LIMITS.buttonText),
        },
      ],
    },
    { type: 'divider' },
  ];
  if (state.kind === 'unavailable') {
    blocks.push({
      type: 'section',
      text: md(
        ':hourglass_flowing_sand: The service desk is not answering right now, so your tickets cannot be shown. Open this tab again in a minute.',
      ),
    });
  } else if (state.kind === 'busy') {
    blocks.push({
      type: 'section',
      text: md(
        `${busyLine(state.reason, state.retryInMs)} Your tickets show when you open this tab again then.`,
      ),
    });
  } else if (state.kind === 'no_email') {
    blocks.push({
      type: 'section',
      text: md(
        'Your Slack profile has no email address, so the service desk cannot find your tickets. Please ask your Slack admin to add one.',
      ),
    });
  } else if (state.kind === 'queue') {
    if (state.asOf) blocks.push(asOfLine(state.asOf));
    blocks.push(
      ...queueBlocks(state.queue, {
        dashboardUrl,
        clocks: state.clocks,
        maxBlocks: HOME_QUEUE_BLOCKS,
      }),
    );
    blocks.push({
      type: 'context',
      elements: [
        md(
          '`/ticket queue` shows this list in any conversation; `/ticket mine` lists the tickets you filed.',
        ),
      ],
    });
  } else {
    blocks.push(...listBlocks(state, dashboardUrl));
  }
  return { type: 'home', blocks };
}

function listBlocks(
  state: Extract<AppHomeState, { kind: 'tickets' }>,
  dashboardUrl: string | undefined,
): KnownBlock[] {
  const blocks: KnownBlock[] = [];
  if (state.asOf) blocks.push(asOfLine(state.asOf));
  if (state.tickets.length === 0) {
    blocks.push({ type: 'section', text: md('You have no open tickets.') });
  } else {
    const shown = state.tickets.slice(0, HOME_LIST_MAX);
    blocks.push({
      type: 'section',
      text: md(`*Your open tickets* (${state.tickets.length})`),
    });
    for (const ticket of shown) blocks.push(ticketLine(ticket, dashboardUrl));
    if (state.tickets.length > shown.length) {
      blocks.push({
        type: 'context',
        elements: [
          md(`…and ${state.tickets.length - shown.length} more. \`/ticket mine\` lists them all.`),
        ],
      });
    }
  }
  return blocks;
}

/** Says a list is shown as last read, how long ago, and why. */
export function asOfLine(asOf: {
  ageMs: number;
  reason: BusyReason;
  retryInMs: number;
}): KnownBlock {
  return {
    type: 'context',
    elements: [
      md(
        `As the app last read them, ${ageText(asOf.ageMs)}. ${busyLine(asOf.reason, asOf.retryInMs)}`,
      ),
    ],
  };
}

function ticketLine(ticket: Ticket, dashboardUrl: string | undefined): KnownBlock {
  const url = dashboardLink(ticket, dashboardUrl);
  const label = url ? link(url, truncate(ticket.id, 40)) : `*${safeMrkdwn(ticket.id, 40)}*`;
  return {
    type: 'section',
    text: md(
      `${label} · ${safeMrkdwn(ticket.title, 300)}\n${safeMrkdwn(statusLabel(ticket.status), 200)} · ${safeMrkdwn(priorityLabel(ticket.priority), 100)}`,
    ),
  };
}

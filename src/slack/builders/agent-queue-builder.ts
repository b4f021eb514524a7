/**
 * An agent's queue as Block Kit: "Assigned to me" (open tickets, the oldest target first, each
 * with its clocks) and "Unassigned on my desks" (each with Assign to me), every ticket with
 * Open in dashboard. Shown on the agent's Home and in answer to `/ticket queue`; both have a
 * block limit (a Home 100, a message 50), so as many tickets are listed as fit and the rest are
 * counted, behind a link to the dashboard. For agents only: clocks carry internal targets.
 */
import type { Button, KnownBlock } from '@slack/types';
import type { Ticket } from '../../contract/schemas.ts';
import {
  type ServiceClock,
  type ServiceTargets,
  ticketClocks,
} from '../../contract/service-levels.ts';
import type { AgentQueue } from '../deps.ts';
import { ACTIONS, QUEUE_BLOCKS, queueActionId } from '../ids.ts';
import { LIMITS, link, md, plain, safeMrkdwn, truncate } from './mrkdwn.ts';
import { clockLines } from './service-clock-builder.ts';
import { dashboardButton, dashboardLink, type SlackMessage } from './ticket-card-builder.ts';
import { priorityLabel, statusLabel } from './ticket-labels.ts';

/** What the clocks are computed with: SLA_TARGETS, SLA_WARN_AT and now. */
export interface QueueClockInputs {
  targets: ServiceTargets;
  warnAt: number;
  nowMs: number;
}

/** What a queue is built with. */
export interface QueueViewOptions {
  dashboardUrl: string | undefined;
  clocks: QueueClockInputs;
  /** Blocks the queue may use. */
  maxBlocks: number;
}

/** Blocks of a queue that are not tickets: two headings, a divider, a closing line each. */
const QUEUE_FIXED_BLOCKS = 5;
/** Blocks the Home's queue may use: a Home holds 100; its top, an as-of line and a footer. */
export const HOME_QUEUE_BLOCKS = 100 - 4 - 1 - 1;
/** Blocks `/ticket queue`'s answer may use: a message holds 50; an as-of line and a footer. */
export const MESSAGE_QUEUE_BLOCKS = 50 - 1 - 1;

/** How many assigned and unassigned tickets fit in `maxBlocks`. */
export function queueFit(
  maxBlocks: number,
  assignedCount: number,
  unassignedCount: number,
): { assigned: number; unassigned: number } {
  const room = Math.max(0, maxBlocks - QUEUE_FIXED_BLOCKS);
  // An assigned ticket takes one block, an unassigned one two (its line and its buttons); each
  // list gets half the room at least, and what the other leaves.
  const half = Math.min(assignedCount, Math.max(Math.floor(room / 2), room - 2 * unassignedCount));
  const unassigned = Math.min(unassignedCount, Math.floor((room - half) / 2));
  const assigned = Math.min(assignedCount, room - 2 * unassigned);
  return { assigned, unassigned };
}

/** How many unassigned tickets a Home can show beside `assignedCount` assigned ones. */
export function homeUnassignedRoom(assignedCount: number): number {
  return queueFit(HOME_QUEUE_BLOCKS, assignedCount, Number.MAX_SAFE_INTEGER).unassigned;
}

/** A ticket with its clocks now. */
export interface ClockedTicket {
  ticket: Ticket;
  clocks: ServiceClock[];
}

/**
 * The tickets, the oldest target first: by the earliest due time of a clock not yet met; the
 * tickets with no such clock after them, the oldest first.
 */
export function byTarget(tickets: readonly Ticket[], inputs: QueueClockInputs): ClockedTicket[] {
  const keyed = tickets.map((ticket) => {
    const clocks = ticketClocks(ticket, inputs);
    const due = clocks.filter((clock) => clock.state !== 'met').map((clock) => clock.dueAtMs);
    const created = Date.parse(ticket.created_at);
    return {
      clocked: { ticket, clocks },
      due: due.length > 0 ? Math.min(...due) : undefined,
      created: Number.isNaN(created) ? Number.POSITIVE_INFINITY : created,
    };
  });
  keyed.sort((a, b) => {
    if (a.due !== undefined && b.due !== undefined) return a.due - b.due || a.created - b.created;
    if (a.due !== undefined) return -1;
    if (b.due !== undefined) return 1;
    return a.created - b.created;
  });
  return keyed.map((entry) => entry.clocked);
}

/** The queue's blocks, within `options.maxBlocks`. */
export function queueBlocks(queue: AgentQueue, options: QueueViewOptions): KnownBlock[] {
  const { dashboardUrl, clocks } = options;
  const fit = queueFit(options.maxBlocks, queue.assigned.length, queue.unassigned.length);
  const blocks: KnownBlock[] = [];
  const assignedCount = `${queue.assigned.length}${queue.assignedMore ? '+' : ''}`;
  blocks.push({ type: 'section', text: md(`*Assigned to me* (${assignedCount})`) });
  const assigned = byTarget(queue.assigned, clocks).slice(0, fit.assigned);
  for (const entry of assigned) blocks.push(assignedLine(entry, options));
  if (queue.assigned.length === 0) {
    blocks.push(context('Nothing open is assigned to you.'));
  } else if (queue.assigned.length > assigned.length || queue.assignedMore) {
    const more = queue.assigned.length - assigned.length;
    const line =
      more === 0
        ? 'More may be assigned to you.'
        : `…and ${queue.assignedMore ? `${more} or more` : more} more assigned to you.`;
    blocks.push(context(`${line} ${theRest(dashboardUrl)}`));
  }
  blocks.push({ type: 'divider' });
  const total = queue.unassignedTotal;
  const unassignedCount = total ?? `${queue.unassigned.length}+`;
  blocks.push({ type: 'section', text: md(`*Unassigned on my desks* (${unassignedCount})`) });
  const unassigned = byTarget(queue.unassigned, clocks).slice(0, fit.unassigned);
  for (const entry of unassigned) blocks.push(...unassignedLine(entry, options));
  if (queue.unassigned.length === 0) {
    blocks.push(context('No ticket on your desks is waiting for an agent.'));
  } else if (total === null || total > unassigned.length) {
    const more = total === null ? 'More may be waiting' : `…and ${total - unassigned.length} more`;
    blocks.push(context(`${more} on your desks. ${theRest(dashboardUrl)}`));
  }
  return blocks;
}

/** `/ticket queue`'s private answer: the agent's queue within a message's 50 blocks. */
export function buildQueueMessage(
  queue: AgentQueue,
  options: Omit<QueueViewOptions, 'maxBlocks'>,
  asOf?: string,
): SlackMessage {
  const blocks: KnownBlock[] = [];
  if (asOf) blocks.push(context(asOf));
  blocks.push(...queueBlocks(queue, { ...options, maxBlocks: MESSAGE_QUEUE_BLOCKS }));
  blocks.push(context('Your Home tab shows this queue too.'));
  const text = `Your queue: ${queue.assigned.length}${queue.assignedMore ? '+' : ''} assigned to you, ${queue.unassignedTotal ?? `${queue.unassigned.length}+`} unassigned on your desks.`;
  return { text, blocks };
}

/** `/ticket queue`'s answer to someone who is not an agent. */
export function buildQueueForAgentsOnly(): SlackMessage {
  const text =
    '`/ticket queue` is for service-desk agents: it lists the tickets assigned to them and the unassigned ones on their desks. `/ticket mine` lists the tickets you filed.';
  return { text, blocks: [{ type: 'section', text: md(text) }] };
}

function theRest(dashboardUrl: string | undefined): string {
  return dashboardUrl
    ? `${link(dashboardUrl, 'Open in dashboard')} to see them all.`
    : 'The dashboard lists them all.';
}

function context(text: string): KnownBlock {
  return { type: 'context', elements: [md(text)] };
}

function ticketText(entry: ClockedTicket, options: QueueViewOptions): string {
  const { ticket } = entry;
  const url = dashboardLink(ticket, options.dashboardUrl);
  const label = url ? link(url, truncate(ticket.id, 40)) : `*${safeMrkdwn(ticket.id, 40)}*`;
  const lines = [`${label} · ${safeMrkdwn(ticket.title, 300)}`];
  const clocks = clockLines(entry.clocks, options.clocks.nowMs);
  if (clocks.length > 0) lines.push(clocks.join(' · '));
  lines.push(
    `${safeMrkdwn(statusLabel(ticket.status), 100)} · ${safeMrkdwn(priorityLabel(ticket.priority), 100)}${ticket.desk_id ? ` · ${safeMrkdwn(ticket.desk_id, 100)}` : ''}`,
  );
  return lines.join('\n');
}

/** The ticket's Open in dashboard button, its action id unique in the view. */
function openButton(ticket: Ticket, dashboardUrl: string | undefined): Button | undefined {
  const button = dashboardButton(ticket, dashboardUrl);
  return button && { ...button, action_id: queueActionId(ACTIONS.openInDashboard, ticket.id) };
}

function assignedLine(entry: ClockedTicket, options: QueueViewOptions): KnownBlock {
  const button = openButton(entry.ticket, options.dashboardUrl);
  return {
    type: 'section',
    text: md(ticketText(entry, options)),
    ...(button ? { accessory: button } : {}),
  };
}

function unassignedLine(entry: ClockedTicket, options: QueueViewOptions): KnownBlock[] {
  const assign: Button = {
    type: 'button',
    action_id: queueActionId(ACTIONS.assignToMe, entry.ticket.id),
    text: plain('Assign to me', LIMITS.buttonText),
    value: entry.ticket.id,
  };
  const open = openButton(entry.ticket, options.dashboardUrl);
  return [
    { type: 'section', text: md(ticketText(entry, options)) },
    {
      type: 'actions',
      block_id: `${QUEUE_BLOCKS.ticketActionsPrefix}${entry.ticket.id}`,
      elements: open ? [assign, open] : [assign],
    },
  ];
}

/**
 * What one triage channel's morning summary counts, from the open tickets it covers: how many
 * are open, unassigned, breached (any clock past its due time) and due today (a running or
 * warning clock due before the local day ends), and the oldest unassigned ones. Pure: the
 * clocks come from `ticketClocks`, the platform's own when it has them, else SLA_TARGETS.
 */
import type { Ticket } from '../../contract/schemas.ts';
import { type ServiceTargets, ticketClocks } from '../../contract/service-levels.ts';

/** Statuses a ticket is open in: the summary's tickets. */
export const OPEN_STATUSES = ['new', 'open', 'in_progress', 'waiting_on_requester'] as const;

const OPEN: ReadonlySet<string> = new Set(OPEN_STATUSES);

/** How many oldest unassigned tickets a summary links to. */
export const OLDEST_SHOWN = 5;

/** One channel's figures. */
export interface DigestSummary {
  open: number;
  unassigned: number;
  breached: number;
  dueToday: number;
  /** The oldest unassigned tickets (by creation), at most `OLDEST_SHOWN`. */
  oldestUnassigned: Ticket[];
}

/** What the counts need besides the tickets. */
export interface SummaryInputs {
  nowMs: number;
  /** The local day's end: a clock due before it is due today. */
  endOfDayMs: number;
  targets: ServiceTargets;
  warnAt: number;
  /** When the ticket was first answered, as the mirror saw it (targets' clocks only). */
  firstRespondedAtMs?: (ticket: Ticket) => number | undefined;
}

/** Whether the ticket counts as open (the status filter is checked again on each ticket). */
export function isOpenTicket(ticket: Pick<Ticket, 'status'>): boolean {
  return OPEN.has(ticket.status);
}

/** Counts the channel's open tickets; tickets not open are left out. */
export function summarise(tickets: readonly Ticket[], inputs: SummaryInputs): DigestSummary {
  const summary: DigestSummary = {
    open: 0,
    unassigned: 0,
    breached: 0,
    dueToday: 0,
    oldestUnassigned: [],
  };
  const unassigned: Ticket[] = [];
  for (const ticket of tickets) {
    if (!isOpenTicket(ticket)) continue;
    summary.open += 1;
    if (!ticket.assignee_email) {
      summary.unassigned += 1;
      unassigned.push(ticket);
    }
    const clocks = ticketClocks(ticket, {
      targets: inputs.targets,
      warnAt: inputs.warnAt,
      nowMs: inputs.nowMs,
      firstRespondedAtMs: inputs.firstRespondedAtMs?.(ticket),
    });
    if (clocks.some((clock) => clock.state === 'breached')) summary.breached += 1;
    // Counted apart: a ticket whose first response is breached may still have its resolution due today.
    if (
      clocks.some(
        (clock) =>
          (clock.state === 'running' || clock.state === 'warning') &&
          clock.dueAtMs < inputs.endOfDayMs,
      )
    ) {
      summary.dueToday += 1;
    }
  }
  summary.oldestUnassigned = unassigned
    .map((ticket) => ({ ticket, at: createdMs(ticket) }))
    .sort((a, b) => a.at - b.at || a.ticket.id.localeCompare(b.ticket.id))
    .slice(0, OLDEST_SHOWN)
    .map(({ ticket }) => ticket);
  return summary;
}

function createdMs(ticket: Ticket): number {
  const ms = Date.parse(ticket.created_at);
  return Number.isNaN(ms) ? Number.POSITIVE_INFINITY : ms;
}

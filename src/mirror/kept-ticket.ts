/**
 * The ticket as the mirror last read it, kept in its record, so that a look which reads a
 * change in the activity can draw the card from it instead of reading the ticket again: the
 * activity says the new status, priority or assignee, and a status change then costs one
 * request, not two. A change the activity does not name (the desk, the title) bumps
 * `updated_at` without an entry, so a kept ticket is trusted for a bounded time only, after
 * which the next change reads the ticket whole again. A ticket whose clocks the platform keeps
 * is read whole on a change of priority or the end of a pause, which move its due times.
 */
import type { Activity, Ticket } from '../servicedesk/index.ts';
import { hasPlatformClocks, ticketSchema } from '../servicedesk/index.ts';
import { MIRROR_TUNING } from './mirror-tuning.ts';

/** How long a kept ticket may stand in for a read (default 6 h). */
export const KEPT_TICKET_MS = MIRROR_TUNING.worker.keptTicketMs.value;

/** The record's text for a ticket read at `atMs`. */
export function keepTicket(ticket: Ticket, atMs: number): string {
  return JSON.stringify({ at: atMs, ticket });
}

/** The kept ticket, if the record holds one read less than `maxAgeMs` before `now`. */
export function keptTicket(
  text: string | undefined,
  now: number,
  maxAgeMs = KEPT_TICKET_MS,
): { at: number; ticket: Ticket } | undefined {
  if (!text) return undefined;
  try {
    const { at, ticket } = JSON.parse(text) as { at?: unknown; ticket?: unknown };
    const parsed = ticketSchema.safeParse(ticket);
    if (typeof at !== 'number' || !parsed.success || now - at >= maxAgeMs) return undefined;
    return { at, ticket: parsed.data };
  } catch {
    // A record written by another version, or damaged: read the ticket instead.
    return undefined;
  }
}

/**
 * The kept ticket with the changes the activity read since: entries after its `updated_at`
 * set the field they name. Undefined when it cannot be drawn: no `updated_at` to tell what it
 * holds, or an entry of a kind the card cannot follow.
 */
export function drawTicket(kept: Ticket, entries: readonly Activity[]): Ticket | undefined {
  const since = kept.updated_at ? Date.parse(kept.updated_at) : Number.NaN;
  if (Number.isNaN(since)) return undefined;
  let ticket = kept;
  const platform = hasPlatformClocks(kept);
  for (const entry of entries) {
    const at = Date.parse(entry.created_at);
    if (!(at > since)) continue;
    const to = entry.to ?? null;
    // The platform's own clocks move with a new priority and after a pause (by the time
    // paused): only a read says where to. A pause itself stops them, as the contract says.
    if (platform && (entry.type === 'priority_changed' || ticket.status === PAUSED)) {
      if (entry.type === 'priority_changed' || entry.type === 'status_changed') return undefined;
    }
    if (entry.type === 'status_changed' && to) {
      ticket = { ...ticket, status: to, ...(platform ? { sla_paused: to === PAUSED } : {}) };
    } else if (entry.type === 'priority_changed' && to) ticket = { ...ticket, priority: to };
    else if (entry.type === 'assigned' && isPerson(to) && isPerson(entry.from ?? null))
      ticket = { ...ticket, assignee_email: to };
    // A team assigned, or a kind the card cannot follow: the ticket is read whole.
    else if (entry.type !== 'message_added') return undefined;
    ticket = { ...ticket, updated_at: entry.created_at };
  }
  return ticket;
}

// The status the platform pauses its clocks in.
const PAUSED = 'waiting_on_requester';

// An assignee is a person's email or no one; the same entry kind also names teams.
const isPerson = (value: string | null): boolean => value === null || value.includes('@');

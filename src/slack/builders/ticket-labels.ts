/** Human labels for the platform's status and priority values. */
import type { Ticket } from '../../contract/schemas.ts';

const STATUS_LABELS: Record<string, string> = {
  new: ':new: New',
  open: ':large_blue_circle: Open',
  in_progress: ':hammer_and_wrench: In progress',
  waiting_on_requester: ':hourglass_flowing_sand: Waiting on requester',
  resolved: ':white_check_mark: Resolved',
  closed: ':lock: Closed',
};

const PRIORITY_LABELS: Record<string, string> = {
  low: 'Low',
  medium: 'Medium',
  high: ':small_orange_diamond: High',
  urgent: ':red_circle: Urgent',
};

// Unknown values come from a platform that grew a new state: show them, never fail.
const humanise = (value: string) => value.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());

/** The label of a status, with an emoji; unknown statuses are shown as written. */
export function statusLabel(status: Ticket['status']): string {
  return STATUS_LABELS[status] ?? humanise(status);
}

/** The label of a priority. */
export function priorityLabel(priority: Ticket['priority']): string {
  return PRIORITY_LABELS[priority] ?? humanise(priority);
}

/** Statuses after which a ticket needs nothing more from anyone. */
export const DONE_STATUSES: ReadonlySet<string> = new Set(['resolved', 'closed']);

/**
 * The emulator's service-level clocks ("Service-level clocks on tickets" in the API contract):
 * its demo policy, and the per-ticket bookkeeping from which the model shows
 * `first_response_due_at`, `resolution_due_at`, `first_responded_at` and `sla_paused`.
 *
 * A due time is the ticket's creation plus the policy's target for its priority, plus the time
 * the ticket spent waiting on its requester. While it waits the due times stand still (the
 * pause is not over, so not yet counted); when it resumes they move by the whole pause at once,
 * as the contract says. The first response's clock counts only the waiting before the first
 * response: once met, it no longer moves.
 */
import type { TicketPriority } from '../../src/contract/schemas.ts';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** The targets of one priority; null is no target (the field is then null). */
export interface PriorityTarget {
  firstResponseMs: number | null;
  resolutionMs: number | null;
}

/** The demo policy, the same on every desk (the contract's example). */
export const DEMO_SLA_POLICY: Readonly<Record<TicketPriority, PriorityTarget>> = {
  urgent: { firstResponseMs: 15 * MINUTE_MS, resolutionMs: 4 * HOUR_MS },
  high: { firstResponseMs: HOUR_MS, resolutionMs: 8 * HOUR_MS },
  medium: { firstResponseMs: 4 * HOUR_MS, resolutionMs: 3 * DAY_MS },
  low: { firstResponseMs: DAY_MS, resolutionMs: 5 * DAY_MS },
};

/** The status during which a ticket's clocks are paused. */
export const PAUSED_STATUS = 'waiting_on_requester';

/** What the model keeps of a ticket's clocks. */
export interface ServiceLevelState {
  /** The first public message by an agent or the AI agent, when there has been one. */
  firstRespondedMs: number | undefined;
  /** When the current pause began; undefined while not paused. */
  pausedSinceMs: number | undefined;
  /** Finished pauses, in all. */
  pausedMs: number;
  /** The part of the finished pauses that came before the first response. */
  pausedBeforeResponseMs: number;
}

/** The clock fields of a ticket as the API shows them. */
export interface ServiceLevelFields {
  first_response_due_at: string | null;
  resolution_due_at: string | null;
  first_responded_at: string | null;
  sla_paused: boolean;
}

/** A fresh ticket's state: never answered, never paused. */
export function newServiceLevelState(): ServiceLevelState {
  return {
    firstRespondedMs: undefined,
    pausedSinceMs: undefined,
    pausedMs: 0,
    pausedBeforeResponseMs: 0,
  };
}

/** Starts or ends a pause as the status changes (`atMs` is the change's time). */
export function onStatusChange(
  state: ServiceLevelState,
  status: string,
  atMs: number,
): ServiceLevelState {
  const paused = status === PAUSED_STATUS;
  if (paused && state.pausedSinceMs === undefined) return { ...state, pausedSinceMs: atMs };
  if (paused || state.pausedSinceMs === undefined) return state;
  const since = state.pausedSinceMs;
  const length = Math.max(0, atMs - since);
  // Only the waiting before the first response moved its due time.
  const responded = state.firstRespondedMs ?? atMs;
  const beforeResponse = Math.max(0, Math.min(atMs, responded) - since);
  return {
    ...state,
    pausedSinceMs: undefined,
    pausedMs: state.pausedMs + length,
    pausedBeforeResponseMs: state.pausedBeforeResponseMs + beforeResponse,
  };
}

/** Notes a public message by an agent or the AI agent; only the first one counts. */
export function onResponse(state: ServiceLevelState, atMs: number): ServiceLevelState {
  return state.firstRespondedMs === undefined ? { ...state, firstRespondedMs: atMs } : state;
}

/** The ticket's clock fields now (a priority change shows at once: nothing is stored of it). */
export function serviceLevelFields(
  state: ServiceLevelState,
  createdMs: number,
  priority: TicketPriority,
): ServiceLevelFields {
  const target = DEMO_SLA_POLICY[priority];
  const due = (targetMs: number | null, pausedMs: number) =>
    targetMs === null ? null : iso(createdMs + targetMs + pausedMs);
  return {
    first_response_due_at: due(target.firstResponseMs, state.pausedBeforeResponseMs),
    resolution_due_at: due(target.resolutionMs, state.pausedMs),
    first_responded_at: state.firstRespondedMs === undefined ? null : iso(state.firstRespondedMs),
    sla_paused: state.pausedSinceMs !== undefined,
  };
}

/** Whether two views of the clocks differ in a due time or the pause. */
export function dueTimesDiffer(a: ServiceLevelFields, b: ServiceLevelFields): boolean {
  return (
    a.first_response_due_at !== b.first_response_due_at ||
    a.resolution_due_at !== b.resolution_due_at ||
    a.sla_paused !== b.sla_paused
  );
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

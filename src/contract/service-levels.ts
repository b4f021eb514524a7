/**
 * Service-level clocks of a ticket: when its first response and its resolution are due, and
 * where each stands now. Pure: the clocks are derived from a ticket the app already holds (and
 * the first response the mirror saw), never from a request of their own.
 *
 * The platform's own clocks rule when it has them (`first_response_due_at`, `resolution_due_at`,
 * `first_responded_at`, `sla_paused`: "Service-level clocks on tickets" in the API contract);
 * else the targets configured in SLA_TARGETS; else a ticket has no clock.
 */
import { durationMs } from '../duration.ts';
import type { Ticket } from './schemas.ts';

/** The two clocks a ticket can run. */
export const CLOCK_KINDS = ['first_response', 'resolution'] as const;
/** One of `CLOCK_KINDS`. */
export type ClockKind = (typeof CLOCK_KINDS)[number];

/**
 * Where a clock stands: `running` before the warning point, `warning` from it (SLA_WARN_AT of
 * the time allowed), `breached` from the due time, `met` once answered or resolved, `paused`
 * while the ticket waits on its requester.
 */
export type ClockState = 'running' | 'warning' | 'breached' | 'met' | 'paused';

/** The targets of one desk and priority; a clock left out has no target. */
export interface ServiceTarget {
  firstResponseMs?: number | undefined;
  resolutionMs?: number | undefined;
}

/** Targets by `desk:priority`, where either part may be `*`. */
export type ServiceTargets = ReadonlyMap<string, ServiceTarget>;

/** One clock of a ticket, at one moment. */
export interface ServiceClock {
  kind: ClockKind;
  state: ClockState;
  /** When the clock started (the ticket's creation). */
  startMs: number;
  dueAtMs: number;
  /** When the clock reaches its warning point. */
  warnAtMs: number;
  /** Where the clock comes from: the platform's own, or SLA_TARGETS. */
  source: 'platform' | 'targets';
}

/** What `ticketClocks` needs besides the ticket. */
export interface ClockInputs {
  /** SLA_TARGETS, used only when the platform does not give the ticket's clocks. */
  targets: ServiceTargets;
  /** SLA_WARN_AT: the fraction of the time allowed at which a clock warns (0.8). */
  warnAt: number;
  nowMs: number;
  /**
   * When the ticket was first answered in public by an agent or the AI agent, as the mirror saw
   * it: the platform's `first_responded_at` wins when the ticket carries it.
   */
  firstRespondedAtMs?: number | undefined;
}

/** Statuses after which no clock runs. */
const DONE_STATUSES: ReadonlySet<string> = new Set(['resolved', 'closed']);

/** Whether the platform gives this ticket's clocks (it then has the fields, null or not). */
export function hasPlatformClocks(ticket: Ticket): boolean {
  return 'first_response_due_at' in ticket || 'resolution_due_at' in ticket;
}

/** The ticket's clocks now, first response first; empty when it has no target. */
export function ticketClocks(ticket: Ticket, inputs: ClockInputs): ServiceClock[] {
  const startMs = Date.parse(ticket.created_at);
  if (Number.isNaN(startMs)) return [];
  const platform = hasPlatformClocks(ticket);
  const due = platform ? platformDue(ticket) : targetDue(ticket, startMs, inputs.targets);
  const respondedMs = timeOrUndefined(ticket.first_responded_at) ?? inputs.firstRespondedAtMs;
  const done = DONE_STATUSES.has(ticket.status);
  const paused = platform ? ticket.sla_paused === true : ticket.status === 'waiting_on_requester';
  const clocks: ServiceClock[] = [];
  for (const kind of CLOCK_KINDS) {
    const dueAtMs = due[kind];
    if (dueAtMs === undefined) continue;
    const met = done || (kind === 'first_response' && respondedMs !== undefined);
    // A due time before the start (a clock the platform got wrong) warns at once, never before.
    const warnAtMs = startMs + Math.max(0, dueAtMs - startMs) * inputs.warnAt;
    const state: ClockState = met
      ? 'met'
      : paused
        ? 'paused'
        : inputs.nowMs >= dueAtMs
          ? 'breached'
          : inputs.nowMs >= warnAtMs
            ? 'warning'
            : 'running';
    clocks.push({
      kind,
      state,
      startMs,
      dueAtMs,
      warnAtMs,
      source: platform ? 'platform' : 'targets',
    });
  }
  return clocks;
}

/**
 * The next moment after `nowMs` at which one of these clocks changes state by time alone (its
 * warning point or its due time), so a card or a warning can be scheduled for it; undefined when
 * none will (every clock met, paused or breached).
 */
export function nextClockChangeMs(
  clocks: readonly ServiceClock[],
  nowMs: number,
): number | undefined {
  let next: number | undefined;
  for (const clock of clocks) {
    if (clock.state !== 'running' && clock.state !== 'warning') continue;
    const at = clock.state === 'running' ? clock.warnAtMs : clock.dueAtMs;
    if (at > nowMs && (next === undefined || at < next)) next = at;
  }
  return next;
}

/** The targets that apply to a desk and priority: the most specific entry of SLA_TARGETS. */
export function targetFor(
  targets: ServiceTargets,
  desk: string | null | undefined,
  priority: string,
): ServiceTarget | undefined {
  const slug = desk ?? '*';
  return (
    targets.get(`${slug}:${priority}`) ??
    targets.get(`${slug}:*`) ??
    targets.get(`*:${priority}`) ??
    targets.get('*:*')
  );
}

/** An example of SLA_TARGETS, for messages about it. */
export const SLA_TARGETS_EXAMPLE = 'it:urgent=15m/4h,it:high=1h/8h,*:medium=4h/3d';

/**
 * SLA_TARGETS as typed: `desk:priority=first response/resolution` entries, either part of the
 * key `*`, each time a number and a unit (m, h, d, w) or `-` for no target. Each problem quotes
 * the entry at fault and says how to write it; the entries that are right are kept.
 */
export function parseServiceTargets(value: string): {
  targets: Map<string, ServiceTarget>;
  problems: string[];
} {
  const targets = new Map<string, ServiceTarget>();
  const problems: string[] = [];
  const example = `e.g. ${SLA_TARGETS_EXAMPLE}`;
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const match = /^([^:=\s]+):([^:=\s]+)=([^/\s]+)\/([^/\s]+)$/.exec(entry);
    if (!match) {
      problems.push(`has "${entry}": write desk:priority=first response/resolution, ${example}`);
      continue;
    }
    const [, desk = '', priority = '', first = '', resolution = ''] = match;
    const key = `${desk.toLowerCase()}:${priority.toLowerCase()}`;
    const firstResponseMs = targetMs(first);
    const resolutionMs = targetMs(resolution);
    if (firstResponseMs === null || resolutionMs === null) {
      const bad = firstResponseMs === null ? first : resolution;
      problems.push(`has "${entry}": "${bad}" is not a time such as 15m, 4h, 3d or - (none)`);
    } else if (targets.has(key)) {
      problems.push(`names ${key} twice: one entry per desk and priority`);
    } else {
      targets.set(key, { firstResponseMs, resolutionMs });
    }
  }
  return { targets, problems };
}

/** A time such as `15m`; `-` is no target (undefined); null when it cannot be read. */
function targetMs(text: string): number | undefined | null {
  if (text === '-') return undefined;
  const ms = durationMs(text);
  return ms === undefined || ms <= 0 ? null : ms;
}

function platformDue(ticket: Ticket): Partial<Record<ClockKind, number>> {
  return {
    first_response: timeOrUndefined(ticket.first_response_due_at),
    resolution: timeOrUndefined(ticket.resolution_due_at),
  };
}

function targetDue(
  ticket: Ticket,
  startMs: number,
  targets: ServiceTargets,
): Partial<Record<ClockKind, number>> {
  const target = targetFor(targets, ticket.desk_id, ticket.priority);
  return {
    first_response:
      target?.firstResponseMs === undefined ? undefined : startMs + target.firstResponseMs,
    resolution: target?.resolutionMs === undefined ? undefined : startMs + target.resolutionMs,
  };
}

function timeOrUndefined(iso: string | null | undefined): number | undefined {
  if (!iso) return undefined;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? undefined : ms;
}

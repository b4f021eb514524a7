/**
 * What the change feed's two ways share: the scan as reported, the work one scan gathers, what
 * a way is given (`FeedScanContext`), and the two steps both take: telling the mirror of a
 * changed ticket (through `TicketHints`) and finding the linked tickets due soon. The ways are
 * `change-feed-filter.ts` (the platform honours `updated_after`) and `change-feed-sweep.ts`
 * (it does not: ranges are listed by `updated_at`); `change-feed.ts` runs the scans.
 */
import type { Ticket } from '../servicedesk/index.ts';
import type { ScheduledPoll, Stores, TicketFacts } from '../store/types.ts';
import type { FeedWay } from './change-feed-record.ts';
import { timeOf } from './iso-time.ts';
import { keepTicket } from './kept-ticket.ts';
import { initialMirrorState, type MirrorState } from './mirror-state.ts';
import type { TicketHints } from './ticket-hints.ts';
import type { ChangeFeedPlatform, MirrorLogger } from './types.ts';

/** How the feed runs: `auto` finds the way out; `filter` and `sweep` force one; `off` none. */
export type ChangeFeedMode = 'auto' | 'filter' | 'sweep' | 'off';

/** What the feed chose for one range of a sweep, and why. */
export interface RangeChoice {
  /** The range's desk (null: every desk). */
  desk: string | null;
  /** Looks due in the period at its linked tickets: what per-ticket polling costs. */
  looks: number;
  /** Pages a sweep reads (or would read), when known. */
  pages: number | undefined;
  choice: 'sweep' | 'looks';
  reason: string;
}

/** One scan, as reported to `onScan`. */
export interface ChangeFeedScan {
  way: FeedWay;
  startedAt: number;
  /** Platform requests it made. */
  requests: number;
  /** Linked tickets it found changed and hinted. */
  changed: number;
  /** Looks it made unnecessary (moved later). */
  postponed: number;
  /** The sweep's choice per range. */
  ranges: RangeChoice[];
  /** False when the budget, the platform or the page limit cut it short. */
  complete: boolean;
  /** A sweep that read the page of every linked ticket scheduled (it vouches like a filter scan). */
  watched?: boolean;
  /** When the budget has room again, if it deferred the scan. */
  retryAt?: number;
}

/** A linked ticket due in the coming period, with what the mirror and the feed know of it. */
export interface Candidate {
  poll: ScheduledPoll;
  state: MirrorState;
  facts: TicketFacts | undefined;
}

/** What one scan gathers on its way. */
export interface ScanWork {
  scan: ChangeFeedScan;
  /** Candidates found unchanged since the mirror's last look. */
  unchanged: Candidate[];
  /** Facts to keep at the end of the scan. */
  noted: Map<string, TicketFacts>;
  /** Facts to drop (the ticket was not where they said). */
  forgotten: Set<string>;
  /** Tickets this scan hinted: their looks are due now, never postponed. */
  hinted: Set<string>;
  /** A sweep meant to read every linked ticket's page, so its listings tell a message apart. */
  watching: boolean;
}

/** What a way of scanning is given: the feed's parts and settings, and its one warning. */
export interface FeedScanContext {
  platform: ChangeFeedPlatform;
  stores: Pick<Stores, 'schedule' | 'mirror' | 'feed' | 'links'>;
  logger: MirrorLogger;
  mode: ChangeFeedMode;
  hints: TicketHints;
  o: {
    sweep: 'cheaper' | 'always';
    overlapMs: number;
    clockMarginMs: number;
    maxPages: number;
    maxTickets: number;
    learnPerScan: number;
  };
  now(): number;
  /** Whether the platform was said to ignore `updated_after` (said once per process). */
  warnedIgnored: boolean;
  /** Told of every ticket a listing by `updated_after` returned. */
  onListed?: (tickets: readonly Ticket[]) => void;
}

export const BACKGROUND = { priority: 'background' } as const;
export const MAX_TIME = 8_640_000_000_000_000;

export function factsOf(ticket: Ticket, updatedAt: number): TicketFacts | undefined {
  const createdAt = timeOf(ticket.created_at);
  if (createdAt === undefined) return undefined;
  return { deskId: ticket.desk_id ?? null, createdAt, updatedAt, fields: fieldsOf(ticket) };
}

/** The fields whose change the mirror announces, as one text to compare. */
export function fieldsOf(ticket: Ticket): string {
  return JSON.stringify([ticket.status, ticket.priority, ticket.assignee_email ?? null]);
}

/**
 * Whether the listed ticket's status is not the one the mirror last read. A look that read the
 * messages alone (the first after a write from Slack, or one a message hint asked for) is later
 * than a status change that came with the message but did not see it: the record shows it.
 */
export function statusMoved(state: MirrorState | undefined, ticket: Ticket): boolean {
  return state?.status !== undefined && ticket.status !== state.status;
}

/**
 * Hints a ticket the mirror has not looked at since `updatedAt`, or whose listed status is not
 * the one it last read: as a message alone when the listing shows the status, priority and
 * assignee the feed saw before (`known`), and not at all when the change is most likely the
 * app's own write, which the first look after it reads. True when a thread follows it (its
 * facts are worth keeping).
 */
export async function tell(
  ctx: FeedScanContext,
  ticketId: string,
  updatedAt: number,
  work: ScanWork,
  seenAs: {
    listed?: Ticket;
    known?: TicketFacts | undefined;
    state?: MirrorState;
    /** The feed's first listing, which compares with all the mirror read (`lastRead`). */
    warm?: boolean;
  } = {},
): Promise<boolean> {
  const { listed, known, warm } = seenAs;
  const state = seenAs.state ?? (await ctx.stores.mirror.state(ticketId));
  const margin = ctx.o.clockMarginMs;
  const seen = warm
    ? updatedAt <= lastRead(state ?? initialMirrorState(), listed, margin)
    : state && updatedAt <= state.lastPolledAt - margin;
  const moved = listed !== undefined && statusMoved(state, listed);
  if (seen && !moved) {
    // A ticket the mirror keeps no record of may have no thread: its facts are not worth keeping.
    return state !== undefined || (await ctx.stores.links.threadsForTicket(ticketId)).length > 0;
  }
  // Only a scan that sees every change (by updated_after, or a sweep of every linked ticket's
  // page) may stand in for the platform's message hints (a ticket sent them is looked at only
  // on hints).
  const messageOnly =
    (work.scan.way === 'filter' || work.watching) &&
    !moved &&
    listed !== undefined &&
    known?.fields !== undefined &&
    known.fields === fieldsOf(listed);
  const ownWrite =
    state !== undefined &&
    state.slackWriteAt > state.lastPolledAt &&
    updatedAt <= state.slackWriteAt + margin;
  // The first look after a write from Slack is never moved, and reads what the write changed.
  if ((messageOnly || warm) && ownWrite) return true;
  // The listing is the ticket after the change: the look draws the card from it, not a read.
  if (listed !== undefined && state !== undefined && !messageOnly)
    await ctx.stores.mirror.keepTicket(ticketId, keepTicket(listed, ctx.now()));
  if ((await ctx.hints.hint(ticketId, { messageOnly })) === 'unlinked') return false;
  work.hinted.add(ticketId);
  work.scan.changed += 1;
  return true;
}

/**
 * The latest change of a ticket the mirror has read, as far as its record tells (platform time,
 * ms): its last look (less the clocks' margin), the latest activity it read unless a write from
 * Slack set that since, and for a ticket never looked at, its creation as listed: a ticket
 * linked and changed by nothing since is not a change.
 */
export function lastRead(state: MirrorState, listed: Ticket | undefined, margin: number): number {
  let at = state.lastPolledAt - margin;
  if (state.slackWriteAt <= state.lastPolledAt) at = Math.max(at, state.lastActivityAt);
  if (state.lastPolledAt <= 0) at = Math.max(at, timeOf(listed?.created_at) ?? 0);
  return at;
}

/**
 * The linked tickets due by `until` that the mirror has looked at before (only those can be
 * found unchanged), with their state and facts.
 */
export async function dueCandidates(
  ctx: FeedScanContext,
  until: number,
  lookedAtOnly: boolean,
): Promise<Candidate[]> {
  const polls = await ctx.stores.schedule.dueWithin(until, ctx.o.maxTickets);
  const ids = polls.map((poll) => poll.ticketId);
  const [states, facts] = await Promise.all([
    Promise.all(ids.map((id) => ctx.stores.mirror.state(id))),
    ctx.stores.feed.facts(ids),
  ]);
  const candidates: Candidate[] = [];
  polls.forEach((poll, index) => {
    const state = states[index];
    if (!state || (lookedAtOnly && state.lastPolledAt <= 0)) return;
    candidates.push({ poll, state, facts: facts.get(poll.ticketId) });
  });
  return candidates;
}

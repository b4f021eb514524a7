/**
 * The change feed: List tickets asked, once a period, what changed across many tickets, so the
 * mirror looks only at those, and the looks the schedule had due at the others are moved later
 * as if made. It never posts: a changed linked ticket is handed to `TicketHints`, whose look is
 * an ordinary poll through the API.
 *
 * Two ways, whichever the platform allows (found out at start without creating anything, asked
 * again now and then, or set by configuration):
 * - filter: the platform honours `updated_after`. One request a scan returns the tickets
 *   changed since the cursor. `updated_at` has millisecond resolution and two changes may share
 *   one, so the cursor stays a little behind the newest change seen and what was seen already is
 *   skipped.
 * - sweep: tickets carry `updated_at` but the filter is ignored. The linked tickets due in the
 *   coming period are grouped by range (desk, oldest creation) and a range is listed only where
 *   that costs fewer requests than their looks (see `sweep-plan.ts`); a ticket listed with an
 *   `updated_at` the mirror has not looked past is changed.
 * A ticket counts as unchanged only when its last change is older than the mirror's last look
 * at it (less a margin for the two clocks), so nothing the mirror has not seen is ever skipped.
 * Per-ticket polling stays the floor: a scan that fails or is cut short moves nothing, a
 * ticket is looked at for real at least once per idle interval, and a first look after a write
 * from Slack is never moved.
 *
 * Several replicas: a scan is a job one replica claims per period (a lease in the claims
 * store), and what the scans know (cursor, ranges, facts of tickets) lives in the shared store.
 * Every request is background work in the shared budget; the period follows the pacer's stretch.
 */
import { type Sleep, sleep } from '../clock.ts';
import { isServiceDeskError, type Ticket } from '../servicedesk/index.ts';
import type { ScheduledPoll, Stores, TicketFacts } from '../store/types.ts';
import type { BudgetPacer } from './budget-pacer.ts';
import { detectFeedWay } from './change-feed-detect.ts';
import {
  type FeedRecord,
  type FeedWay,
  feedRecordData,
  readFeedRecord,
} from './change-feed-record.ts';
import { BudgetDeferredError } from './errors.ts';
import type { MirrorState } from './mirror-state.ts';
import type { MirrorLogger } from './mirror-worker.ts';
import { AdaptivePlanner, type Pace, type PollPlanner, RELAXED_PACE } from './poll-planner.ts';
import { PAGE_SIZE, pageOf, pagesFor, planSweep, type SweepPlan } from './sweep-plan.ts';
import { TicketHints } from './ticket-hints.ts';
import type { ChangeFeedPlatform } from './types.ts';

/** How the feed runs: `auto` finds the way out; `filter` and `sweep` force one; `off` none. */
export type ChangeFeedMode = 'auto' | 'filter' | 'sweep' | 'off';

/** Options of the change feed. */
export interface ChangeFeedOptions {
  platform: ChangeFeedPlatform;
  stores: Pick<Stores, 'claims' | 'links' | 'schedule' | 'mirror' | 'feed'>;
  logger: MirrorLogger;
  /** Default `auto`. */
  mode?: ChangeFeedMode;
  /** Where changed tickets go (default: hints on the same stores and clock). */
  hints?: TicketHints;
  /** Sets the period by the budget (default: none, the relaxed pace). */
  pacer?: BudgetPacer;
  /** The mirror's rule, by which a look made unnecessary is moved (default: the adaptive rule). */
  planner?: PollPlanner;
  /**
   * `cheaper` (default): a range is swept only where that costs fewer requests than the looks
   * due; `always`: every linked ticket scheduled is swept each period, whatever it costs (tests
   * and benchmarks that turn per-ticket polling off).
   */
  sweep?: 'cheaper' | 'always';
  /** The scan period at a stretch of 1 (default 30 s); it follows the pacer's stretch... */
  periodMs?: number;
  /**
   * ...but a scan by `updated_after`, one request that tells of every change, never stretches
   * past this (default 25 s, as it is what keeps threads live; a minute when `pushed`)...
   */
  filterPeriodMs?: number;
  /** The platform's webhooks are set up: the feed is the net under them, and may be slower. */
  pushed?: boolean;
  /** ...within these bounds (default 5 s and 10 min). */
  minPeriodMs?: number;
  maxPeriodMs?: number;
  /** How often `auto` asks the platform again (default 6 h; 10 min while it had no tickets). */
  recheckMs?: number;
  unknownRecheckMs?: number;
  /** How long a scan's claim lasts; longer than a scan takes (default 60 s). */
  leaseMs?: number;
  /** How far the cursor stays behind the newest change seen (default 2 s). */
  overlapMs?: number;
  /** How far the platform's clock may be from the app's (default 1 s). */
  clockMarginMs?: number;
  /** Pages one scan reads at most, per listing (default 20). */
  maxPages?: number;
  /** Tickets one scan weighs at most (default 1,000). */
  maxTickets?: number;
  /** Linked tickets a sweep learns with Get ticket per scan (default 20). */
  learnPerScan?: number;
  /** A ticket not looked at for real for this long is not moved (default: the idle interval). */
  trustMs?: number;
  /** Told after every scan this replica made (metrics, benchmarks). */
  onScan?: (scan: ChangeFeedScan) => void;
  now?: () => number;
  /** Waits; must settle (resolve or reject) when the signal aborts. */
  sleep?: Sleep;
  random?: () => number;
}

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
  /** When the budget has room again, if it deferred the scan. */
  retryAt?: number;
}

/** A linked ticket due in the coming period, with what the mirror and the feed know of it. */
interface Candidate {
  poll: ScheduledPoll;
  state: MirrorState;
  facts: TicketFacts | undefined;
}

/** What one scan gathers on its way. */
interface ScanWork {
  scan: ChangeFeedScan;
  /** Candidates found unchanged since the mirror's last look. */
  unchanged: Candidate[];
  /** Facts to keep at the end of the scan. */
  noted: Map<string, TicketFacts>;
  /** Facts to drop (the ticket was not where they said). */
  forgotten: Set<string>;
  /** Tickets this scan hinted: their looks are due now, never postponed. */
  hinted: Set<string>;
}

const SCAN_CLAIM = 'change-feed:scan';
const BACKGROUND = { priority: 'background' } as const;
const MAX_TIME = 8_640_000_000_000_000;

function timeOf(iso: string | null | undefined): number | undefined {
  const ms = iso ? Date.parse(iso) : Number.NaN;
  return Number.isNaN(ms) ? undefined : ms;
}

function factsOf(ticket: Ticket, updatedAt: number): TicketFacts | undefined {
  const createdAt = timeOf(ticket.created_at);
  if (createdAt === undefined) return undefined;
  return { deskId: ticket.desk_id ?? null, createdAt, updatedAt, fields: fieldsOf(ticket) };
}

/** The fields whose change the mirror announces, as one text to compare. */
function fieldsOf(ticket: Ticket): string {
  return JSON.stringify([ticket.status, ticket.priority, ticket.assignee_email ?? null]);
}

/** Tells the mirror which linked tickets changed, a period at a time; see the file comment. */
export class ChangeFeed {
  readonly #platform: ChangeFeedPlatform;
  readonly #stores: ChangeFeedOptions['stores'];
  readonly #logger: MirrorLogger;
  readonly #mode: ChangeFeedMode;
  readonly #hints: TicketHints;
  readonly #pacer: BudgetPacer | undefined;
  readonly #planner: PollPlanner;
  readonly #onScan: ((scan: ChangeFeedScan) => void) | undefined;
  readonly #trustMs: number | undefined;
  /** The way this replica's last scan went, which sets the period of its next. */
  #way: FeedWay = 'unknown';
  readonly #o: Required<
    Omit<
      ChangeFeedOptions,
      | 'platform'
      | 'stores'
      | 'logger'
      | 'mode'
      | 'hints'
      | 'pacer'
      | 'planner'
      | 'onScan'
      | 'trustMs'
    >
  >;
  #running = false;
  #loop: Promise<void> | undefined;
  #idle: AbortController | undefined;
  #warnedIgnored = false;

  constructor(options: ChangeFeedOptions) {
    this.#platform = options.platform;
    this.#stores = options.stores;
    this.#logger = options.logger;
    this.#mode = options.mode ?? 'auto';
    this.#pacer = options.pacer;
    this.#planner = options.planner ?? new AdaptivePlanner();
    this.#onScan = options.onScan;
    this.#trustMs = options.trustMs;
    const now = options.now ?? Date.now;
    this.#hints = options.hints ?? new TicketHints({ stores: options.stores, now });
    this.#o = {
      sweep: options.sweep ?? 'cheaper',
      periodMs: options.periodMs ?? 30_000,
      filterPeriodMs: options.filterPeriodMs ?? (options.pushed ? 60_000 : 25_000),
      pushed: options.pushed ?? false,
      minPeriodMs: options.minPeriodMs ?? 5_000,
      maxPeriodMs: options.maxPeriodMs ?? 600_000,
      recheckMs: options.recheckMs ?? 6 * 3_600_000,
      unknownRecheckMs: options.unknownRecheckMs ?? 600_000,
      leaseMs: options.leaseMs ?? 60_000,
      overlapMs: options.overlapMs ?? 2_000,
      clockMarginMs: options.clockMarginMs ?? 1_000,
      maxPages: options.maxPages ?? 20,
      maxTickets: options.maxTickets ?? 1_000,
      learnPerScan: options.learnPerScan ?? 20,
      now,
      sleep: options.sleep ?? sleep,
      random: options.random ?? Math.random,
    };
  }

  /** How the feed was configured to run. */
  get mode(): ChangeFeedMode {
    return this.#mode;
  }

  /** Starts scanning until `stop()`; does nothing when the mode is `off`. */
  start(): void {
    if (this.#running || this.#mode === 'off') return;
    this.#running = true;
    this.#loop = this.#run();
  }

  /** Stops after the scan under way. */
  async stop(): Promise<void> {
    this.#running = false;
    this.#idle?.abort();
    await this.#loop;
    this.#loop = undefined;
  }

  /**
   * Scans once if no replica has scanned this period (claiming the period's scan); undefined
   * when another replica holds it or has made it, or the mode is `off`.
   */
  async scanOnce(): Promise<ChangeFeedScan | undefined> {
    if (this.#mode === 'off') return undefined;
    const pace = (await this.#pacer?.refreshIfDue()) ?? RELAXED_PACE;
    const period = this.#periodMs(pace);
    const { claims } = this.#stores;
    const claim = await claims.claim(SCAN_CLAIM, this.#o.leaseMs);
    if (claim.state !== 'claimed') return undefined;
    let scan: ChangeFeedScan;
    try {
      scan = await this.#scan(pace, period);
    } catch (error) {
      await claims.release(SCAN_CLAIM, claim.token).catch(() => undefined);
      throw error;
    }
    // Done for this period (as long as the way the scan went sets it): the other replicas find
    // the claim done until the next one.
    const quietUntil = Math.max(scan.startedAt + this.#periodMs(pace), scan.retryAt ?? 0);
    await claims.complete(
      SCAN_CLAIM,
      claim.token,
      undefined,
      Math.max(1, quietUntil - this.#now()),
    );
    this.#logger.debug(
      {
        way: scan.way,
        requests: scan.requests,
        changed: scan.changed,
        postponed: scan.postponed,
        complete: scan.complete,
      },
      'change feed scanned',
    );
    this.#onScan?.(scan);
    return scan;
  }

  async #run(): Promise<void> {
    while (this.#running) {
      let waitMs = this.#o.periodMs;
      try {
        const scan = await this.scanOnce();
        const period = this.#periodMs(this.#pacer?.pace() ?? RELAXED_PACE);
        // A replica that did not scan looks again soon, so the period's scan is not missed
        // when the replica that made the last one is gone.
        waitMs = scan
          ? Math.max(period, (scan.retryAt ?? 0) - this.#now())
          : Math.max(1_000, period / 4);
      } catch (error) {
        this.#logger.warn({ err: error }, 'change feed scan failed');
      }
      if (!this.#running) break;
      await this.#sleep(Math.round(waitMs * (0.9 + 0.2 * this.#o.random())));
    }
  }

  async #sleep(ms: number): Promise<void> {
    const idle = new AbortController();
    this.#idle = idle;
    try {
      await this.#o.sleep(ms, idle.signal);
    } catch {
      // Woken by stop().
    } finally {
      this.#idle = undefined;
    }
  }

  #now(): number {
    return this.#o.now();
  }

  #periodMs(pace: Pace): number {
    const stretched = this.#o.periodMs * Math.max(0, pace.stretch);
    const longest = this.#way === 'filter' ? this.#o.filterPeriodMs : this.#o.maxPeriodMs;
    return Math.round(Math.min(longest, Math.max(this.#o.minPeriodMs, stretched)));
  }

  async #scan(pace: Pace, period: number): Promise<ChangeFeedScan> {
    const startedAt = this.#now();
    const record = readFeedRecord((await this.#stores.feed.state())?.data);
    const scan: ChangeFeedScan = {
      way: record.way ?? 'unknown',
      startedAt,
      requests: 0,
      changed: 0,
      postponed: 0,
      ranges: [],
      complete: true,
    };
    const work: ScanWork = {
      scan,
      unchanged: [],
      noted: new Map(),
      forgotten: new Set(),
      hinted: new Set(),
    };
    try {
      scan.way = await this.#findWay(record, scan);
      this.#way = scan.way;
      if (scan.way === 'filter') await this.#filter(record, work, period);
      else if (scan.way === 'sweep') await this.#sweep(record, work, period);
    } catch (error) {
      if (error instanceof BudgetDeferredError) {
        scan.complete = false;
        scan.retryAt = error.retryAt;
      } else if (isServiceDeskError(error)) {
        scan.complete = false;
        this.#logger.warn({ err: error, way: scan.way }, 'change feed scan cut short');
      } else {
        throw error;
      }
    }
    await this.#stores.feed.noteFacts(work.noted);
    await this.#stores.feed.forgetFacts([...work.forgotten]);
    // Only a whole scan vouches for the tickets it did not report.
    if (scan.complete) await this.#postpone(work, pace);
    await this.#stores.feed.saveState({ scannedAt: startedAt, data: feedRecordData(record) });
    return scan;
  }

  /** The way to scan by: the configured one, or the platform's as last found out. */
  async #findWay(record: FeedRecord, scan: ChangeFeedScan): Promise<FeedWay> {
    const now = this.#now();
    if (this.#mode === 'filter' || this.#mode === 'sweep') {
      if (record.way !== this.#mode) this.#switchTo(record, this.#mode, now);
      return this.#mode;
    }
    const recheck = record.way === 'unknown' ? this.#o.unknownRecheckMs : this.#o.recheckMs;
    if (record.way !== undefined && now - record.detectedAt < recheck) return record.way;
    const found = await detectFeedWay(this.#platform, now);
    scan.requests += found.requests;
    if (found.way !== record.way) {
      this.#logger.info({ way: found.way, was: record.way ?? null }, 'change feed: way found out');
    }
    this.#switchTo(record, found.way, now);
    return found.way;
  }

  #switchTo(record: FeedRecord, way: FeedWay, now: number): void {
    if (record.way !== way && (record.way === 'filter' || way === 'filter')) {
      // A cursor only vouches for changes while every scan since it was a filtered one.
      record.cursor = undefined;
      record.since = undefined;
    }
    record.way = way;
    record.detectedAt = now;
  }

  /** One `updated_after` request (more when over a hundred changed) from the cursor. */
  async #filter(record: FeedRecord, work: ScanWork, period: number): Promise<void> {
    const { scan } = work;
    const now = this.#now();
    if (record.cursor === undefined) {
      // Changes from now on; what came before is the per-ticket looks' to find.
      record.cursor = now - this.#o.overlapMs - this.#o.clockMarginMs;
      record.since = record.cursor;
    }
    const cursor = record.cursor;
    const items: Ticket[] = [];
    let whole = false;
    for (let page = 1; page <= this.#o.maxPages; page++) {
      const envelope = await this.#platform.listTickets(
        { updated_after: new Date(cursor).toISOString(), page, page_size: PAGE_SIZE },
        BACKGROUND,
      );
      scan.requests += 1;
      items.push(...envelope.items);
      const total = envelope.total_count;
      if (envelope.items.length < PAGE_SIZE || (total !== null && page * PAGE_SIZE >= total)) {
        whole = true;
        break;
      }
    }
    const seen = await this.#stores.feed.facts([...new Set(items.map((ticket) => ticket.id))]);
    let newest = cursor;
    let unfiltered = 0;
    for (const ticket of items) {
      const updatedAt = timeOf(ticket.updated_at);
      if (updatedAt === undefined) continue;
      if (updatedAt <= cursor) {
        unfiltered += 1;
        continue;
      }
      newest = Math.max(newest, updatedAt);
      // Seen by the last scan, in the overlap behind its cursor.
      const known = seen.get(ticket.id);
      if (known?.updatedAt === updatedAt) continue;
      if (await this.#tell(ticket.id, updatedAt, work, { listed: ticket, known })) {
        const facts = factsOf(ticket, updatedAt);
        if (facts) work.noted.set(ticket.id, facts);
      }
    }
    if (unfiltered > 0) this.#filterIgnored(record, unfiltered);
    record.cursor = Math.max(cursor, newest - this.#o.overlapMs);
    if (!whole) {
      // More changed than a scan reads: those not read are the per-ticket looks' to find.
      scan.complete = false;
      record.since = record.cursor;
      this.#logger.warn(
        { pages: this.#o.maxPages, cursor: new Date(cursor).toISOString() },
        'change feed: more tickets changed than one scan reads; the rest is left to per-ticket looks',
      );
      return;
    }
    const since = record.since;
    if (since === undefined) return;
    const due = await this.#candidates(this.#now() + period, true);
    const margin = this.#o.clockMarginMs;
    for (const candidate of due) {
      const lookedAt = candidate.state.lastPolledAt - margin;
      // Every change after `since` was reported, and a reported one left its time in the facts.
      const reported = work.noted.get(candidate.poll.ticketId) ?? candidate.facts;
      if (lookedAt >= since && (reported?.updatedAt ?? 0) <= lookedAt) {
        work.unchanged.push(candidate);
      }
    }
  }

  #filterIgnored(record: FeedRecord, count: number): void {
    if (!this.#warnedIgnored) {
      this.#warnedIgnored = true;
      this.#logger.warn(
        { tickets: count, mode: this.#mode },
        'change feed: List tickets returned tickets unchanged since updated_after; the platform seems to ignore it',
      );
    }
    // Found out again at the next scan (a forced filter stays: the configuration says so).
    if (this.#mode === 'auto') record.detectedAt = 0;
  }

  /**
   * Hints a ticket the mirror has not looked at since `updatedAt`, or whose listed status is not
   * the one it last read: as a message alone when the listing shows the status, priority and
   * assignee the feed saw before (`known`), and not at all when the change is most likely the
   * app's own write, which the first look after it reads. True when a thread follows it (its
   * facts are worth keeping).
   */
  async #tell(
    ticketId: string,
    updatedAt: number,
    work: ScanWork,
    seenAs: { listed?: Ticket; known?: TicketFacts | undefined; state?: MirrorState } = {},
  ): Promise<boolean> {
    const { listed, known } = seenAs;
    const state = seenAs.state ?? (await this.#stores.mirror.state(ticketId));
    const margin = this.#o.clockMarginMs;
    const seen = state && updatedAt <= state.lastPolledAt - margin;
    const moved = listed !== undefined && statusMoved(state, listed);
    if (seen && !moved) return true;
    // Only a scan by updated_after sees every change, so only its message hints may stand in
    // for the platform's own (a ticket sent message hints is looked at only on hints).
    const messageOnly =
      work.scan.way === 'filter' &&
      !moved &&
      listed !== undefined &&
      known?.fields !== undefined &&
      known.fields === fieldsOf(listed);
    const ownWrite =
      state !== undefined &&
      state.slackWriteAt > state.lastPolledAt &&
      updatedAt <= state.slackWriteAt + margin;
    if (messageOnly && ownWrite) return true;
    if ((await this.#hints.hint(ticketId, { messageOnly })) === 'unlinked') return false;
    work.hinted.add(ticketId);
    work.scan.changed += 1;
    return true;
  }

  /**
   * The linked tickets due by `until` that the mirror has looked at before (only those can be
   * found unchanged), with their state and facts.
   */
  async #candidates(until: number, lookedAtOnly: boolean): Promise<Candidate[]> {
    const polls = await this.#stores.schedule.dueWithin(until, this.#o.maxTickets);
    const ids = polls.map((poll) => poll.ticketId);
    const [states, facts] = await Promise.all([
      Promise.all(ids.map((id) => this.#stores.mirror.state(id))),
      this.#stores.feed.facts(ids),
    ]);
    const candidates: Candidate[] = [];
    polls.forEach((poll, index) => {
      const state = states[index];
      if (!state || (lookedAtOnly && state.lastPolledAt <= 0)) return;
      candidates.push({ poll, state, facts: facts.get(poll.ticketId) });
    });
    return candidates;
  }

  /** Lists the ranges where that pays, and learns the linked tickets it knows nothing of. */
  async #sweep(record: FeedRecord, work: ScanWork, period: number): Promise<void> {
    const always = this.#o.sweep === 'always';
    const now = this.#now();
    const candidates = await this.#candidates(always ? MAX_TIME : now + period, !always);
    const unknown = new Map<string, Candidate>();
    const ranges = new Map<string, Candidate[]>();
    for (const candidate of candidates) {
      if (!candidate.facts) {
        unknown.set(candidate.poll.ticketId, candidate);
        continue;
      }
      const desk = candidate.facts.deskId ?? '';
      ranges.set(desk, [...(ranges.get(desk) ?? []), candidate]);
    }
    for (const [desk, group] of ranges) {
      const createdAts = group.map((candidate) => (candidate.facts as TicketFacts).createdAt);
      const plan = planSweep(createdAts, record.ranges[desk], { always, now });
      const choice: RangeChoice = {
        desk: desk || null,
        looks: plan.looks,
        pages: plan.sweep ? plan.estimate : plan.pages,
        choice: plan.sweep ? 'sweep' : 'looks',
        reason: plan.reason,
      };
      work.scan.ranges.push(choice);
      if (plan.sweep) await this.#readRange(record, desk, plan, group, unknown, work, choice);
      this.#logger.debug({ ...choice }, 'change feed: range weighed');
    }
    // The rest are learnt one by one: a Get ticket in place of the look each is due for.
    let learnt = 0;
    for (const candidate of unknown.values()) {
      if (learnt >= this.#o.learnPerScan) break;
      learnt += 1;
      const ticket = await this.#platform.getTicket(candidate.poll.ticketId, BACKGROUND);
      work.scan.requests += 1;
      await this.#judge(candidate, ticket, work);
    }
  }

  /** Reads a range's planned pages and judges every linked ticket on them. */
  async #readRange(
    record: FeedRecord,
    desk: string,
    plan: Extract<SweepPlan, { sweep: true }>,
    group: Candidate[],
    unknown: Map<string, Candidate>,
    work: ScanWork,
    choice: RangeChoice,
  ): Promise<void> {
    const byId = new Map(group.map((candidate) => [candidate.poll.ticketId, candidate]));
    const found = new Set<string>();
    const known = record.ranges[desk];
    const picked = plan.pages !== 'all';
    const firsts = picked && known ? [...known.firsts] : [];
    const queue = picked ? [...plan.pages] : [1];
    const expected = new Map(
      picked && known
        ? group.map((c) => [c.poll.ticketId, pageOf(known, (c.facts as TicketFacts).createdAt)])
        : [],
    );
    const read = new Set<number>();
    let total: number | undefined;
    let whole = false;
    let stale = false;
    while (queue.length > 0) {
      const page = queue.shift() as number;
      if (read.has(page)) continue;
      read.add(page);
      const envelope = await this.#platform.listTickets(
        {
          ...(desk ? { desk_id: desk } : {}),
          created_after: new Date(plan.after).toISOString(),
          page,
          page_size: PAGE_SIZE,
        },
        BACKGROUND,
      );
      work.scan.requests += 1;
      const { items } = envelope;
      total = envelope.total_count ?? undefined;
      const first = timeOf(items[0]?.created_at);
      // A page that no longer starts where it did: tickets left the range and pages moved.
      if (picked && first !== undefined && firsts[page - 1] !== undefined) {
        stale ||= firsts[page - 1] !== first;
      }
      if (first !== undefined) firsts[page - 1] = first;
      await this.#judgePage(items, byId, unknown, found, work);
      const last = items.length < PAGE_SIZE || (total !== undefined && page * PAGE_SIZE >= total);
      if (!picked) {
        const left = group.filter((candidate) => !found.has(candidate.poll.ticketId)).length;
        if (last) whole = true;
        else if (page >= this.#o.maxPages) work.scan.complete = false;
        else if (
          plan.stopIfDearer &&
          page === 1 &&
          total !== undefined &&
          pagesFor(total) - 1 >= left
        ) {
          choice.choice = 'looks';
          choice.pages = pagesFor(total);
          choice.reason = `page 1 showed ${pagesFor(total)} page(s) for ${plan.looks} look(s)`;
        } else queue.push(page + 1);
        continue;
      }
      // A due ticket expected here but newer than the last on this full page is on the next
      // one (the range grew), as long as reading it still costs fewer requests than the looks.
      const lastAt = timeOf(items.at(-1)?.created_at);
      const spill = group.some((candidate) => {
        const createdAt = (candidate.facts as TicketFacts).createdAt;
        return (
          !found.has(candidate.poll.ticketId) &&
          expected.get(candidate.poll.ticketId) === page &&
          lastAt !== undefined &&
          createdAt > lastAt
        );
      });
      if (spill) {
        for (const candidate of group) {
          if (expected.get(candidate.poll.ticketId) === page) {
            expected.set(candidate.poll.ticketId, page + 1);
          }
        }
      }
      if (spill && items.length === PAGE_SIZE && read.size + queue.length < plan.looks - 1) {
        queue.push(page + 1);
      }
    }
    if (choice.choice === 'sweep') choice.pages = read.size;
    const missing = group.filter((candidate) => !found.has(candidate.poll.ticketId));
    if (!picked && !whole) {
      // Not read to the end: only the total is worth keeping.
      if (total !== undefined) {
        record.ranges[desk] = { after: plan.after, total, firsts: [], checkedAt: this.#now() };
      }
      return;
    }
    for (const candidate of missing) {
      // Not where its facts put it: moved to another desk (a change) or gone; learnt again.
      work.forgotten.add(candidate.poll.ticketId);
      if (!picked) await this.#tell(candidate.poll.ticketId, Number.MAX_SAFE_INTEGER, work);
    }
    record.ranges[desk] = {
      after: plan.after,
      total: total ?? known?.total ?? 0,
      firsts: stale || (picked && missing.length > 0) ? [] : firsts,
      checkedAt: this.#now(),
    };
  }

  /** Judges the linked tickets of one page: those due, and others the feed knows are linked. */
  async #judgePage(
    items: Ticket[],
    byId: Map<string, Candidate>,
    unknown: Map<string, Candidate>,
    found: Set<string>,
    work: ScanWork,
  ): Promise<void> {
    const others = items.filter((ticket) => !byId.has(ticket.id) && !unknown.has(ticket.id));
    const linked = await this.#stores.feed.facts(others.map((ticket) => ticket.id));
    for (const ticket of items) {
      const candidate = byId.get(ticket.id) ?? unknown.get(ticket.id);
      if (candidate) {
        found.add(ticket.id);
        unknown.delete(ticket.id);
        await this.#judge(candidate, ticket, work);
        continue;
      }
      const facts = linked.get(ticket.id);
      const updatedAt = timeOf(ticket.updated_at);
      // A linked ticket not due: free to check, as the page is read anyway.
      if (!facts || updatedAt === undefined || updatedAt <= facts.updatedAt) continue;
      await this.#tell(ticket.id, updatedAt, work, { listed: ticket, known: facts });
      work.noted.set(ticket.id, factsOf(ticket, updatedAt) ?? { ...facts, updatedAt });
    }
  }

  /** A due linked ticket as the platform has it now: changed (hinted) or unchanged. */
  async #judge(candidate: Candidate, ticket: Ticket, work: ScanWork): Promise<void> {
    const updatedAt = timeOf(ticket.updated_at);
    if (updatedAt === undefined) return;
    const facts = factsOf(ticket, updatedAt);
    if (facts) work.noted.set(ticket.id, facts);
    const { state } = candidate;
    const seen = updatedAt <= state.lastPolledAt - this.#o.clockMarginMs;
    if (!seen || statusMoved(state, ticket)) {
      await this.#tell(ticket.id, updatedAt, work, {
        listed: ticket,
        known: candidate.facts,
        state,
      });
      return;
    }
    work.unchanged.push(candidate);
  }

  /** Moves the looks due at unchanged tickets to when the mirror's rule would set them now. */
  async #postpone(work: ScanWork, pace: Pace): Promise<void> {
    const { schedule, mirror } = this.#stores;
    const now = this.#now();
    const trust = this.#trustMs ?? pace.idleIntervalMs;
    for (const { poll, state } of work.unchanged) {
      if (work.hinted.has(poll.ticketId)) continue;
      // The floor: a real look now and then, and a first look after a write from Slack.
      if (state.lastPolledAt <= 0 || now - state.lastPolledAt >= trust) continue;
      if (state.slackWriteAt > state.lastPolledAt) continue;
      const next = this.#planner.next(state, now, pace);
      if (next === 'stop' || next <= poll.dueAt) continue;
      if (!(await schedule.postpone(poll.ticketId, poll.dueAt, next))) continue;
      work.scan.postponed += 1;
      // A write from Slack between the read of the state and the move keeps its quick look.
      const after = await mirror.state(poll.ticketId);
      if (after && after.slackWriteAt > state.slackWriteAt) {
        await schedule.pollAt(
          poll.ticketId,
          this.#planner.afterSlackWrite(after.slackWriteAt, after),
        );
      }
    }
  }
}

/**
 * Whether the listed ticket's status is not the one the mirror last read. A look that read the
 * messages alone (the first after a write from Slack, or one a message hint asked for) is later
 * than a status change that came with the message but did not see it: the record shows it.
 */
function statusMoved(state: MirrorState | undefined, ticket: Ticket): boolean {
  return state?.status !== undefined && ticket.status !== state.status;
}

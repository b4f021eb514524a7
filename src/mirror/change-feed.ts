/**
 * The change feed: List tickets asked, once a period, what changed across many tickets, so the
 * mirror looks only at those, and the looks the schedule had due at the others are moved later
 * as if made. It never posts: a changed linked ticket is handed to `TicketHints`, whose look is
 * an ordinary poll through the API.
 *
 * Two ways, whichever the platform allows (found out at start without creating anything, asked
 * again now and then, or set by configuration):
 * - filter (`change-feed-filter.ts`): the platform honours `updated_after`. One request a scan returns the tickets
 *   changed since the cursor. `updated_at` has millisecond resolution and two changes may share
 *   one, so the cursor stays a little behind the newest change seen and what was seen already is
 *   skipped.
 * - sweep (`change-feed-sweep.ts`): tickets carry `updated_at` but the filter is ignored. The linked tickets due in the
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
 * What the two ways share is in `change-feed-scan.ts`; this file runs the scans.
 */
import { type Sleep, sleep } from '../clock.ts';
import { isServiceDeskError, type Ticket } from '../servicedesk/index.ts';
import type { Stores } from '../store/types.ts';
import type { BudgetPacer } from './budget-pacer.ts';
import { detectFeedWay } from './change-feed-detect.ts';
import { filterScan } from './change-feed-filter.ts';
import {
  type FeedRecord,
  type FeedWay,
  feedRecordData,
  readFeedRecord,
} from './change-feed-record.ts';
import type {
  ChangeFeedMode,
  ChangeFeedScan,
  FeedScanContext,
  ScanWork,
} from './change-feed-scan.ts';
import { sweepScan } from './change-feed-sweep.ts';
import { BudgetDeferredError } from './errors.ts';
import { type LookRules, lookRules, nextLook } from './look-policy.ts';
import { tuningOf } from './mirror-tuning.ts';
import { type Pace, type PollPlanner, RELAXED_PACE } from './poll-planner.ts';
import { pagesFor } from './sweep-plan.ts';
import { TicketHints } from './ticket-hints.ts';
import type { ChangeFeedPlatform, MirrorLogger } from './types.ts';
import { WorkLoop } from './work-loop.ts';

export type { ChangeFeedMode, ChangeFeedScan, RangeChoice } from './change-feed-scan.ts';

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
  /** The look policy's rules, shared with the worker (default: `planner` at the table's values). */
  rules?: LookRules;
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
  /**
   * A sweep reads every linked ticket's page each period (and so watches them all, as a scan
   * by `updated_after` does) when that takes at most this share of the background hour at a
   * period of `maxPeriodMs` or less (default 0.35)...
   */
  watchShare?: number;
  /** ...and then not more often than this (default 60 s; 2 min when `pushed`). */
  watchMinPeriodMs?: number;
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
  /** Tickets one scan weighs at most (default 5,000). */
  maxTickets?: number;
  /** Linked tickets a sweep learns with Get ticket per scan (default 20). */
  learnPerScan?: number;
  /**
   * A ticket not looked at for real for this long is not moved (default: the pace's trust,
   * sized from the number of tickets; the idle interval without a pacer).
   */
  trustMs?: number;
  /** Told after every scan this replica made (metrics, benchmarks). */
  onScan?: (scan: ChangeFeedScan) => void;
  /** Told of every ticket a scan by `updated_after` listed (the triage feed's new tickets). */
  onListed?: (tickets: readonly Ticket[]) => void;
  now?: () => number;
  /** Waits; must settle (resolve or reject) when the signal aborts. */
  sleep?: Sleep;
  random?: () => number;
}

const SCAN_CLAIM = 'change-feed:scan';

/** Tells the mirror which linked tickets changed, a period at a time; see the file comment. */
export class ChangeFeed {
  readonly #platform: ChangeFeedPlatform;
  readonly #stores: ChangeFeedOptions['stores'];
  readonly #logger: MirrorLogger;
  readonly #mode: ChangeFeedMode;
  readonly #hints: TicketHints;
  readonly #pacer: BudgetPacer | undefined;
  readonly #rules: LookRules;
  readonly #tuning = tuningOf('feed');
  readonly #onScan: ((scan: ChangeFeedScan) => void) | undefined;
  readonly #trustMs: number | undefined;
  /** The way this replica's last scan went, which sets the period of its next. */
  #way: FeedWay = 'unknown';
  /** The period of a sweep that watches every linked ticket, when affordable as last weighed. */
  #watchMs: number | undefined;
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
      | 'rules'
      | 'onScan'
      | 'trustMs'
      | 'onListed'
    >
  >;
  readonly #loop: WorkLoop;
  readonly #ctx: FeedScanContext;

  constructor(options: ChangeFeedOptions) {
    this.#platform = options.platform;
    this.#stores = options.stores;
    this.#logger = options.logger;
    this.#mode = options.mode ?? 'auto';
    this.#pacer = options.pacer;
    this.#onScan = options.onScan;
    this.#trustMs = options.trustMs;
    // The feed's trust is the policy's; a trust set here overrides the shared rules' for it.
    const rules = options.rules ?? lookRules(options.planner);
    this.#rules = options.trustMs
      ? { ...rules, tuning: { ...rules.tuning, trustMs: options.trustMs } }
      : rules;
    const t = tuningOf('feed');
    const now = options.now ?? Date.now;
    this.#hints = options.hints ?? new TicketHints({ stores: options.stores, now });
    this.#o = {
      sweep: options.sweep ?? 'cheaper',
      periodMs: options.periodMs ?? t.periodMs,
      filterPeriodMs:
        options.filterPeriodMs ?? (options.pushed ? t.pushedFilterPeriodMs : t.filterPeriodMs),
      pushed: options.pushed ?? false,
      watchShare: options.watchShare ?? t.watchShare,
      watchMinPeriodMs:
        options.watchMinPeriodMs ??
        (options.pushed ? t.pushedWatchMinPeriodMs : t.watchMinPeriodMs),
      minPeriodMs: options.minPeriodMs ?? t.minPeriodMs,
      maxPeriodMs: options.maxPeriodMs ?? t.maxPeriodMs,
      recheckMs: options.recheckMs ?? t.recheckMs,
      unknownRecheckMs: options.unknownRecheckMs ?? t.unknownRecheckMs,
      leaseMs: options.leaseMs ?? t.leaseMs,
      overlapMs: options.overlapMs ?? t.overlapMs,
      clockMarginMs: options.clockMarginMs ?? t.clockMarginMs,
      maxPages: options.maxPages ?? t.maxPages,
      maxTickets: options.maxTickets ?? t.maxTickets,
      learnPerScan: options.learnPerScan ?? t.learnPerScan,
      now,
      sleep: options.sleep ?? sleep,
      random: options.random ?? Math.random,
    };
    this.#loop = new WorkLoop(() => this.#turn(), this.#o);
    this.#ctx = {
      platform: this.#platform,
      stores: this.#stores,
      logger: this.#logger,
      mode: this.#mode,
      hints: this.#hints,
      o: this.#o,
      now: () => this.#o.now(),
      warnedIgnored: false,
      ...(options.onListed ? { onListed: options.onListed } : {}),
    };
  }

  /** The way this replica's last scan went (`unknown` before its first). */
  get way(): FeedWay {
    return this.#way;
  }

  /** How the feed was configured to run. */
  get mode(): ChangeFeedMode {
    return this.#mode;
  }

  /** Starts scanning until `stop()`; does nothing when the mode is `off`. */
  start(): void {
    if (this.#mode !== 'off') this.#loop.start();
  }

  /** Stops after the scan under way. */
  stop(): Promise<void> {
    return this.#loop.stop();
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

  // One scan, then the period: a replica that did not scan looks again soon, so the period's
  // scan is not missed when the replica that made the last one is gone.
  async #turn(): Promise<number> {
    let waitMs = this.#o.periodMs;
    try {
      const scan = await this.scanOnce();
      const period = this.#periodMs(this.#pacer?.pace() ?? RELAXED_PACE);
      waitMs = scan
        ? Math.max(period, (scan.retryAt ?? 0) - this.#now())
        : Math.max(this.#tuning.otherReplicaMinMs, period * this.#tuning.otherReplicaShare);
    } catch (error) {
      this.#logger.warn({ err: error }, 'change feed scan failed');
    }
    const jitter = this.#tuning.periodJitter;
    return Math.round(waitMs * (1 - jitter / 2 + jitter * this.#o.random()));
  }

  #now(): number {
    return this.#o.now();
  }

  #periodMs(pace: Pace): number {
    if (this.#way === 'sweep' && this.#watchMs !== undefined) return this.#watchMs;
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
      watching: false,
    };
    try {
      scan.way = await this.#findWay(record, scan);
      this.#way = scan.way;
      if (scan.way === 'filter') {
        // A warm start looks back only an idle interval: its listing must fit one scan's pages.
        await filterScan(this.#ctx, record, work, period, this.#trustMs ?? pace.idleIntervalMs);
      } else if (scan.way === 'sweep') {
        this.#watchMs = await this.#watchPeriodMs(record, pace);
        work.watching = this.#watchMs !== undefined;
        await sweepScan(this.#ctx, record, work, this.#watchMs ?? period);
      }
    } catch (error) {
      if (error instanceof BudgetDeferredError) {
        scan.complete = false;
        scan.retryAt = error.retryAt;
      } else if (isServiceDeskError(error)) {
        scan.complete = false;
        record.failedAt = startedAt;
        this.#logger.warn({ err: error, way: scan.way }, 'change feed scan cut short');
      } else {
        throw error;
      }
    }
    await this.#stores.feed.noteFacts(work.noted);
    await this.#stores.feed.forgetFacts([...work.forgotten]);
    if (scan.complete) record.failedAt = undefined;
    // Only a whole scan by updated_after vouches for the tickets it did not report; a sweep
    // vouches for each ticket it found on a page, whole or not.
    if (scan.complete || scan.way === 'sweep') await this.#postpone(work, pace);
    await this.#stores.feed.saveState({ scannedAt: startedAt, data: feedRecordData(record) });
    return scan;
  }

  /**
   * The period at which sweeping every linked ticket's page takes the watch share of the
   * background hour (longer while the budget is tight), or undefined where that would be
   * longer than `maxPeriodMs`: the sweep then reads only where it saves looks.
   */
  async #watchPeriodMs(record: FeedRecord, pace: Pace): Promise<number | undefined> {
    if (!this.#pacer || this.#o.sweep === 'always') return undefined;
    const linked = await this.#stores.schedule.size();
    if (linked === 0 || linked > this.#o.maxTickets) return undefined;
    const known = Object.values(record.ranges).reduce((sum, r) => sum + pagesFor(r.total), 0);
    const pages = Math.max(known, pagesFor(linked));
    const perHour = this.#o.watchShare * this.#pacer.backgroundHour();
    const base = Math.max(this.#o.watchMinPeriodMs, (pages * 3_600_000) / Math.max(1, perHour));
    if (base > this.#o.maxPeriodMs) return undefined;
    return Math.round(Math.min(this.#o.maxPeriodMs, base * Math.max(1, pace.stretch)));
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

  /**
   * Moves the looks due at unchanged tickets to when the look policy sets them now (its trust
   * rule: never a look something asked for, never past the trust since a real look).
   */
  async #postpone(work: ScanWork, pace: Pace): Promise<void> {
    const { schedule, mirror } = this.#stores;
    const rules = this.#rules;
    for (const { poll, state } of work.unchanged) {
      if (work.hinted.has(poll.ticketId)) continue;
      const event = { type: 'unchanged', dueAt: poll.dueAt } as const;
      const look = nextLook({ event, state, pace, now: this.#now(), rules });
      if (look.do !== 'look') continue;
      if (!(await schedule.postpone(poll.ticketId, poll.dueAt, look.at))) continue;
      work.scan.postponed += 1;
      // A write from Slack between the read of the state and the move keeps its quick look.
      const after = await mirror.state(poll.ticketId);
      if (after && after.slackWriteAt > state.slackWriteAt) {
        const write = { type: 'slack-write', atMs: after.slackWriteAt } as const;
        const first = nextLook({
          event: write,
          state: after,
          pace: RELAXED_PACE,
          now: this.#now(),
          rules,
        });
        if (first.do === 'look') await schedule.pollAt(poll.ticketId, first.at);
      }
    }
  }
}

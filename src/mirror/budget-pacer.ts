/**
 * Keeps the poller's spending inside the shared budget by slowing the schedule, rather than
 * letting the budget refuse polls at random. Every replica reads the same shared counts, so
 * they all arrive at about the same pace without talking to each other.
 *
 * Two numbers come out. The idle interval is the longest an open ticket waits: sized from the
 * number of scheduled tickets so that tickets with nothing going on cost a fixed share of the
 * background hour, whatever their number. The stretch multiplies every interval set by age: it
 * rises while background work (what the stretch steers), projected over an hour from the last
 * few minutes or counted over the rolling hour, needs more than the room people's requests
 * leave it below the routine level, and falls, below 1 if need be, while it needs less: budget
 * left unspent is latency given away.
 *
 * The routine level is one number for both halves of the pacer: the gate that keeps routine
 * polls out of the last tenth of the background windows, and the level the stretch aims at.
 * Were the stretch to aim lower than where the gate stops, a busy hour would sit between the two
 * for good, the stretch would climb to its maximum and stay there, and a ticket in the middle of
 * a conversation would wait half an hour for its next look.
 */
import { allowance, capOf, pressedOwnHour } from '../store/index.ts';
import type { BudgetUsage, ChangeFeedStore, PollSchedule, RateBudget } from '../store/types.ts';
import { readFeedRecord } from './change-feed-record.ts';
import { tuningOf } from './mirror-tuning.ts';
import type { LookPriority, Pace } from './poll-planner.ts';

/** Options of the pacer. */
export interface BudgetPacerOptions {
  budget: RateBudget;
  schedule: PollSchedule;
  /**
   * The change feed's record: a recent scan by `updated_after`, or a recent sweep of every
   * linked ticket's page, means every ticket is watched.
   */
  feed?: ChangeFeedStore;
  /** How recent a scan by `updated_after` must be (default 75 s: three of its periods)... */
  watchedWithinMs?: number;
  /** ...and a watching sweep, in its own periods (default 2.5). */
  watchedSweepPeriods?: number;
  /** How often the shared counts are read (default 30 s). */
  refreshMs?: number;
  /** The window the current rate is measured over (default 5 min). */
  recentMs?: number;
  /** Share of the background hour that idle tickets' slowest polls may take (default 0.3)... */
  idleShare?: number;
  /**
   * ...and, where a change feed vouches for them, the share their looks for real take (default
   * 0.02: the feed tells of their changes; these looks are only the net under its faults).
   */
  trustedIdleShare?: number;
  /** Bounds of the idle interval (default 10 min and 6 h). */
  minIdleMs?: number;
  maxIdleMs?: number;
  /** Bounds of the stretch (default 0.25 and 32): below 1 the poller spends budget left idle. */
  minStretch?: number;
  maxStretch?: number;
  /**
   * Share of each background window routine polls leave to first looks (default 0.1); the
   * stretch aims at the rest.
   */
  routineHeadroom?: number;
  /**
   * How far above the hour's pace routine polls may run (default 1.5): while background work's
   * last few minutes, at their pace, would take more than this many times its room in the hour,
   * routine polls wait...
   */
  routineBurst?: number;
  /** ...and hinted ones further (default 3). */
  hintedBurst?: number;
  now?: () => number;
}

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;
const TUNING = tuningOf('pacer');
// The share of the routine headroom each rank leaves below the budget's limits.
const HEADROOM_SHARE: Readonly<Record<LookPriority, number>> = {
  routine: 1,
  hinted: TUNING.hintedHeadroom,
  awaited: TUNING.awaitedHeadroom,
};

/** Reads the shared budget now and then and says how hard the poller must save. */
export class BudgetPacer {
  readonly #budget: RateBudget;
  readonly #schedule: PollSchedule;
  readonly #feed: ChangeFeedStore | undefined;
  readonly #o: Required<Omit<BudgetPacerOptions, 'budget' | 'schedule' | 'feed'>>;
  #pace: Pace;
  #refreshedAt = Number.NEGATIVE_INFINITY;

  constructor(options: BudgetPacerOptions) {
    this.#budget = options.budget;
    this.#schedule = options.schedule;
    this.#feed = options.feed;
    const {
      hintedHeadroom: _hinted,
      awaitedHeadroom: _awaited,
      maxStepUp: _up,
      maxStepDown: _down,
      ...defaults
    } = TUNING;
    this.#o = {
      ...defaults,
      now: Date.now,
      ...withoutUndefined(options),
    };
    this.#pace = { stretch: 1, idleIntervalMs: this.#o.minIdleMs };
  }

  /** The requests background work may make itself in an hour. */
  backgroundHour(): number {
    const allow = allowance(this.#budget.limits, 'background');
    return allow.own?.hour ?? allow.hour;
  }

  /** The pace as of the last refresh. */
  pace(): Pace {
    return this.#pace;
  }

  /**
   * Whether a poll may go now. Near the background limit routine polls step aside first (at
   * the routine level), then hinted ones (halfway from there to the limit), so that what people
   * wait for (the first look after a write from Slack, a look a message hint asked for) and
   * the change feed's scans still find room. The budget stays the hard limit for all.
   */
  async admits(priority: LookPriority): Promise<boolean> {
    return (await this.roomAt(priority)) === undefined;
  }

  /**
   * Undefined when a poll of this priority may go now (as `admits`); else about when it may,
   * so a look turned away is not claimed again and again before then: the requests over the
   * level leave each window at the pace it was filled, assuming an even spread.
   *
   * Both also keep to the hour's pace, hinted polls less strictly: the windows alone let them
   * spend the hour in its first minutes (the minute's share is far above an hour's sixtieth)
   * and leave the rest of it to nothing, so that people who write later in the hour and the
   * tickets then in conversation find it full. The stretch would spread them, but not once it
   * is at its most.
   *
   * An awaited look that reads the activity (a change announced) goes up to a tenth of the
   * routine headroom below the budget's limits (8 of the hour's 1,000 at the defaults), and not
   * at the hour's pace: its read of the activity may need a fetch or a Get ticket after it,
   * which must find room (else the look is made again from the start, and its first request is
   * spent for nothing), and the change feed's scans, the net under lost hints, keep the rest.
   * While people are pressed it goes as a hinted one: the hour cannot hold what everyone waits
   * for, and a change read later often shares its request with the ticket's next message.
   */
  async roomAt(asked: LookPriority): Promise<number | undefined> {
    const usage = await this.#budget.usage(this.#o.recentMs);
    const now = this.#o.now();
    if (usage.blockedUntil !== undefined) return usage.blockedUntil;
    const priority = asked === 'awaited' && usage.peoplePressed ? 'hinted' : asked;
    const headroom = this.#o.routineHeadroom * HEADROOM_SHARE[priority];
    const limits: [count: number, limit: number, spanMs: number][] = [];
    for (const [window, spanMs] of [
      ['minute', MINUTE_MS],
      ['hour', HOUR_MS],
    ] as const) {
      const level = this.#levels(window, headroom, usage);
      limits.push([usage.background[window], level.own, spanMs]);
      limits.push([usage[window], level.total, spanMs]);
    }
    if (priority !== 'awaited') {
      const burst = priority === 'routine' ? this.#o.routineBurst : this.#o.hintedBurst;
      const paced = this.#room(usage) * burst * (this.#o.recentMs / HOUR_MS);
      limits.push([usage.background.recent, paced, this.#o.recentMs]);
    }
    let at: number | undefined;
    for (const [count, limit, spanMs] of limits) {
      if (count < limit) continue;
      const freed = now + Math.ceil(((count - limit + 1) / Math.max(1, count)) * spanMs);
      at = Math.max(at ?? 0, freed);
    }
    return at;
  }

  /**
   * Where polls that leave `headroom` of the background's share stop in a window: its own
   * requests below that share less the headroom, and everyone's below the room the budget
   * leaves people less the same number of requests, so people's requests and what the gates
   * keep back both find room however the window was spent.
   */
  #levels(
    window: 'minute' | 'hour',
    headroom: number,
    usage: BudgetUsage,
  ): { own: number; total: number } {
    const allow = allowance(this.#budget.limits, 'background');
    const share = allow.own?.[window] ?? allow[window];
    const pressed = usage.peoplePressed;
    // While people are pressed the budget keeps their projected hour free (`pressedOwnHour`).
    const own =
      window === 'hour' && pressed
        ? (pressedOwnHour(allow, { hour: this.#people(usage), recent: 0 }) ?? share)
        : share;
    return { own: own * (1 - headroom), total: capOf(allow, window, pressed) - share * headroom };
  }

  /** People's hour as projected: what they made in it, or their recent pace over an hour. */
  #people(usage: BudgetUsage): number {
    const scale = HOUR_MS / this.#o.recentMs;
    const { background } = usage;
    return Math.max((usage.recent - background.recent) * scale, usage.hour - background.hour);
  }

  /** How much of the hour background work may still plan on, given what people spend. */
  #room(usage: BudgetUsage): number {
    const level = this.#levels('hour', this.#o.routineHeadroom, usage);
    return Math.min(level.own, level.total - this.#people(usage));
  }

  /** Reads the shared counts when the last read is older than `refreshMs`. */
  async refreshIfDue(): Promise<Pace> {
    if (this.#o.now() - this.#refreshedAt >= this.#o.refreshMs) await this.refresh();
    return this.#pace;
  }

  /** Reads the shared counts and sets the pace. */
  async refresh(): Promise<Pace> {
    this.#refreshedAt = this.#o.now();
    const [usage, tickets, watched] = await Promise.all([
      this.#budget.usage(this.#o.recentMs),
      this.#schedule.size(),
      this.#watched(),
    ]);
    const backgroundHour = Math.max(1, this.backgroundHour());
    // What the last few minutes would make of an hour, and what the rolling hour holds: the
    // hour is what the platform counts, so it must never fill up in a burst. People's requests
    // (and anyone else's on the key, which only the platform's count shows) take room the
    // stretch cannot give back; only background work is what the stretch steers.
    const scale = HOUR_MS / this.#o.recentMs;
    const { background } = usage;
    const steered = Math.max(background.recent * scale, background.hour);
    const pressure = steered / Math.max(1, this.#room(usage));
    // Quick to slow down, slow to speed up: the rate shows a change only minutes later, and an
    // overshoot fills the rolling hour for an hour.
    const step =
      pressure > 1 ? Math.min(TUNING.maxStepUp, pressure) : Math.max(TUNING.maxStepDown, pressure);
    const stretch = Math.min(
      this.#o.maxStretch,
      Math.max(this.#o.minStretch, this.#pace.stretch * step),
    );
    const idle = (tickets * HOUR_MS) / (this.#o.idleShare * backgroundHour);
    const idleIntervalMs = Math.round(
      Math.min(this.#o.maxIdleMs, Math.max(this.#o.minIdleMs, idle)),
    );
    // Not capped like the idle interval: a cap would make these looks grow with the tickets.
    const trusted = (tickets * HOUR_MS) / (this.#o.trustedIdleShare * backgroundHour);
    this.#pace = {
      stretch,
      idleIntervalMs,
      watched,
      trustMs: Math.round(Math.max(idleIntervalMs, trusted)),
    };
    return this.#pace;
  }

  /**
   * Whether a scan by `updated_after` that read every change since the last one ran lately, or
   * a sweep that read every linked ticket's page within a few of its periods.
   */
  async #watched(): Promise<boolean> {
    if (!this.#feed) return false;
    const saved = await this.#feed.state();
    if (!saved) return false;
    const record = readFeedRecord(saved.data);
    const now = this.#o.now();
    // A feed the platform turned away since its last whole scan lists nothing: looks go ahead.
    if (record.failedAt !== undefined) return false;
    if (record.way === 'sweep' && record.watch) {
      return now - record.watch.at <= record.watch.periodMs * this.#o.watchedSweepPeriods;
    }
    if (now - saved.scannedAt > this.#o.watchedWithinMs) return false;
    return record.way === 'filter' && record.since !== undefined;
  }
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

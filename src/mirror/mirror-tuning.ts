/**
 * Every tunable of the mirror in one table: its value, its unit and the one-line reason it has
 * that value (the figure that chose it; the bench runs behind the figures are in
 * docs/benchmarks.md). Each part's Options interface still overrides its own; what it leaves
 * out is read from here, so a value is changed in one place.
 *
 * Units: `ms` a duration, `share` a fraction of a budget window, `factor` a multiplier,
 * `count` a number of things (requests, tickets, pages).
 */

/** One tunable: its value, its unit and why it has that value. */
export interface Tunable {
  readonly value: number;
  readonly unit: 'ms' | 'share' | 'factor' | 'count';
  readonly why: string;
}

type Table = Readonly<Record<string, Readonly<Record<string, Tunable>>>>;

const ms = (value: number, why: string): Tunable => ({ value, unit: 'ms', why });
const share = (value: number, why: string): Tunable => ({ value, unit: 'share', why });
const factor = (value: number, why: string): Tunable => ({ value, unit: 'factor', why });
const count = (value: number, why: string): Tunable => ({ value, unit: 'count', why });

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The mirror's tunables, by the part that reads them. */
export const MIRROR_TUNING = {
  /** When a ticket is looked at next (the adaptive rule, `poll-planner.ts`, and the policy). */
  look: {
    firstLookMs: ms(
      2 * SECOND,
      'the AI agent answers within seconds: one look just after finds it',
    ),
    minIntervalMs: ms(10 * SECOND, 'the shortest interval by age: a ticket just active'),
    growth: factor(1, 'interval = age × 1: each interval doubles the time since activity'),
    awaitGrowth: factor(0.5, 'each look for an awaited answer 1.5 times as far from the write'),
    awaitWindowMs: ms(15 * MINUTE, 'a person from the desk answers within minutes'),
    conversationMs: ms(HOUR, 'a note comes as often 20 min after a write as 2 (p95 ~1 h by age)'),
    turnMs: ms(
      MINUTE,
      'a conversation looked at every 10 s cost 640 requests/h (615 empty); 1 min: 373, same p95',
    ),
    pushVouchMs: ms(HOUR, 'a message hint within the hour shows the hints reach the app'),
    hintedFirstLookMs: ms(30 * SECOND, 'under hints the answer’s hint comes first: one read'),
    pushedIntervalMs: ms(30 * MINUTE, 'under hints, looks by age are only the net: 2 an hour'),
    resolvedIntervalMs: ms(30 * MINUTE, 'a resolved ticket rarely changes; reopening is noticed'),
    resolvedStopAfterMs: ms(3 * DAY, 'a resolved ticket not reopened in 3 days stays so'),
    retryBaseMs: ms(5 * SECOND, 'first wait after a failed look, doubled per failure'),
    retryMaxMs: ms(5 * MINUTE, 'a platform down for long is asked every 5 min'),
    gatherMs: ms(SECOND, 'the hints of a burst of changes arrive within it and share one look'),
    minGapMs: ms(5 * SECOND, 'hinted looks at one ticket this far apart: a flood costs little'),
    ownWriteMs: ms(SECOND, 'a message hint this soon after a write is its own (AI takes longer)'),
    postRetryMs: ms(SECOND, 'a write from Slack not posted at once is looked for a second later'),
    deferJitterMs: ms(
      SECOND,
      'looks the budget or Slack deferred spread so replicas do not collide',
    ),
    awaitedRoomWaitMs: ms(
      5 * SECOND,
      'an announced change waited 30 s at a time: status p95 53-320 s',
    ),
    hintedRoomWaitMs: ms(
      30 * SECOND,
      'a look turned away is not claimed again before room is likely',
    ),
    routineRoomWaitMs: ms(
      30 * SECOND,
      'as a hinted one: at least half a minute before asking again',
    ),
    awaitedMaxRoomWaitMs: ms(2 * MINUTE, 'someone waits on it: asks again within 2 min'),
    hintedMaxRoomWaitMs: ms(2 * MINUTE, 'someone waits on it: asks again within 2 min'),
    routineMaxRoomWaitMs: ms(10 * MINUTE, 'nobody waits: a hint or a write may bring it forward'),
    roomJitter: factor(0.5, 'up to half the wait again, so replicas turned away together spread'),
  },
  /** The mirror worker (`mirror-worker.ts`). */
  worker: {
    batch: count(8, 'due tickets claimed per round: two rounds of the 4 lanes'),
    concurrency: count(4, 'tickets polled at once: enough to keep 100 requests/min busy'),
    leaseMs: ms(MINUTE, 'a claim on a ticket outlasts a look (10 pages of 2 lists)'),
    postLeaseMs: ms(30 * SECOND, 'a claim on one post outlasts a Slack post and its retry'),
    idleMs: ms(SECOND, 'how soon a hint another replica added is noticed'),
    closedForgetMs: ms(7 * DAY, 'a closed ticket’s record is kept a week for late replies'),
    activityPage: count(100, 'the platform’s largest page of activity'),
    messagePage: count(100, 'the platform’s largest page of messages'),
    maxPages: count(10, 'one look reads at most 10 pages of a list; the rest waits its next'),
    minTurnWaitMs: ms(5, 'a ticket another replica just claimed cannot spin the loop'),
    keptTicketMs: ms(6 * HOUR, 'a change the activity does not name (desk, title) shows by then'),
  },
  /** The pacer (`budget-pacer.ts`). */
  pacer: {
    refreshMs: ms(30 * SECOND, 'the shared counts read twice a minute: the rate moves slower'),
    recentMs: ms(5 * MINUTE, 'the current rate is the last 5 min, projected over the hour'),
    idleShare: share(0.3, 'idle tickets’ slowest looks take 30% of the background hour'),
    trustedIdleShare: share(
      0.02,
      'looks the feed vouches for take 2% (16/h): 833/h at 5,000 before',
    ),
    minIdleMs: ms(10 * MINUTE, 'an idle ticket is never looked at more than 6 times an hour'),
    maxIdleMs: ms(6 * HOUR, 'an idle ticket is looked at 4 times a day at least'),
    minStretch: factor(0.25, 'budget left idle is latency given away: down to a quarter'),
    maxStretch: factor(32, 'a conversation’s turn at most 10 s × 32 = 5 min 20 s'),
    routineHeadroom: share(0.1, 'routine looks leave a tenth of each window to first looks'),
    routineBurst: factor(1.5, 'tried 1, 1.25, 1.5: 10-12 replies refused without (1,200 linked)'),
    hintedBurst: factor(3, 'tried 2 and 3 for hinted looks at 1,200 linked / 80 hot'),
    watchedWithinMs: ms(75 * SECOND, 'three periods of a scan by updated_after'),
    watchedSweepPeriods: factor(2.5, 'a watching sweep vouches for two and a half periods'),
    awaitedHeadroom: share(0.1, 'an announced change stops 8 of 1,000 below the limit'),
    hintedHeadroom: share(0.5, 'hinted looks stop halfway from the routine level to the limit'),
    maxStepUp: factor(2, 'quick to slow down: the stretch at most doubles per refresh'),
    maxStepDown: factor(0.9, 'slow to speed up: an overshoot fills the rolling hour for an hour'),
  },
  /** The change feed (`change-feed.ts`). */
  feed: {
    periodMs: ms(30 * SECOND, 'a scan twice a minute at a stretch of 1'),
    filterPeriodMs: ms(25 * SECOND, 'a scan by updated_after is what keeps threads live'),
    pushedFilterPeriodMs: ms(MINUTE, 'under webhooks the filter scan is only the net'),
    minPeriodMs: ms(5 * SECOND, 'never more than 12 scans a minute'),
    maxPeriodMs: ms(10 * MINUTE, 'never fewer than 6 scans an hour'),
    watchShare: share(0.35, 'a watching sweep takes at most 35% (about 4,600 linked tickets)'),
    watchMinPeriodMs: ms(MINUTE, 'a watching sweep not more often than a minute'),
    pushedWatchMinPeriodMs: ms(2 * MINUTE, 'under webhooks the sweep is only the net'),
    recheckMs: ms(6 * HOUR, 'the platform’s way is asked again four times a day'),
    unknownRecheckMs: ms(10 * MINUTE, 'asked sooner while it had no tickets to tell'),
    leaseMs: ms(MINUTE, 'a scan’s claim outlasts a scan of 20 pages'),
    overlapMs: ms(2 * SECOND, 'two changes may share a millisecond: the cursor stays behind'),
    clockMarginMs: ms(SECOND, 'how far the platform’s clock may be from the app’s'),
    maxPages: count(20, 'pages one scan reads at most, per listing'),
    maxTickets: count(5_000, 'tickets one scan weighs at most'),
    learnPerScan: count(20, 'Get ticket reads a sweep spends learning where tickets lie'),
    sweepStaleMs: ms(30 * MINUTE, 'a range’s page count is read again after half an hour'),
    listedRecentMs: ms(10 * MINUTE, 'another replica’s filter scan this recent lists new tickets'),
    otherReplicaShare: factor(0.25, 'a replica that did not scan looks again at a quarter period'),
    otherReplicaMinMs: ms(SECOND, '...but not sooner than a second'),
    periodJitter: share(0.2, 'scan periods spread ±10% so replicas do not scan together'),
  },
  /** The triage feed (`triage-feed.ts`). */
  triage: {
    scanPeriodMs: ms(3 * MINUTE, 'one created_after listing for all desks every 3 min'),
    netPeriodMs: ms(5 * MINUTE, 'every 5 min as the net under webhooks'),
    tickMs: ms(SECOND, 'how soon a card found is posted'),
    leaseMs: ms(30 * SECOND, 'a card’s claim outlasts its post'),
    goneMs: ms(10 * MINUTE, 'a channel the app was removed from is left alone 10 min'),
    channelsMs: ms(2 * SECOND, 'the triage channels read again at most every 2 s'),
    maxAttempts: count(6, 'a card failing 6 times is left to the next scan'),
    retryBaseMs: ms(5 * SECOND, 'first wait after a failed card, doubled per failure'),
    retryMaxMs: ms(5 * MINUTE, 'a card failing for long is tried every 5 min'),
    unroutedKeptMs: ms(15 * MINUTE, 'a ticket with no channel is weighed again when moved, 15 min'),
    desksKeptMs: ms(10 * MINUTE, 'List desks read at most every 10 min, only for a subdesk'),
  },
  /** The service-level clock watch (`clock-watch.ts`). */
  clocks: {
    batch: count(16, 'clocks due claimed per round'),
    leaseMs: ms(MINUTE, 'a clock’s claim outlasts its posts'),
    postLeaseMs: ms(30 * SECOND, 'a claim on one warning outlasts its post'),
    idleMs: ms(5 * SECOND, 'warnings are minutes ahead: 5 s late is on time'),
    retryMs: ms(30 * SECOND, 'a failed warning tried again in half a minute'),
  },
  /** The budget hooks and the webhook route (`budget-hooks.ts`, `webhook-receiver.ts`). */
  budget: {
    maxInteractiveWaitMs: ms(10 * SECOND, 'a person waits at most 10 s for room, then is told'),
    unreachableRetryMs: ms(5 * SECOND, 'background work waits 5 s when Redis is away'),
    minWaitMs: ms(20, 'replicas racing for one freed slot must not spin'),
    webhookSeenMs: ms(15 * MINUTE, 'a delivery id repeated within 15 min does nothing'),
  },
} as const satisfies Table;

/** The parts of the table. */
export type TuningGroup = keyof typeof MIRROR_TUNING;

/** The values of one part of the table, by name. */
export type TuningValues<G extends TuningGroup> = {
  -readonly [K in keyof (typeof MIRROR_TUNING)[G]]: number;
};

/** The values of one part of the table, with `overrides` where they are set. */
export function tuningOf<G extends TuningGroup>(
  group: G,
  overrides: Partial<TuningValues<G>> = {},
): TuningValues<G> {
  const values = Object.fromEntries(
    Object.entries(MIRROR_TUNING[group]).map(([name, tunable]) => [name, tunable.value]),
  ) as TuningValues<G>;
  for (const [name, value] of Object.entries(overrides)) {
    if (value !== undefined) (values as Record<string, number>)[name] = value as number;
  }
  return values;
}

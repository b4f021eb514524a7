/**
 * The app's Prometheus metrics, all on one registry the caller owns (never prom-client's
 * global one), so two apps in one process (tests, the sandbox) never mix their figures.
 * Components report through the small interfaces below; gauges that describe shared state
 * (the outbox) are read from their source at scrape time, so every replica reports the same.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, type Registry } from 'prom-client';
import type { RateLimitState } from '../servicedesk/index.ts';
import type { OutboxStats } from '../store/types.ts';
import { withTimeout } from '../timeout.ts';

/** What kind of Slack request a delivery was (the label of the request metrics). */
export type SlackRequestKind =
  | 'command'
  | 'event'
  | 'action'
  | 'view'
  | 'shortcut'
  | 'options'
  | 'other';

/** How a Slack request ended: acknowledged, or an error that made Slack deliver again. */
export type SlackRequestOutcome = 'ok' | 'error';

/** The rate-budget windows of the platform: 100 a minute and 1,000 an hour per key. */
export type RateBudgetWindow = 'minute' | 'hour';

/** What the Slack side reports. */
export interface SlackMetrics {
  /** A request was handled: its kind, outcome and the time until Slack was answered. */
  observeSlackRequest(kind: SlackRequestKind, outcome: SlackRequestOutcome, ackMs: number): void;
  /** A delivery the outbox already knew (a Slack retry, a second replica, a double click). */
  countDuplicate(intent: string): void;
}

/**
 * Why a Slack request failed the signature check: another secret (`mismatch`), a time more
 * than five minutes off (`stale`), or no signature (`unsigned`).
 */
export type SignatureFailureReason = 'mismatch' | 'stale' | 'unsigned';

/** What the Slack receiver reports of the requests it turns away for their signature. */
export interface SignatureFailureMetrics {
  /** One request answered 401 by the signature check, and why. */
  countSignatureFailure(reason: SignatureFailureReason): void;
}

/** What the platform client reports (wire it to the client's `onResponse` hook). */
export interface PlatformMetrics {
  /** One HTTP attempt: its operation and status (undefined when no answer came). */
  observePlatformResponse(operation: string, status: number | undefined): void;
}

/** What the shared rate budget reports (the budget in the stores feeds it). */
export interface RateBudgetMetrics {
  /** Requests the shared budget still allows in the window, for every replica together. */
  setRateBudgetRemaining(window: RateBudgetWindow, remaining: number): void;
}

/** What the mirror (platform → Slack) reports. */
export interface MirrorMetrics {
  /** Seconds from a message or change appearing on the platform to its post in Slack. */
  observeMirrorLatency(seconds: number): void;
  /** How many linked tickets are in each state now; states not listed are set to 0. */
  setLinkedTickets(counts: Readonly<Record<string, number>>): void;
  /** One platform webhook delivery and how it ended (scheduled, unlinked, duplicate, refused...). */
  countWebhook(outcome: string): void;
  /** A new ticket's triage card posted, seconds after the ticket was created. */
  observeTriageCard(seconds: number): void;
  /** A triage channel found taking no posts (the app removed, the channel archived). */
  countTriageChannelGone(): void;
  /** A service-level warning or breach posted, seconds after the clock reached the point. */
  observeClockWarning(seconds: number): void;
}

/** Why a person's request did not reach the platform: their own share, or the shared budget. */
export type PeopleRefusalReason = 'fair_share' | 'budget';

/** What people's reads report (the Slack side's fair share feeds it). */
export interface PeopleMetrics {
  /** A person's request the platform was not asked for, why, and what it was (lookup, mine...). */
  countPeopleRefusal(reason: PeopleRefusalReason, request: string): void;
  /** Seconds a person's request waited on the shared budget, and whether it then went. */
  observeBudgetWait(seconds: number, outcome: 'granted' | 'refused'): void;
  /** One answer to a person by where it came from: platform, cache (shared) or known (aged). */
  countPeopleAnswer(source: string, request: string): void;
}

/** Values read at scrape time; each is optional and bounded so a scrape never hangs. */
export interface MetricsSources {
  /** The outbox's depth and oldest age (`stores.outbox.stats()`). */
  outboxStats?: () => Promise<OutboxStats>;
  /** The rate-limit headers this replica saw last (`client.rateLimit`). */
  rateLimit?: () => RateLimitState | undefined;
}

/** Options of `createMetrics`. */
export interface MetricsOptions {
  registry: Registry;
  sources?: MetricsSources;
  /** Node's process metrics (CPU, memory, event-loop lag); on by default. */
  processMetrics?: boolean;
  /** How long a scrape waits for a source; 1 s by default. */
  sourceTimeoutMs?: number;
}

/** Every metric of the app. */
export interface AppMetrics
  extends SlackMetrics,
    SignatureFailureMetrics,
    PlatformMetrics,
    RateBudgetMetrics,
    MirrorMetrics,
    PeopleMetrics {
  readonly registry: Registry;
}

const PREFIX = 'servicedesk_slack_';

/** Slack waits 3 s for an ack; the buckets resolve the 25 ms target and the 3 s limit. */
const ACK_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5];

/** A person waits on the budget up to 10 s (the interactive wait); most waits are short. */
const BUDGET_WAIT_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 15];

/** Mirror latency runs from seconds (hot tickets) to many minutes (quiet ones). */
const MIRROR_BUCKETS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1800, 3600];

/** Builds the app's metrics on the given registry. */
export function createMetrics(options: MetricsOptions): AppMetrics {
  const { registry, sources = {} } = options;
  const sourceTimeoutMs = options.sourceTimeoutMs ?? 1_000;
  const registers = [registry];
  if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry });

  const slackRequests = new Counter({
    name: `${PREFIX}requests_total`,
    help: 'Slack requests (commands, events, actions, views, shortcuts) by kind and outcome.',
    labelNames: ['kind', 'outcome'] as const,
    registers,
  });
  const ackSeconds = new Histogram({
    name: `${PREFIX}ack_seconds`,
    help: 'Time from a Slack request reaching the app to its acknowledgement, by kind.',
    labelNames: ['kind'] as const,
    buckets: ACK_BUCKETS,
    registers,
  });
  const duplicates = new Counter({
    name: `${PREFIX}duplicates_suppressed_total`,
    help: 'Slack deliveries not acted on twice because the outbox already knew them, by intent.',
    labelNames: ['intent'] as const,
    registers,
  });
  const signatureFailures = new Counter({
    name: `${PREFIX}signature_failures_total`,
    help: 'Slack requests answered 401 by the signature check, by reason: mismatch (likely a wrong SLACK_SIGNING_SECRET), stale (a clock off by over five minutes), unsigned.',
    labelNames: ['reason'] as const,
    registers,
  });
  // At 0 from the start, so an alert on its rate has a series before the first failure.
  for (const reason of ['mismatch', 'stale', 'unsigned'] as const)
    signatureFailures.inc({ reason }, 0);
  // Read at scrape time: the outbox is shared, so every replica reports the same figures. A
  // scrape collects the three gauges at once; they share the read that is under way.
  let outboxRead: Promise<OutboxStats | undefined> | undefined;
  const readOutbox = (): Promise<OutboxStats | undefined> => {
    const source = sources.outboxStats;
    if (!source) return Promise.resolve(undefined);
    outboxRead ??= withTimeout('outbox stats', sourceTimeoutMs, source())
      .catch(() => {
        outboxReadErrors.inc();
        return undefined;
      })
      .finally(() => {
        outboxRead = undefined;
      });
    return outboxRead;
  };
  const outboxGauge = (name: string, help: string, value: (stats: OutboxStats) => number) =>
    new Gauge({
      name: `${PREFIX}${name}`,
      help,
      registers,
      async collect() {
        const stats = await readOutbox();
        // An unreadable outbox keeps the last value; the error counter says why.
        if (stats) this.set(value(stats));
      },
    });
  outboxGauge(
    'outbox_depth',
    'Outbox entries not yet done or failed (all replicas), leased ones included.',
    (s) => s.depth,
  );
  outboxGauge(
    'outbox_oldest_age_seconds',
    'Age of the oldest outbox entry not yet done or failed; 0 when the outbox is empty.',
    (s) => s.oldestAgeMs / 1000,
  );
  outboxGauge(
    'outbox_in_flight',
    'Outbox entries a worker is performing now (under a live lease).',
    (s) => s.inFlight,
  );
  const outboxReadErrors = new Counter({
    name: `${PREFIX}outbox_stats_errors_total`,
    help: 'Scrapes at which the outbox could not be read (its gauges kept their last value).',
    registers,
    // Waits for this scrape's read, so a failure shows in the same scrape.
    async collect() {
      await readOutbox();
    },
  });

  const platformRequests = new Counter({
    name: `${PREFIX}platform_requests_total`,
    help: 'HTTP attempts to the service-desk platform by operation and status (no_answer: refused or timed out).',
    labelNames: ['operation', 'status'] as const,
    registers,
  });
  new Gauge({
    name: `${PREFIX}platform_rate_limit_remaining`,
    help: 'X-RateLimit-Remaining of the last platform response this replica saw (the window closest to exhaustion).',
    registers,
    collect() {
      // NaN until a response carried the headers: 0 would read as an exhausted budget.
      this.set(sources.rateLimit?.()?.remaining ?? Number.NaN);
    },
  });
  const rateBudget = new Gauge({
    name: `${PREFIX}rate_budget_remaining`,
    help: 'Requests the shared rate budget (all replicas) still allows, by window.',
    labelNames: ['window'] as const,
    registers,
  });
  const mirrorLatency = new Histogram({
    name: `${PREFIX}mirror_latency_seconds`,
    help: 'Time from a message or change on the platform to its post in the Slack thread.',
    buckets: MIRROR_BUCKETS,
    registers,
  });
  const linkedTickets = new Gauge({
    name: `${PREFIX}linked_tickets`,
    help: 'Tickets linked to a Slack thread, by ticket state.',
    labelNames: ['state'] as const,
    registers,
  });

  const triageCards = new Histogram({
    name: `${PREFIX}triage_card_latency_seconds`,
    help: 'Time from a ticket created on the platform to its card in its desk’s triage channel.',
    buckets: MIRROR_BUCKETS,
    registers,
  });
  const clockWarnings = new Histogram({
    name: `${PREFIX}sla_warning_latency_seconds`,
    help: 'Time from a service-level clock reaching its warning point or due time to its line in the triage thread.',
    buckets: MIRROR_BUCKETS,
    registers,
  });
  const triageGone = new Counter({
    name: `${PREFIX}triage_channel_gone_total`,
    help: 'Times a triage channel was found taking no posts (the app removed, the channel archived); its cards wait, see npm run doctor.',
    registers,
  });

  const webhooks = new Counter({
    name: `${PREFIX}webhook_hints_total`,
    help: 'Platform webhook deliveries by outcome: scheduled, unlinked, duplicate, unauthenticated, stale, malformed, too_large, error.',
    labelNames: ['outcome'] as const,
    registers,
  });
  const lastWebhook = new Gauge({
    name: `${PREFIX}webhook_last_hint_timestamp_seconds`,
    help: 'When this replica last accepted a checked platform webhook (Unix seconds); 0 before the first.',
    registers,
  });

  const peopleRefusals = new Counter({
    name: `${PREFIX}people_refusals_total`,
    help: 'People’s requests (lookup, mine, home, update, form, catalog, unfurl, queue) answered without asking the platform, by reason: fair_share (the person’s own share was spent) or budget (the shared rate budget, or the platform’s 429). Each was told when to try again.',
    labelNames: ['reason', 'request'] as const,
    registers,
  });
  // At 0 from the start, so an alert on its rate has a series before the first refusal.
  for (const reason of ['fair_share', 'budget'] as const)
    for (const request of [
      'lookup',
      'mine',
      'home',
      'update',
      'form',
      'catalog',
      'unfurl',
      'queue',
    ])
      peopleRefusals.inc({ reason, request }, 0);
  const budgetWait = new Histogram({
    name: `${PREFIX}people_budget_wait_seconds`,
    help: 'Time a person’s request waited on the shared rate budget before it went (granted) or was refused (refused).',
    labelNames: ['outcome'] as const,
    buckets: BUDGET_WAIT_BUCKETS,
    registers,
  });
  const peopleAnswers = new Counter({
    name: `${PREFIX}people_answers_total`,
    help: 'Answers to people’s reads by source: platform (a request), cache (read for anyone in the last seconds), known (an earlier read or status, shown with its age).',
    labelNames: ['source', 'request'] as const,
    registers,
  });

  return {
    registry,
    countPeopleRefusal(reason, request) {
      peopleRefusals.inc({ reason, request });
    },
    observeBudgetWait(seconds, outcome) {
      budgetWait.observe({ outcome }, Math.max(0, seconds));
    },
    countPeopleAnswer(source, request) {
      peopleAnswers.inc({ source, request });
    },
    observeTriageCard(seconds) {
      triageCards.observe(Math.max(0, seconds));
    },
    countTriageChannelGone() {
      triageGone.inc();
    },
    observeClockWarning(seconds) {
      clockWarnings.observe(Math.max(0, seconds));
    },
    countWebhook(outcome) {
      webhooks.inc({ outcome });
      if (outcome === 'scheduled' || outcome === 'unlinked' || outcome === 'duplicate')
        lastWebhook.set(Date.now() / 1000);
    },
    observeSlackRequest(kind, outcome, ackMs) {
      slackRequests.inc({ kind, outcome });
      ackSeconds.observe({ kind }, ackMs / 1000);
    },
    countDuplicate(intent) {
      duplicates.inc({ intent });
    },
    countSignatureFailure(reason) {
      signatureFailures.inc({ reason });
    },
    observePlatformResponse(operation, status) {
      platformRequests.inc({
        operation,
        status: status === undefined ? 'no_answer' : String(status),
      });
    },
    setRateBudgetRemaining(window, remaining) {
      rateBudget.set({ window }, remaining);
    },
    observeMirrorLatency(seconds) {
      mirrorLatency.observe(Math.max(0, seconds));
    },
    setLinkedTickets(counts) {
      linkedTickets.reset();
      for (const [state, count] of Object.entries(counts)) linkedTickets.set({ state }, count);
    },
  };
}

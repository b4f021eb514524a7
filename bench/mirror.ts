/**
 * The mirror under load, on a simulated clock: an hour of traffic runs in about a second.
 *
 * The real schedule, stores (the in-memory twins), rate budget, client hooks, service-desk
 * client, mirror worker, ticket hints and change feed run against the emulator's model on a
 * simulated clock, and so does the emulator's webhook sender (its timers are on the clock too).
 * The mirror is the `MirrorComponent` that `src/runtime.ts` builds (planner, pacer, hints, feed
 * and worker), on the simulated clock (the runtime itself needs real time and HTTP, which an
 * hour simulated in a second cannot give it), and the app's side of a reply goes through its
 * `Mirror` interface as the Slack side's does. The
 * platform side counts every request the app makes (the poller's and the people's adds alike)
 * and applies the platform's own rate limiter, answering 429 as the emulator does. Slack is a
 * poster that records when each message and change line was posted. Traffic is described in
 * `bench/mirror/traffic.ts`: drawn before the run from its own random stream, so every strategy
 * at one seed meets the same traffic. A warm-up runs before the measured minutes, and the run
 * goes on (traffic too) for a grace period after them, so a late post still counts as late
 * rather than as missing.
 *
 * Strategies: `fixed` (every linked ticket on one timer), `adaptive` (per-ticket looks on the
 * adaptive schedule, nothing else), `sweep` and `filter` (the change feed over List tickets,
 * without and with `updated_after`, on top of the adaptive schedule), `push` (the platform's
 * webhooks as hints, plus the feed the platform allows, on top of the adaptive schedule).
 *
 * Prints one JSON line on stdout: the run's settings; requests_per_hour and
 * max_requests_per_minute (every request in the measured window); rate_limited (429s, whole
 * run); interactive_delayed (people's requests that waited for budget); latency_p50/p95/max_s
 * and hot_latency_p50/p95_s (a public platform message created in the window → posted in its
 * thread); status_latency_p95_s (a status change → its change line); missed (messages created
 * in the window and not posted by its end plus the grace; they count in the latencies with the
 * time they waited); duplicate_posts (a message or change line posted twice); failed_adds
 * (people's replies the platform never got, whole run); poller_requests_per_hour and
 * poller_max_requests_per_minute (everything but people's adds: looks, fetches, feed scans);
 * looks_per_hour (polls of a ticket saved in the window) and empty_looks_per_hour (of them,
 * looks that found nothing new: neither cursor moved); claims (tickets the worker claimed in the
 * window) and claims_put_back (of them, looks the
 * budget's pacer refused, put back unlooked); budget_deferred (the poller's requests the budget
 * itself deferred, each putting its claim back); cpu_s (the process's CPU time).
 * Details (traffic digest, requests by operation, latencies by kind, feed scans, webhook
 * deliveries, the round-robin bound, `--series`) go to stderr as a second JSON line;
 * `--breakdown` adds, after the first line, the traffic's floor beside what was spent, the
 * busiest rolling hour of the run by that floor, and the poller's requests by operation and
 * target, as Markdown tables.
 *
 * Run: npm run bench:mirror -- --tickets 500 --hot 50 --minutes 60 --seed 1 --strategy adaptive
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { emptyFeedRecord, feedRecordData } from '../src/mirror/change-feed-record.ts';
import { factsOf } from '../src/mirror/change-feed-scan.ts';
import {
  AdaptivePlanner,
  BudgetDeferredError,
  type ClockWarningPosted,
  createBudgetHooks,
  FixedPlanner,
  initialMirrorState,
  MirrorComponent,
  type MirrorPoster,
  RELAXED_PACE,
  WEBHOOK_PATH,
  webhookHandler,
} from '../src/mirror/index.ts';
import {
  hashIdempotencyKey,
  parseServiceTargets,
  ServiceDeskClient,
  type Ticket,
} from '../src/servicedesk/index.ts';
import { allowance, createMemoryStores } from '../src/store/index.ts';
import type { TicketFacts } from '../src/store/types.ts';
import { createPlatform, type WebhookTransport } from '../tools/emulator/index.ts';
import { seededRandom } from '../tools/emulator/random.ts';
import { maxInWindow, percentile, round1 } from './mirror/figures.ts';
import { InProcessPlatform } from './mirror/in-process-platform.ts';
import { SimulatedClock } from './mirror/simulated-clock.ts';
import {
  AGENTS,
  DEFAULT_TRAFFIC,
  drawTraffic,
  playTraffic,
  type TrafficModel,
} from './mirror/traffic.ts';

const HELP = `npm run bench:mirror -- [options]

  --strategy fixed|adaptive|sweep|filter|push   (adaptive)
  --tickets N        linked tickets, each followed by a Slack thread (500)
  --hot N            of them live conversations (50)
  --unlinked N       tickets on the platform no thread follows (0)
  --desks N          desks the tickets are spread over (1)
  --webhook-drop P   share of webhook deliveries lost, push only (0)
  --triage           3 desks with triage channels, new tickets made on the platform during the
                     run (--triage-new-per-hour, 30), each answered by the AI agent; prints
                     triage_card_latency_p95_s (created -> its card) and the triage threads' posts
  --sla             service-level clocks on the triage cards (implies --triage): SLA_TARGETS
                     *:*=15m/8h, warnings at 80%; a share of the new tickets
                     (--sla-unanswered, 0.5) gets no answer, so their clocks warn and breach;
                     prints sla_warning_latency_p95_s (the point -> its line), the warnings,
                     breaches, missed and duplicate ones. --no-clocks: the same traffic without
                     the clock watch, for the requests it would cost (none)
  --no-updated-after the platform lacks updated_after (push then sweeps; sweep always does)
  --lived-in-hours N each linked ticket's last look is drawn evenly from the N hours before
                     the start, not before its creation (24): a mirror that has been running
  --no-filed-facts   the feed knows nothing of the linked tickets at start (linked before the
                     app kept each filed ticket's desk and creation): a sweep learns them
  --minutes N        measured minutes (60)
  --warmup N         minutes before them (120)
  --grace N          minutes the run goes on after them before a message counts as missed (60)
  --seed N           traffic and app randomness (1)
  --series           per-10-minute figures on stderr (to see the warm-up settle)
  traffic: --requester-per-hour, --ai-share, --ai-delay-min-s, --ai-delay-max-s,
           --human-reply-mean-s, --hot-unprompted-per-hour, --cold-messages-per-hour,
           --unlinked-messages-per-hour, --unlinked-changes-per-hour`;

const { values } = parseArgs({
  allowNegative: true,
  options: {
    help: { type: 'boolean', default: false },
    tickets: { type: 'string', default: '500' },
    hot: { type: 'string', default: '50' },
    unlinked: { type: 'string', default: '0' },
    desks: { type: 'string', default: '1' },
    'webhook-drop': { type: 'string', default: '0' },
    triage: { type: 'boolean', default: false },
    'triage-new-per-hour': { type: 'string', default: '30' },
    sla: { type: 'boolean', default: false },
    clocks: { type: 'boolean', default: true },
    'sla-unanswered': { type: 'string', default: '0.5' },
    'updated-after': { type: 'boolean', default: true },
    'filed-facts': { type: 'boolean', default: true },
    'lived-in-hours': { type: 'string', default: '24' },
    minutes: { type: 'string', default: '60' },
    warmup: { type: 'string', default: '120' },
    grace: { type: 'string', default: '60' },
    seed: { type: 'string', default: '1' },
    strategy: { type: 'string', default: 'adaptive' },
    series: { type: 'boolean', default: false },
    breakdown: { type: 'boolean', default: false },
    'requester-per-hour': { type: 'string' },
    'ai-share': { type: 'string' },
    'ai-delay-min-s': { type: 'string' },
    'ai-delay-max-s': { type: 'string' },
    'human-reply-mean-s': { type: 'string' },
    'hot-unprompted-per-hour': { type: 'string' },
    'cold-messages-per-hour': { type: 'string' },
    'unlinked-messages-per-hour': { type: 'string' },
    'unlinked-changes-per-hour': { type: 'string' },
  },
});
if (values.help) {
  console.log(HELP);
  process.exit(0);
}

function count(name: string, raw: string | undefined, min = 0, max = Number.POSITIVE_INFINITY) {
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max) {
    console.error(`--${name} must be a number from ${min}${max < Infinity ? ` to ${max}` : ''}`);
    process.exit(2);
  }
  return value;
}

const STRATEGIES = ['fixed', 'adaptive', 'sweep', 'filter', 'push'] as const;
type Strategy = (typeof STRATEGIES)[number];
const STRATEGY = values.strategy as Strategy;
if (!STRATEGIES.includes(STRATEGY)) {
  console.error(`--strategy must be one of ${STRATEGIES.join(', ')}`);
  process.exit(2);
}
const TICKETS = Math.floor(count('tickets', values.tickets, 1));
const HOT = Math.min(TICKETS, Math.floor(count('hot', values.hot)));
const UNLINKED = Math.floor(count('unlinked', values.unlinked));
// Clocks show on triage cards: --sla brings triage with it.
const SLA = values.sla;
const CLOCKS = SLA && values.clocks;
const SLA_UNANSWERED = count('sla-unanswered', values['sla-unanswered'], 0, 1);
const SLA_TARGETS = '*:*=15m/8h';
const SLA_WARN_AT = 0.8;
const TRIAGE = values.triage || SLA;
const TRIAGE_NEW_PER_HOUR = count('triage-new-per-hour', values['triage-new-per-hour']);
// Triage needs three desks, each with its channel.
const DESKS = Math.max(TRIAGE ? 3 : 1, Math.floor(count('desks', values.desks, 1)));
const WEBHOOK_DROP = count('webhook-drop', values['webhook-drop'], 0, 1);
const MINUTES = count('minutes', values.minutes, 1);
const WARMUP = count('warmup', values.warmup);
const GRACE = count('grace', values.grace);
const SEED = Math.floor(count('seed', values.seed));
// The contract's minimum has no updated_after: a sweep is what such a platform allows.
const UPDATED_AFTER = STRATEGY === 'sweep' ? false : values['updated-after'];
const optional = (name: keyof typeof values, fallback: number, scale = 1) =>
  values[name] === undefined ? fallback : count(name, values[name] as string) * scale;
const TRAFFIC: TrafficModel = {
  requesterPerHour: optional('requester-per-hour', DEFAULT_TRAFFIC.requesterPerHour),
  aiShare: optional('ai-share', DEFAULT_TRAFFIC.aiShare),
  aiDelayMinMs: optional('ai-delay-min-s', DEFAULT_TRAFFIC.aiDelayMinMs, 1_000),
  aiDelayMaxMs: optional('ai-delay-max-s', DEFAULT_TRAFFIC.aiDelayMaxMs, 1_000),
  humanReplyMeanMs: optional('human-reply-mean-s', DEFAULT_TRAFFIC.humanReplyMeanMs, 1_000),
  hotUnpromptedPerHour: optional('hot-unprompted-per-hour', DEFAULT_TRAFFIC.hotUnpromptedPerHour),
  coldMessagesPerHour: optional('cold-messages-per-hour', DEFAULT_TRAFFIC.coldMessagesPerHour),
  coldChangesPerHour: DEFAULT_TRAFFIC.coldChangesPerHour,
  unlinkedMessagesPerHour: optional(
    'unlinked-messages-per-hour',
    DEFAULT_TRAFFIC.unlinkedMessagesPerHour,
  ),
  unlinkedChangesPerHour: optional(
    'unlinked-changes-per-hour',
    DEFAULT_TRAFFIC.unlinkedChangesPerHour,
  ),
};
if (TRAFFIC.aiDelayMaxMs < TRAFFIC.aiDelayMinMs) {
  console.error('--ai-delay-max-s must not be less than --ai-delay-min-s');
  process.exit(2);
}

const TENANT = 'acme';
const PER_MINUTE = 100;
const PER_HOUR = 1_000;
const RESERVE = 0.2;
const HOUR_MS = 3_600_000;
const WEBHOOK_SECRET = 'bench-webhook-secret';
// A Monday morning, off any minute or hour boundary of the platform's fixed windows.
const START = Date.UTC(2026, 0, 5, 9, 17, 23, 456);
const MEASURE_FROM = START + WARMUP * 60_000;
const END = MEASURE_FROM + MINUTES * 60_000;
const GRACE_END = END + GRACE * 60_000;
const inWindow = (at: number) => at >= MEASURE_FROM && at < END;

// Two random streams: the traffic's (tickets, hot ones, every event), drawn before the run,
// and the app's (jitter, spreading the schedule), which differs by strategy without touching
// the traffic. The webhook faults have a third, the emulator's own.
const trafficRandom = seededRandom(SEED);
const appRandom = seededRandom(SEED ^ 0x6170_7021);

const clock = new SimulatedClock(START);
// The webhook receiver is wired below, once the hints exist; the sender only needs a function.
let receiveWebhook: WebhookTransport = async () => 503;
const { model, agent, webhooks } = createPlatform({
  tenants: [],
  seed: 'empty',
  now: clock.now,
  // The AI agent and the webhook sender run on the simulated clock.
  scheduler: clock,
  // The bench's clocks are SLA_TARGETS' (`--sla`): a platform clock of its own would win over them.
  capabilities: { updatedAt: true, updatedAfter: UPDATED_AFTER, serviceLevels: false },
  randomSeed: SEED,
  ...(STRATEGY === 'push'
    ? {
        webhook: {
          url: 'http://app.invalid/servicedesk/webhook',
          secret: WEBHOOK_SECRET,
          tenant: TENANT,
          dropRate: WEBHOOK_DROP,
          transport: (request, signal) => receiveWebhook(request, signal),
        },
      }
    : {}),
});
agent.stop();
const desks = Array.from({ length: DESKS }, (_, i) => ({
  slug: `desk-${i + 1}`,
  name: `Desk ${i + 1}`,
  parent_slug: null,
}));
model.addTenant({ name: TENANT, ticketPrefix: 'IT', desks });
for (const email of AGENTS) {
  const name = email
    .split('@')[0]
    ?.split('.')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join(' ');
  model.addEmployee(TENANT, { id: email, email, name: name ?? email, role: 'agent' });
}

const platform = new InProcessPlatform({
  model,
  now: clock.now,
  tenant: TENANT,
  perMinute: PER_MINUTE,
  perHour: PER_HOUR,
});
const stores = createMemoryStores({
  now: clock.now,
  budget: { perMinute: PER_MINUTE, perHour: PER_HOUR, reserve: RESERVE },
});
let interactiveDelayed = 0;
const hooks = createBudgetHooks({
  budget: stores.budget,
  now: clock.now,
  sleep: clock.sleep,
  onInteractiveDelayed: () => {
    if (clock.now() >= MEASURE_FROM && clock.now() < END) interactiveDelayed += 1;
  },
});
// Claims the worker made in the measured window; those it put back without a look because the
// budget's pacer refused them; and the poller's requests the budget itself deferred (each puts
// its claim back, unlooked when it was the look's first): the churn of a schedule that hands
// out what cannot go yet.
const churn = { claims: 0, putBack: 0, deferred: 0, looks: 0, emptyLooks: 0 };
const client = new ServiceDeskClient({
  baseUrl: 'http://acme.platform.invalid',
  apiKey: 'sd_acme_rw',
  dispatcher: platform.dispatcher(),
  acquire: async (ticket) => {
    try {
      await hooks.acquire(ticket);
    } catch (error) {
      if (error instanceof BudgetDeferredError && inWindow(clock.now())) churn.deferred += 1;
      throw error;
    }
  },
  onRateLimit: hooks.onRateLimit,
  now: clock.now,
  sleep: clock.sleep,
  random: appRandom,
});

// --- the tickets: drawn from the traffic's stream, the same for every strategy ---------------

const linked: string[] = [];
const unlinked: string[] = [];
const createdAt = new Map<string, number>();
// Linked and unlinked tickets interleave in creation order, as they arrive at a real desk.
const total = TICKETS + UNLINKED;
const linkedOrder = new Set<number>();
{
  const order = Array.from({ length: total }, (_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(trafficRandom() * (i + 1));
    [order[i], order[j]] = [order[j] as number, order[i] as number];
  }
  for (const index of order.slice(0, TICKETS)) linkedOrder.add(index);
}
const ages = Array.from({ length: total }, () => trafficRandom() * 3 * 86_400_000).sort(
  (a, b) => b - a,
);
for (let i = 0; i < total; i++) {
  const at = START - (ages[i] as number);
  const deskId = desks[Math.floor(trafficRandom() * DESKS)]?.slug as string;
  const isLinked = linkedOrder.has(i);
  const ticket = model.atTime(at, () =>
    model.createTicket(TENANT, {
      title: `Request ${i + 1}`,
      requester_email: `person${i + 1}@acme.example`,
      channel: isLinked ? 'slack' : 'email',
      desk_id: deskId,
    }),
  );
  (isLinked ? linked : unlinked).push(ticket.id);
  createdAt.set(ticket.id, at);
}
// Which linked tickets are hot: a seeded Fisher-Yates shuffle.
const shuffled = [...linked];
for (let i = shuffled.length - 1; i > 0; i--) {
  const j = Math.floor(trafficRandom() * (i + 1));
  [shuffled[i], shuffled[j]] = [shuffled[j] as string, shuffled[i] as string];
}
const hot = new Set(shuffled.slice(0, HOT));
const events = drawTraffic(trafficRandom, { linked, hot, unlinked }, TRAFFIC, START, GRACE_END);

// --- the app ---------------------------------------------------------------------------------

// When each linked ticket was last looked at: a stream of its own, the same for every strategy.
const livedInRandom = seededRandom(SEED ^ 0x6c6f_6f6b);
const livedInMs = count('lived-in-hours', values['lived-in-hours']) * HOUR_MS;
for (const [index, ticketId] of linked.entries()) {
  const at = createdAt.get(ticketId) as number;
  const lookedAt = Math.max(at, START - 1 - Math.floor(livedInRandom() * livedInMs));
  await stores.links.link(ticketId, {
    channel: 'C0BENCH',
    threadTs: `1700000000.${index + 100000}`,
  });
  await stores.mirror.saveState(ticketId, {
    ...initialMirrorState(),
    activityCursor: model.listActivity(TENANT, ticketId).length,
    lastActivityAt: at,
    lastAnswerAt: at,
    lastPolledAt: lookedAt,
    status: 'new',
    requesterEmail: model.findTicket(TENANT, ticketId)?.requester_email ?? undefined,
  });
}
// What the app kept of each ticket when it filed it (`Mirror.ticketFiled`): its desk and
// creation, which place it in its desk's list.
if (values['filed-facts']) {
  await stores.feed.noteFacts(
    new Map(
      linked.map((ticketId) => {
        const ticket = model.findTicket(TENANT, ticketId) as Ticket;
        return [ticketId, factsOf(ticket, createdAt.get(ticketId) as number) as TicketFacts];
      }),
    ),
  );
}

const backgroundPerHour = Math.floor(PER_HOUR * (1 - RESERVE));
const fixedIntervalMs = Math.ceil((TICKETS * HOUR_MS) / backgroundPerHour);
const planner = STRATEGY === 'fixed' ? new FixedPlanner(fixedIntervalMs) : new AdaptivePlanner();
// The change feed (filter and sweep, and push's safety net): one feed on the same stores, hints,
// pacer and planner as the worker, forced to the way the strategy names, as
// SERVICE_DESK_CHANGE_FEED=filter|sweep would (auto finds the same way on this platform).
const feedMode: 'filter' | 'sweep' | undefined =
  STRATEGY === 'filter' || STRATEGY === 'sweep' || STRATEGY === 'push'
    ? UPDATED_AFTER
      ? 'filter'
      : 'sweep'
    : undefined;
// A feed by updated_after that has been running as long as the mirror: its cursor now, every
// change since the lived-in hours began read (what it vouches for).
if (livedInMs > 0 && feedMode === 'filter') {
  await stores.feed.saveState({
    scannedAt: START - 1,
    data: feedRecordData({
      ...emptyFeedRecord(),
      way: 'filter',
      detectedAt: START - livedInMs,
      cursor: START - 1,
      since: START - livedInMs,
    }),
  });
}
// Clocks: each warning and breach line posted (its point and when), and posts made twice.
const slaLines: ClockWarningPosted[] = [];
const slaPosted = new Set<string>();
let slaDuplicates = 0;
const slaPost = (key: unknown[]) => {
  const text = JSON.stringify(key);
  if (slaPosted.has(text)) slaDuplicates += 1;
  slaPosted.add(text);
  return 'posted' as const;
};
// Triage: when each new ticket's card was posted, and posts made twice in triage threads.
const cardsPosted = new Map<string, number>();
let triageDuplicates = 0;
const scans = {
  scans: 0,
  requests: 0,
  changed: 0,
  postponed: 0,
  incomplete: 0,
  swept: 0,
  looked: 0,
};
// The mirror composed as the runtime composes it (planner, pacer, hints, feed; the worker
// once the poster below exists), on the simulated clock.
const mirror = new MirrorComponent({
  platform: client,
  stores,
  logger: pino({ level: 'silent' }),
  planner,
  paced: STRATEGY !== 'fixed',
  ...(feedMode ? { feedMode } : {}),
  now: clock.now,
  sleep: clock.sleep,
  random: appRandom,
  clocks: CLOCKS
    ? {
        targets: parseServiceTargets(SLA_TARGETS).targets,
        warnAt: SLA_WARN_AT,
        onWarned: (warning) => slaLines.push(warning),
      }
    : false,
  triage: TRIAGE
    ? {
        pushed: STRATEGY === 'push',
        onCard: (card) => {
          if (cardsPosted.has(card.ticketId)) triageDuplicates += 1;
          cardsPosted.set(card.ticketId, card.postedAt);
        },
      }
    : false,
  feed: {
    pushed: STRATEGY === 'push',
    onScan: (scan) => {
      if (!inWindow(scan.startedAt)) return;
      scans.scans += 1;
      scans.requests += scan.requests;
      scans.changed += scan.changed;
      scans.postponed += scan.postponed;
      if (!scan.complete) scans.incomplete += 1;
      for (const range of scan.ranges) scans[range.choice === 'sweep' ? 'swept' : 'looked'] += 1;
    },
  },
});
const { pacer } = mirror;
const claimDue = stores.schedule.claimDue.bind(stores.schedule);
stores.schedule.claimDue = async (limit, leaseMs) => {
  const claims = await claimDue(limit, leaseMs);
  if (inWindow(clock.now())) churn.claims += claims.length;
  return claims;
};
// A look is a saved poll; an empty one moved neither cursor: it found nothing new at all.
const saveState = stores.mirror.saveState.bind(stores.mirror);
stores.mirror.saveState = async (ticketId, state) => {
  const before = await stores.mirror.state(ticketId);
  if (inWindow(clock.now()) && state.lastPolledAt > (before?.lastPolledAt ?? 0)) {
    churn.looks += 1;
    const found =
      state.activityCursor > (before?.activityCursor ?? 0) ||
      state.messageCursor > (before?.messageCursor ?? 0);
    if (!found) churn.emptyLooks += 1;
  }
  return saveState(ticketId, state);
};
if (pacer) {
  const roomAt = pacer.roomAt.bind(pacer);
  pacer.roomAt = async (priority) => {
    const at = await roomAt(priority);
    if (at !== undefined && inWindow(clock.now())) churn.putBack += 1;
    return at;
  };
}
// Each ticket somewhere in its current interval, as in a schedule that has been running (the
// pacer sizes intervals by the number of scheduled tickets, so they are all put in first).
for (const ticketId of linked) await stores.schedule.pollAt(ticketId, END);
const initialPace = (await pacer?.refresh()) ?? RELAXED_PACE;
for (const ticketId of linked) {
  const state = await stores.mirror.state(ticketId);
  const next = state ? planner.next(state, START, initialPace) : 'stop';
  const intervalMs = next === 'stop' ? fixedIntervalMs : next - START;
  await stores.schedule.remove(ticketId);
  await stores.schedule.pollAt(ticketId, START + appRandom() * intervalMs);
}

// Slack: a poster that records when each message and change line reached its thread.
const posted = new Map<string, number>();
const changesPosted = new Map<string, number>();
let duplicatePosts = 0;
// What reached the triage threads, by thread and item.
const triagePosted = new Map<string, number>();
let triageCards = 0;
const triagePost = (thread: { channel: string; threadTs: string }, itemId: string) => {
  const key = JSON.stringify([thread.channel, thread.threadTs, itemId]);
  if (triagePosted.has(key)) triageDuplicates += 1;
  triagePosted.set(key, clock.now());
  return 'posted' as const;
};
const poster: MirrorPoster = {
  async postTriageCard() {
    triageCards += 1;
    return { ts: `1800000000.${String(triageCards).padStart(6, '0')}` };
  },
  async findTriageCard() {
    return undefined;
  },
  async postMessage(thread, _ticketId, message) {
    if (thread.triage) return triagePost(thread, message.id);
    if (posted.has(message.id)) duplicatePosts += 1;
    posted.set(message.id, clock.now());
    return 'posted';
  },
  async postChange(thread, change) {
    if (thread.triage) return triagePost(thread, change.activity.id);
    if (changesPosted.has(change.activity.id)) duplicatePosts += 1;
    changesPosted.set(change.activity.id, clock.now());
    return 'posted';
  },
  async notifyRequester() {
    return 'posted';
  },
  async findPosted() {
    return false;
  },
  async refreshCard() {},
  async postClockWarning(thread, warning) {
    return slaPost([warning.ticket.id, warning.itemId, thread.channel, thread.threadTs]);
  },
  async postBreachNotice(thread, warning) {
    return slaPost([warning.ticket.id, warning.itemId, thread.channel]);
  },
  async findBreachNotice(thread, warning) {
    return slaPosted.has(JSON.stringify([warning.ticket.id, warning.itemId, thread.channel]));
  },
};

// Push: the app's own webhook route, in process. The sender's request becomes a request
// stream and a response that tells the sender its status; the route checks the signature and
// its window, does nothing more for a delivery id it has seen, and hints.
const hookOutcomes: Record<string, number> = {};
const webhookRoute = webhookHandler({
  secret: WEBHOOK_SECRET,
  hints: mirror.hints,
  triage: mirror.triage,
  claims: stores.claims,
  now: clock.now,
  onOutcome: (outcome) => {
    hookOutcomes[outcome] = (hookOutcomes[outcome] ?? 0) + 1;
  },
  logger: pino({ level: 'silent' }),
});
receiveWebhook = (request) =>
  new Promise<number>((resolve) => {
    const req = Object.assign(new PassThrough(), {
      method: 'POST',
      url: WEBHOOK_PATH,
      headers: Object.fromEntries(
        Object.entries(request.headers).map(([name, value]) => [name.toLowerCase(), value]),
      ),
    });
    let status = 0;
    const res = {
      writeHead(code: number) {
        status = code;
        return res;
      },
      end() {
        resolve(status);
        return res;
      },
    };
    webhookRoute(req as unknown as IncomingMessage, res as unknown as ServerResponse);
    req.end(request.body);
  });

// The worker, on the same stores, hints, pacer and planner as the feed, around this Slack.
mirror.attach(poster);

// The app's side of a reply in a linked thread: remembered as its own, added as the person
// (an interactive request, inside the budget), and the ticket looked at again soon.
const ownIds = new Set<string>();
let failedAdds = 0;
const failedAddReasons: Record<string, number> = {};
async function requesterWrites(ticketId: string, body: string): Promise<boolean> {
  const email = model.findTicket(TENANT, ticketId)?.requester_email ?? 'someone@acme.example';
  await mirror.rememberOwnMessage(ticketId, email, body);
  try {
    const message = await client.addMessage(
      ticketId,
      { body, author_email: email },
      {
        idempotencyKey: hashIdempotencyKey(`bench:${ticketId}:${body}`),
        priority: 'interactive',
      },
    );
    ownIds.add(message.id);
    await mirror.rememberOwnMessageId(ticketId, message.id);
    await mirror.slackWrote(ticketId);
    return true;
  } catch (error) {
    // Counted: a person's reply the platform never got would be a failure of the app.
    failedAdds += 1;
    const name = error instanceof Error ? error.name : 'unknown';
    failedAddReasons[name] = (failedAddReasons[name] ?? 0) + 1;
    return false;
  }
}

playTraffic({ model, clock, tenant: TENANT, requesterWrites }, events);
// The pacer's stretch at the start of each 10 minutes, for the series.
const stretches = new Map<number, number>();
if (values.series && pacer) {
  for (let at = START; at < END; at += 10 * 60_000) {
    clock.schedule(at - START, () => stretches.set(at, round1(pacer.pace().stretch)));
  }
}
// Triage: each desk's channel, and tickets made on the platform (email, portal) during the run,
// from their own random stream (the traffic's stays the same), each answered by the AI agent.
const triageNew: { ticketId: string; at: number; answered: boolean }[] = [];
if (TRIAGE) {
  for (const [index, desk] of desks.slice(0, 3).entries()) {
    await stores.triageChannels.set(desk.slug, `C0TRIAGE${index + 1}`);
  }
  // Announced from now on: the tickets made before the run are no new tickets.
  if (STRATEGY === 'push') webhooks.update({ announceCreated: true });
  const triageRandom = seededRandom(SEED ^ 0x7472_6961);
  // Which new tickets nobody answers (--sla): a stream of its own, the triage one unchanged.
  const slaRandom = seededRandom(SEED ^ 0x736c_6121);
  const newTickets = Math.round((TRIAGE_NEW_PER_HOUR * (GRACE_END - START)) / HOUR_MS);
  for (let n = 0; n < newTickets; n++) {
    const at = START + 60_000 + triageRandom() * (GRACE_END - START - 60_000);
    const desk = desks[Math.floor(triageRandom() * 3)]?.slug as string;
    const answerInMs = 5_000 + triageRandom() * 55_000;
    const answered = !SLA || slaRandom() >= SLA_UNANSWERED;
    clock.schedule(at - START, () => {
      const ticket = model.createTicket(TENANT, {
        title: `Platform request ${n + 1}`,
        requester_email: `walkin${n + 1}@acme.example`,
        channel: 'email',
        desk_id: desk,
      });
      triageNew.push({ ticketId: ticket.id, at: clock.now(), answered });
      if (!answered) return;
      clock.schedule(answerInMs, () => {
        model.addAiMessage(TENANT, ticket.id, 'AI answer: here is what usually fixes this.', []);
      });
    });
  }
}

mirror.start();
await clock.runUntil(GRACE_END);
const stopping = mirror.stop();
await clock.runUntil(GRACE_END + 60_000);
await stopping;
webhooks.close();

// --- figures ---------------------------------------------------------------------------------

interface Sample {
  createdAt: number;
  latencyS: number;
  hot: boolean;
  /** What the traffic wrote: AI answer, Agent answer, AI note, Agent note. */
  kind: string;
}
const samples: Sample[] = [];
const statusSamples: Sample[] = [];
let echoes = 0;
let missed = 0;
let statusMissed = 0;
// Everything the run saw, for the series; the headline figures keep to the measured window.
const allSamples: Sample[] = [];
for (const ticketId of linked) {
  for (const message of model.listMessages(TENANT, ticketId)) {
    const at = Date.parse(message.created_at);
    const own = ownIds.has(message.id);
    if (own && posted.has(message.id)) echoes += 1;
    if (own || message.internal || at >= END) continue;
    const postedAt = posted.get(message.id);
    const sample = {
      createdAt: at,
      latencyS: ((postedAt ?? GRACE_END) - at) / 1000,
      hot: hot.has(ticketId),
      kind: message.body.split(' #')[0] ?? 'other',
    };
    allSamples.push(sample);
    if (!inWindow(at)) continue;
    if (postedAt === undefined) missed += 1;
    samples.push(sample);
  }
  for (const entry of model.listActivity(TENANT, ticketId)) {
    const at = Date.parse(entry.created_at);
    if (entry.type !== 'status_changed' || !inWindow(at)) continue;
    const postedAt = changesPosted.get(entry.id);
    if (postedAt === undefined) statusMissed += 1;
    statusSamples.push({
      createdAt: at,
      latencyS: ((postedAt ?? GRACE_END) - at) / 1000,
      hot: hot.has(ticketId),
      // A requester's message reopening the ticket is the app's own write; an agent's is news.
      kind: entry.actor?.includes('@') && !AGENTS.includes(entry.actor) ? 'reopened' : 'agent',
    });
  }
}

// Triage: each new ticket's card (created -> posted), and its messages in its triage thread.
const triageLatencies: number[] = [];
let triageMissed = 0;
let triageMessagesMissed = 0;
const triageItems = new Set([...triagePosted.keys()].map((key) => JSON.parse(key)[2] as string));
for (const { ticketId, at } of triageNew) {
  if (!inWindow(at)) continue;
  const cardAt = cardsPosted.get(ticketId);
  if (cardAt === undefined) triageMissed += 1;
  triageLatencies.push(((cardAt ?? GRACE_END) - at) / 1000);
  for (const message of model.listMessages(TENANT, ticketId)) {
    if (Date.parse(message.created_at) < END && !triageItems.has(message.id))
      triageMessagesMissed += 1;
  }
}

// Clocks: every new ticket left unanswered whose warning point or due time fell in the window
// should have its line; the latency is from that point to the line.
const FIRST_RESPONSE_MS = parseServiceTargets(SLA_TARGETS).targets.get('*:*')?.firstResponseMs ?? 0;
const slaLatencies = slaLines
  .filter((line) => inWindow(line.pointAt))
  .map((line) => (line.postedAt - line.pointAt) / 1000);
let slaMissed = 0;
let slaExpected = 0;
if (SLA) {
  const lined = new Set(slaLines.map((line) => `${line.ticketId} ${line.level}`));
  for (const { ticketId, at, answered } of triageNew) {
    if (answered) continue;
    const points = [
      ['warning', at + FIRST_RESPONSE_MS * SLA_WARN_AT],
      ['breach', at + FIRST_RESPONSE_MS],
    ] as const;
    for (const [level, pointAt] of points) {
      if (!inWindow(pointAt)) continue;
      slaExpected += 1;
      if (!lined.has(`${ticketId} ${level}`)) slaMissed += 1;
    }
  }
}

const cpuAtEnd = process.cpuUsage();
const measured = platform.requests.filter((r) => inWindow(r.at));
const all = samples.map((s) => s.latencyS);
const hotOnly = samples.filter((s) => s.hot).map((s) => s.latencyS);
const poller = measured.filter((r) => r.operation !== 'addMessage');
const perHour = (n: number) => Math.round((n * 60) / MINUTES);
const pollerPerHour = perHour(poller.length);
const interactivePerHour = perHour(measured.length - poller.length);
// The round-robin bound (docs/benchmarks.md): what the budget leaves background work after one
// first look per write (its own share, and everyone's hour less the room kept for people and
// the writes themselves), spent in turn on the hot tickets; a message arriving at random waits
// 0.95 of a turn at the 95th percentile.
const hourAllowance = allowance(stores.budget.limits, 'background');
const looksPerHour = Math.min(
  (hourAllowance.own?.hour ?? backgroundPerHour) - interactivePerHour,
  hourAllowance.hour - 2 * interactivePerHour,
);
const roundRobinP95 =
  HOT > 0 && looksPerHour > 0 ? round1((0.95 * HOT * 3600) / looksPerHour) : null;

console.log(
  JSON.stringify({
    strategy: STRATEGY,
    tickets: TICKETS,
    hot: HOT,
    unlinked: UNLINKED,
    desks: DESKS,
    webhook_drop: WEBHOOK_DROP,
    requests_per_hour: perHour(measured.length),
    max_requests_per_minute: maxInWindow(
      measured.map((r) => r.at),
      60_000,
    ),
    rate_limited: platform.requests.filter((r) => r.status === 429).length,
    interactive_delayed: interactiveDelayed,
    latency_p50_s: percentile(all, 0.5),
    latency_p95_s: percentile(all, 0.95),
    latency_max_s: percentile(all, 1),
    hot_latency_p50_s: percentile(hotOnly, 0.5),
    hot_latency_p95_s: percentile(hotOnly, 0.95),
    status_latency_p95_s: percentile(
      statusSamples.map((s) => s.latencyS),
      0.95,
    ),
    missed,
    duplicate_posts: duplicatePosts,
    failed_adds: failedAdds,
    ...(TRIAGE
      ? {
          triage_cards: triageLatencies.length,
          triage_card_latency_p50_s: percentile(triageLatencies, 0.5),
          triage_card_latency_p95_s: percentile(triageLatencies, 0.95),
          triage_card_latency_max_s: percentile(triageLatencies, 1),
          triage_cards_missed: triageMissed,
          triage_messages_missed: triageMessagesMissed,
          triage_duplicate_posts: triageDuplicates,
        }
      : {}),
    ...(SLA
      ? {
          sla_clocks: CLOCKS,
          sla_lines_expected: slaExpected,
          sla_warnings: slaLines.filter((l) => inWindow(l.pointAt) && l.level === 'warning').length,
          sla_breaches: slaLines.filter((l) => inWindow(l.pointAt) && l.level === 'breach').length,
          sla_warning_latency_p50_s: percentile(slaLatencies, 0.5),
          sla_warning_latency_p95_s: percentile(slaLatencies, 0.95),
          sla_warning_latency_max_s: percentile(slaLatencies, 1),
          sla_missed: CLOCKS ? slaMissed : null,
          sla_duplicate_warnings: slaDuplicates,
        }
      : {}),
    poller_requests_per_hour: pollerPerHour,
    poller_max_requests_per_minute: maxInWindow(
      poller.map((r) => r.at),
      60_000,
    ),
    looks_per_hour: perHour(churn.looks),
    empty_looks_per_hour: perHour(churn.emptyLooks),
    claims: churn.claims,
    claims_put_back: churn.putBack,
    budget_deferred: churn.deferred,
    // The whole process's CPU time, setup included: what the run cost, beside what it measured.
    cpu_s: round1((cpuAtEnd.user + cpuAtEnd.system) / 1e6),
  }),
);

// The traffic's floor beside what the requests went to (`--breakdown`): every public message on
// a linked ticket costs one fetch at least, every status change an agent or the AI made one
// read (a reopening is read by the look after the write that caused it), the feed its scans,
// and people their adds; cards and notices cost nothing more (drawn from the kept ticket).
if (values.breakdown) {
  const agentChanges = statusSamples.filter((sample) => sample.kind === 'agent').length;
  const lists = poller.filter((r) => r.ticketId === undefined).length;
  const floor = {
    'people’s adds': measured.length - poller.length,
    'message fetches': samples.length,
    'change reads': agentChanges,
    'feed scans': lists,
  };
  const background = samples.length + agentChanges + lists;
  const cap = Math.min(
    hourAllowance.own?.hour ?? backgroundPerHour,
    hourAllowance.hour - interactivePerHour,
  );
  const targets = ['hot', 'cold', 'lists'] as const;
  const targetOf = (r: { ticketId?: string | undefined }) =>
    r.ticketId === undefined ? 'lists' : hot.has(r.ticketId) ? 'hot' : 'cold';
  const operations = [...new Set(poller.map((r) => r.operation))].sort();
  console.log('');
  console.log('| what the traffic needs (per hour) | floor |');
  console.log('|---|---|');
  for (const [item, count] of Object.entries(floor)) console.log(`| ${item} | ${perHour(count)} |`);
  console.log(`| background floor | ${perHour(background)} |`);
  console.log(`| background may spend | ${cap} |`);
  console.log(`| background spent | ${pollerPerHour} |`);
  // The busiest rolling hour of the whole run, as the platform's limit counts it: what people's
  // adds and the floor's items (counted by when they happened) asked of that one hour. Above
  // the 950 everyone's count may reach, some message had to wait, whatever the strategy.
  const happened = { adds: [] as number[], fetches: [] as number[], changes: [] as number[] };
  for (const r of platform.requests) if (r.operation === 'addMessage') happened.adds.push(r.at);
  for (const ticketId of linked) {
    for (const message of model.listMessages(TENANT, ticketId)) {
      if (!ownIds.has(message.id) && !message.internal) {
        happened.fetches.push(Date.parse(message.created_at));
      }
    }
    for (const entry of model.listActivity(TENANT, ticketId)) {
      const byPerson = entry.actor?.includes('@') && !AGENTS.includes(entry.actor);
      if (entry.type === 'status_changed' && !byPerson) {
        happened.changes.push(Date.parse(entry.created_at));
      }
    }
  }
  const listTimes = platform.requests.filter((r) => r.ticketId === undefined).map((r) => r.at);
  const inHour = (times: number[], end: number) =>
    times.filter((at) => at > end - HOUR_MS && at <= end).length;
  let busiest = { end: START + HOUR_MS, adds: 0, background: 0 };
  for (let end = START + HOUR_MS; end <= GRACE_END; end += 60_000) {
    const adds = inHour(happened.adds, end);
    const background =
      inHour(happened.fetches, end) + inHour(happened.changes, end) + inHour(listTimes, end);
    if (adds + background > busiest.adds + busiest.background) busiest = { end, adds, background };
  }
  console.log(
    `| busiest rolling hour (to minute ${Math.round((busiest.end - START) / 60_000)}) | people ${busiest.adds} + background floor ${busiest.background} = ${busiest.adds + busiest.background} of ${hourAllowance.hour} |`,
  );
  console.log('');
  console.log(`| poller requests (per hour) | ${targets.join(' | ')} | all |`);
  console.log(`|---|${targets.map(() => '---').join('|')}|---|`);
  for (const operation of operations) {
    const of = poller.filter((r) => r.operation === operation);
    const cells = targets.map((t) => perHour(of.filter((r) => targetOf(r) === t).length));
    console.log(`| ${operation} | ${cells.join(' | ')} | ${perHour(of.length)} |`);
  }
}

const byKind = (list: Sample[]) =>
  Object.fromEntries(
    [...new Set(list.map((s) => s.kind))].sort().map((kind) => {
      const latencies = list.filter((s) => s.kind === kind).map((s) => s.latencyS);
      return [
        kind,
        {
          count: latencies.length,
          p50_s: percentile(latencies, 0.5),
          p95_s: percentile(latencies, 0.95),
        },
      ];
    }),
  );
const series: object[] = [];
if (values.series) {
  const stepMs = 10 * 60_000;
  for (let from = START; from < END; from += stepMs) {
    const within = (at: number) => at >= from && at < from + stepMs;
    const hotHere = allSamples.filter((s) => s.hot && within(s.createdAt)).map((s) => s.latencyS);
    series.push({
      minute: (from - START) / 60_000,
      poller: platform.requests.filter((r) => within(r.at) && r.operation !== 'addMessage').length,
      interactive: platform.requests.filter((r) => within(r.at) && r.operation === 'addMessage')
        .length,
      stretch: stretches.get(from) ?? null,
      hot_messages: hotHere.length,
      hot_p50_s: percentile(hotHere, 0.5),
      hot_p95_s: percentile(hotHere, 0.95),
    });
  }
}
console.error(
  JSON.stringify({
    seed: SEED,
    minutes: MINUTES,
    warmup: WARMUP,
    grace: GRACE,
    traffic: TRAFFIC,
    // The same digest for every strategy at one seed and size: the same traffic.
    traffic_events: events.length,
    traffic_digest: createHash('sha256').update(JSON.stringify(events)).digest('hex').slice(0, 12),
    updated_after: UPDATED_AFTER,
    feed: feedMode ? { way: feedMode, ...scans } : 'none',
    poller_max_requests_per_hour: maxInWindow(
      platform.requests
        .filter((r) => r.at >= MEASURE_FROM && r.operation !== 'addMessage')
        .map((r) => r.at),
      HOUR_MS,
    ),
    interactive_requests_per_hour: interactivePerHour,
    requests_by_operation: Object.fromEntries(
      [...new Set(measured.map((r) => r.operation))].map((op) => [
        op,
        measured.filter((r) => r.operation === op).length,
      ]),
    ),
    // Where the poller's requests went: hot tickets, cold ones, or the feed's lists.
    poller_by_target: {
      hot: poller.filter((r) => r.ticketId !== undefined && hot.has(r.ticketId)).length,
      cold: poller.filter((r) => r.ticketId !== undefined && !hot.has(r.ticketId)).length,
      lists: poller.filter((r) => r.ticketId === undefined).length,
    },
    // Activity reads that came back empty: looks that found nothing at all.
    empty_activity_reads: measured.filter((r) => r.operation === 'listActivity' && r.items === 0)
      .length,
    round_robin_hot_p95_bound_s: roundRobinP95,
    messages_measured: samples.length,
    hot_messages_measured: hotOnly.length,
    hot_by_kind: byKind(samples.filter((s) => s.hot)),
    cold_by_kind: byKind(samples.filter((s) => !s.hot)),
    status_changes_measured: statusSamples.length,
    status_by_kind: byKind(statusSamples),
    status_missed: statusMissed,
    echoes,
    failed_adds: failedAdds,
    failed_add_reasons: failedAddReasons,
    webhooks:
      STRATEGY === 'push'
        ? {
            ...webhooks.stats(),
            outcomes: hookOutcomes,
            // On the simulated clock: a first attempt at the change's own simulated moment.
            first_attempt_lag_max_ms: Math.max(
              0,
              ...webhooks
                .deliveries()
                .flatMap((d) =>
                  d.attempts[0] ? [d.attempts[0].atMs - Date.parse(d.occurredAt)] : [],
                ),
            ),
          }
        : undefined,
    ...(values.series ? { series } : {}),
  }),
);

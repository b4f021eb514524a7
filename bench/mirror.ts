/**
 * The mirror under load, on a simulated clock: an hour of traffic runs in seconds.
 *
 * The real schedule, stores (the in-memory twins), rate budget, client hooks, service-desk
 * client and mirror worker run against the emulator's model on a simulated clock. The platform
 * side counts every request the app makes (the poller's and the people's adds alike) and
 * applies the platform's own rate limiter, answering 429 as the emulator does. Slack is a
 * poster that records when each message was posted. Traffic is described in
 * `bench/mirror/traffic.ts`; a warm-up runs before the measured minutes so the schedule has
 * settled.
 *
 * Prints one JSON line on stdout: strategy, tickets, hot, requests_per_hour,
 * max_requests_per_minute (the most requests in any 60 s), rate_limited (429s),
 * interactive_delayed (people's requests that waited for budget), and the latency from a
 * message's creation on the platform to its post in Slack (p50, p95, max; and p50, p95 on hot
 * tickets), in seconds. A message still unposted at the end counts with the time it has waited
 * so far. Details (the poller's own share, posts, echoes) go to stderr as a second JSON line.
 *
 * Run: npm run bench:mirror -- --tickets 500 --hot 50 --minutes 60 --seed 1 --strategy adaptive
 */
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { createPlatform } from '../src/emulator/index.ts';
import { seededRandom } from '../src/emulator/random.ts';
import {
  AdaptivePlanner,
  BudgetPacer,
  createBudgetHooks,
  FixedPlanner,
  type MirrorPoster,
  MirrorWorker,
  RELAXED_PACE,
} from '../src/mirror/index.ts';
import { hashIdempotencyKey, ServiceDeskClient } from '../src/servicedesk/index.ts';
import { createMemoryStores, ownMessageIdMark, ownMessageTextMark } from '../src/store/index.ts';
import { InProcessPlatform } from './mirror/in-process-platform.ts';
import { SimulatedClock } from './mirror/simulated-clock.ts';
import { AGENTS, DEFAULT_TRAFFIC, startTraffic, type TrafficModel } from './mirror/traffic.ts';

const { values } = parseArgs({
  options: {
    tickets: { type: 'string', default: '500' },
    hot: { type: 'string', default: '50' },
    minutes: { type: 'string', default: '60' },
    warmup: { type: 'string', default: '60' },
    seed: { type: 'string', default: '1' },
    strategy: { type: 'string', default: 'adaptive' },
    'requester-per-hour': { type: 'string' },
    'ai-share': { type: 'string' },
    'human-reply-mean-s': { type: 'string' },
    'hot-unprompted-per-hour': { type: 'string' },
    'cold-messages-per-hour': { type: 'string' },
  },
});

function count(name: string, raw: string | undefined, min = 0): number {
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min) {
    console.error(`--${name} must be a number of at least ${min}, got ${raw}`);
    process.exit(2);
  }
  return value;
}

const TICKETS = Math.floor(count('tickets', values.tickets, 1));
const HOT = Math.min(TICKETS, Math.floor(count('hot', values.hot)));
const MINUTES = count('minutes', values.minutes, 1);
const WARMUP = count('warmup', values.warmup);
const SEED = Math.floor(count('seed', values.seed));
const STRATEGY = values.strategy;
if (STRATEGY !== 'adaptive' && STRATEGY !== 'fixed') {
  console.error('--strategy must be adaptive or fixed');
  process.exit(2);
}
const optional = (name: keyof typeof values, fallback: number, scale = 1) =>
  values[name] === undefined ? fallback : count(name, values[name] as string) * scale;
const TRAFFIC: TrafficModel = {
  ...DEFAULT_TRAFFIC,
  requesterPerHour: optional('requester-per-hour', DEFAULT_TRAFFIC.requesterPerHour),
  aiShare: optional('ai-share', DEFAULT_TRAFFIC.aiShare),
  humanReplyMeanMs: optional('human-reply-mean-s', DEFAULT_TRAFFIC.humanReplyMeanMs, 1_000),
  hotUnpromptedPerHour: optional('hot-unprompted-per-hour', DEFAULT_TRAFFIC.hotUnpromptedPerHour),
  coldMessagesPerHour: optional('cold-messages-per-hour', DEFAULT_TRAFFIC.coldMessagesPerHour),
};

const TENANT = 'acme';
const PER_MINUTE = 100;
const PER_HOUR = 1_000;
const HOUR_MS = 3_600_000;
// A Monday morning, off any minute or hour boundary of the platform's fixed windows.
const START = Date.UTC(2026, 0, 5, 9, 17, 23, 456);
const MEASURE_FROM = START + WARMUP * 60_000;
const END = MEASURE_FROM + MINUTES * 60_000;

const clock = new SimulatedClock(START);
const random = seededRandom(SEED);
const { model, agent } = createPlatform({
  tenants: [TENANT],
  seed: 'empty',
  now: clock.now,
  scheduler: clock,
});
agent.stop();
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
  budget: { perMinute: PER_MINUTE, perHour: PER_HOUR, reserve: 0.2 },
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
const client = new ServiceDeskClient({
  baseUrl: 'http://acme.platform.invalid',
  apiKey: 'sd_acme_rw',
  dispatcher: platform.dispatcher(),
  acquire: hooks.acquire,
  onRateLimit: hooks.onRateLimit,
  now: clock.now,
  sleep: clock.sleep,
  random,
});

// The tickets, each linked to a thread, created before the run with nothing new since.
const tickets: string[] = [];
for (let i = 0; i < TICKETS; i++) {
  const ageMs = random() * 3 * 86_400_000;
  const ticket = model.atTime(START - ageMs, () =>
    model.createTicket(TENANT, {
      title: `Request ${i + 1}`,
      requester_email: `person${i + 1}@acme.example`,
      channel: 'slack',
    }),
  );
  tickets.push(ticket.id);
  await stores.links.link(ticket.id, { channel: 'C0BENCH', threadTs: `1700000000.${i + 100000}` });
  await stores.mirror.saveState(ticket.id, {
    activityCursor: model.listActivity(TENANT, ticket.id).length,
    messageCursor: 0,
    messagesAnnounced: 0,
    lastActivityAt: START - ageMs,
    lastAnswerAt: START - ageMs,
    lastPolledAt: START - 1,
    backoffStep: 0,
    status: 'new',
    settledAt: undefined,
    requesterEmail: ticket.requester_email ?? undefined,
    slackWriteAt: 0,
  });
}
// Which tickets are hot: a seeded Fisher-Yates shuffle.
const shuffled = [...tickets];
for (let i = shuffled.length - 1; i > 0; i--) {
  const j = Math.floor(random() * (i + 1));
  [shuffled[i], shuffled[j]] = [shuffled[j] as string, shuffled[i] as string];
}
const hot = new Set(shuffled.slice(0, HOT));

const backgroundPerHour = Math.floor(PER_HOUR * 0.8);
const fixedIntervalMs = Math.ceil((TICKETS * HOUR_MS) / backgroundPerHour);
const planner = STRATEGY === 'fixed' ? new FixedPlanner(fixedIntervalMs) : new AdaptivePlanner();
const pacer =
  STRATEGY === 'adaptive'
    ? new BudgetPacer({ budget: stores.budget, schedule: stores.schedule, now: clock.now })
    : undefined;
// Each ticket somewhere in its current interval, as in a schedule that has been running (the
// pacer sizes intervals by the number of scheduled tickets, so they are all put in first).
for (const ticketId of tickets) await stores.schedule.pollAt(ticketId, END);
const initialPace = (await pacer?.refresh()) ?? RELAXED_PACE;
for (const ticketId of tickets) {
  const state = await stores.mirror.state(ticketId);
  const next = state ? planner.next(state, START, initialPace) : 'stop';
  const intervalMs = next === 'stop' ? fixedIntervalMs : next - START;
  await stores.schedule.remove(ticketId);
  await stores.schedule.pollAt(ticketId, START + random() * intervalMs);
}

// Slack: a poster that records when each message reached its thread.
const posted = new Map<string, number>();
let duplicatePosts = 0;
const poster: MirrorPoster = {
  async postMessage(_thread, _ticketId, message) {
    if (posted.has(message.id)) duplicatePosts += 1;
    posted.set(message.id, clock.now());
    return 'posted';
  },
  async postChange() {
    return 'posted';
  },
  async notifyRequester() {
    return 'posted';
  },
  async findPosted() {
    return false;
  },
  async refreshCard() {},
};
const worker = new MirrorWorker({
  platform: client,
  stores,
  poster,
  planner,
  ...(pacer ? { pacer } : {}),
  logger: pino({ level: 'silent' }),
  now: clock.now,
  sleep: clock.sleep,
  random,
});

// The app's side of a reply in a linked thread: remembered as its own, added as the person
// (an interactive request, inside the budget), and the ticket looked at again soon.
const ownIds = new Set<string>();
let failedAdds = 0;
async function requesterWrites(ticketId: string, body: string): Promise<void> {
  const email = model.findTicket(TENANT, ticketId)?.requester_email ?? 'someone@acme.example';
  await stores.mirror.rememberOwn(ticketId, [ownMessageTextMark(email, body)]);
  try {
    const message = await client.addMessage(
      ticketId,
      { body, author_email: email },
      {
        idempotencyKey: hashIdempotencyKey(`bench:${ticketId}:${clock.now()}:${body}`),
        priority: 'interactive',
      },
    );
    ownIds.add(message.id);
    await stores.mirror.rememberOwn(ticketId, [ownMessageIdMark(message.id)]);
    await worker.slackWrote(ticketId);
  } catch {
    // Counted: a person's reply the platform never got would be a failure of the app.
    failedAdds += 1;
  }
}

startTraffic(
  { model, clock, random, tenant: TENANT, hot, tickets, requesterWrites, endMs: END },
  TRAFFIC,
);
worker.start();
await clock.runUntil(END);
const stopping = worker.stop();
await clock.runUntil(END + 60_000);
await stopping;

// --- figures ---------------------------------------------------------------------------------

interface Sample {
  latencyS: number;
  hot: boolean;
  /** What the traffic wrote: AI answer, Agent answer, AI note, Agent note. */
  kind: string;
}
const samples: Sample[] = [];
let echoes = 0;
let unposted = 0;
for (const ticketId of tickets) {
  for (const message of model.listMessages(TENANT, ticketId)) {
    const createdAt = Date.parse(message.created_at);
    const own = ownIds.has(message.id);
    if (own && posted.has(message.id)) echoes += 1;
    if (own || message.internal || createdAt < MEASURE_FROM || createdAt >= END) continue;
    const postedAt = Math.min(posted.get(message.id) ?? END, END);
    if (!posted.has(message.id) || (posted.get(message.id) as number) > END) unposted += 1;
    samples.push({
      latencyS: (postedAt - createdAt) / 1000,
      hot: hot.has(ticketId),
      kind: message.body.split(' #')[0] ?? 'other',
    });
  }
}

function percentile(values: number[], fraction: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1);
  return Math.round((sorted[Math.max(0, index)] as number) * 10) / 10;
}

const measured = platform.requests.filter((r) => r.at >= MEASURE_FROM && r.at < END);
function maxPerMinute(times: number[]): number {
  let best = 0;
  let from = 0;
  for (let to = 0; to < times.length; to++) {
    while ((times[to] as number) - (times[from] as number) >= 60_000) from += 1;
    best = Math.max(best, to - from + 1);
  }
  return best;
}
const all = samples.map((s) => s.latencyS);
const hotOnly = samples.filter((s) => s.hot).map((s) => s.latencyS);
const poller = measured.filter((r) => r.operation !== 'addMessage');
const perHour = (n: number) => Math.round((n * 60) / MINUTES);

console.log(
  JSON.stringify({
    strategy: STRATEGY,
    tickets: TICKETS,
    hot: HOT,
    requests_per_hour: perHour(measured.length),
    max_requests_per_minute: maxPerMinute(measured.map((r) => r.at)),
    rate_limited: measured.filter((r) => r.status === 429).length,
    interactive_delayed: interactiveDelayed,
    latency_p50_s: percentile(all, 0.5),
    latency_p95_s: percentile(all, 0.95),
    latency_max_s: percentile(all, 1),
    hot_latency_p50_s: percentile(hotOnly, 0.5),
    hot_latency_p95_s: percentile(hotOnly, 0.95),
  }),
);
console.error(
  JSON.stringify({
    seed: SEED,
    minutes: MINUTES,
    traffic: TRAFFIC,
    poller_requests_per_hour: perHour(poller.length),
    poller_max_requests_per_minute: maxPerMinute(poller.map((r) => r.at)),
    interactive_requests_per_hour: perHour(measured.length - poller.length),
    requests_by_operation: Object.fromEntries(
      [...new Set(measured.map((r) => r.operation))].map((op) => [
        op,
        measured.filter((r) => r.operation === op).length,
      ]),
    ),
    rate_limited_whole_run: platform.requests.filter((r) => r.status === 429).length,
    messages_measured: samples.length,
    hot_by_kind: Object.fromEntries(
      [...new Set(samples.map((s) => s.kind))].sort().map((kind) => {
        const latencies = samples.filter((s) => s.hot && s.kind === kind).map((s) => s.latencyS);
        return [
          kind,
          {
            count: latencies.length,
            p50_s: percentile(latencies, 0.5),
            p95_s: percentile(latencies, 0.95),
          },
        ];
      }),
    ),
    hot_messages_measured: hotOnly.length,
    unposted_at_end: unposted,
    echoes,
    duplicate_posts: duplicatePosts,
    failed_adds: failedAdds,
  }),
);

/**
 * App Home of an agent with a big queue (issue 27's figure): Sam (AGENT_EMAILS) has 200 open
 * tickets assigned and 500 open unassigned ones wait on the desks. Each run starts the
 * end-to-end stack afresh (the emulator, the Slack double, Redis at REDIS_URL and the real app
 * over HTTP, so nothing is kept from the run before), opens Sam's Home and measures:
 *
 * - `ack_ms`: the app's answer to `app_home_opened` (Slack waits 3 s; target <= 3,000 ms);
 * - `answer_to_publish_ms`: from the platform's last answer the Home needed to the views.publish
 *   reaching Slack (target <= 5,000 ms);
 * - `open_to_publish_ms`: from the event sent to the Home published, all of it;
 * - `platform_requests`, `blocks`, `assigned_shown`, `unassigned_shown`: what it cost and showed.
 *
 * The platform answers each request after `--latency-ms` (default 100), as a real one would not
 * answer at once. Prints one JSON line per run and a line of medians:
 *
 *   node bench/agent-home.ts [--runs 5] [--latency-ms 100] [--assigned 200] [--unassigned 500]
 *     [--no-filters]   (a platform that ignores assignee_email and status)
 */
import { parseArgs } from 'node:util';
import { defaultIds } from '../tools/slack-double/index.ts';
import { startStack } from '../tools/stack/index.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    'latency-ms': { type: 'string', default: '100' },
    assigned: { type: 'string', default: '200' },
    unassigned: { type: 'string', default: '500' },
    'no-filters': { type: 'boolean', default: false },
  },
});
const RUNS = Number(values.runs);
const LATENCY_MS = Number(values['latency-ms']);
const ASSIGNED = Number(values.assigned);
const UNASSIGNED = Number(values.unassigned);
const FILTERS = !values['no-filters'];
const SAM = 'sam.rivera@acme.example';
const DESKS = ['it', 'it-hardware', 'hr', 'facilities'];
const PRIORITIES = ['low', 'medium', 'high', 'urgent'] as const;

interface RunFigures {
  ack_ms: number;
  answer_to_publish_ms: number;
  open_to_publish_ms: number;
  platform_requests: number;
  blocks: number;
  assigned_shown: number;
  unassigned_shown: number;
}

async function run(): Promise<RunFigures> {
  const stack = await startStack({
    emulator: { latencyMs: LATENCY_MS, capabilities: { ticketFilters: FILTERS } },
    logLevel: 'warn',
  });
  try {
    const model = stack.emulator.model;
    const total = ASSIGNED + UNASSIGNED;
    for (let i = 0; i < total; i++) {
      const ticket = model.createTicket('acme', {
        title: `Queue bench ticket ${i + 1}`,
        desk_id: DESKS[i % DESKS.length],
        priority: PRIORITIES[i % PRIORITIES.length],
        requester_email: `user${i % 50}@acme.example`,
      });
      // Exactly ASSIGNED of them Sam's, spread among the others.
      if (Math.floor(((i + 1) * ASSIGNED) / total) > Math.floor((i * ASSIGNED) / total)) {
        model.updateTicket('acme', ticket.id, { assignee_email: SAM });
      }
    }

    // When each platform answer arrived, as the app's client saw it.
    const answeredAt: number[] = [];
    const requests = stack.platformRequests;
    const push = requests.push.bind(requests);
    requests.push = (...items: string[]) => {
      for (const _ of items) answeredAt.push(Date.now());
      return push(...items);
    };
    const before = requests.length;
    const sentAt = Date.now();
    const delivery = await stack.driver.appHomeOpened({ userId: defaultIds.agent });
    const published = await waitFor(() =>
      stack.double.callsTo('views.publish').find((call) => !call.injected),
    );
    const home = stack.double.workspace.homeView(defaultIds.agent);
    const text = JSON.stringify(home?.blocks ?? []);
    const lastAnswer = answeredAt.at(-1) ?? sentAt;
    return {
      ack_ms: round(delivery.ackMs),
      answer_to_publish_ms: published.at - lastAnswer,
      open_to_publish_ms: published.at - sentAt,
      platform_requests: requests.length - before,
      blocks: home?.blocks.length ?? 0,
      // Every ticket shown has Open in dashboard; only the unassigned ones Assign to me.
      assigned_shown: count(text, 'open_in_dashboard:') - count(text, 'assign_to_me:'),
      unassigned_shown: count(text, 'assign_to_me:'),
    };
  } finally {
    await stack.close();
  }
}

async function waitFor<T>(find: () => T | undefined, timeoutMs = 30_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > until) throw new Error('the Home was not published');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function count(text: string, actionIdPrefix: string): number {
  return text.split(`"action_id":"${actionIdPrefix}`).length - 1;
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

function median(numbers: number[]): number {
  const sorted = [...numbers].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : round(((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2);
}

const results: RunFigures[] = [];
for (let i = 0; i < RUNS; i++) {
  const figures = await run();
  results.push(figures);
  console.log(JSON.stringify({ run: i + 1, filters: FILTERS, latency_ms: LATENCY_MS, ...figures }));
}
const medians = Object.fromEntries(
  (Object.keys(results[0] ?? {}) as (keyof RunFigures)[]).map((key) => [
    key,
    median(results.map((r) => r[key])),
  ]),
);
console.log(
  JSON.stringify({
    medians_of_runs: RUNS,
    assigned: ASSIGNED,
    unassigned: UNASSIGNED,
    filters: FILTERS,
    latency_ms: LATENCY_MS,
    ...medians,
    ack_within_3s: (medians.ack_ms ?? Infinity) <= 3_000,
    publish_within_5s: (medians.answer_to_publish_ms ?? Infinity) <= 5_000,
  }),
);
process.exit(0);

/**
 * The reports behind the fair share (issues 17 and 26), reproduced at the platform's own budget
 * (100 a minute, 1,000 an hour). Lookups: one person sends `/ticket IT-n` 2.5 times a second for
 * 60 s, another looks a ticket up every 10 s, first over distinct tickets, then over five
 * repeated ones. Form openings: one person opens the create form 120 times (`/ticket printer n
 * broken`, 4 a second), then another person looks a ticket up 8 times, every 4 s. Prints what
 * was spent and how each person was answered, one JSON line per case:
 *
 *   npm run bench:fair-share [-- --seconds 60] [-- --cases distinct,repeated,form]
 *
 * The whole stack is the end-to-end tests' one (the emulator, the Slack double, Redis at
 * REDIS_URL and the real app over HTTP), so the figures are the app's own.
 */
import { parseArgs } from 'node:util';
import { defaultIds } from '../tools/slack-double/index.ts';
import { type Stack, startStack } from '../tools/stack/index.ts';

const { alice, bob, itHelp } = defaultIds;
const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    cases: { type: 'string', default: 'distinct,repeated,form' },
  },
});
const SECONDS = Number(values.seconds);
const CASES = new Set(values.cases.split(','));

type Answer = 'fresh' | 'known' | 'fair_share' | 'busy' | 'none';

function kindOf(body: string | undefined): Answer {
  if (body === undefined) return 'none';
  if (body.includes('when the app last saw it') || body.includes('As the app last saw it'))
    return 'known';
  if (body.includes('You have asked the service desk for a lot')) return 'fair_share';
  if (body.includes('The service desk is busy')) return 'busy';
  return 'fresh';
}

async function run(stack: Stack, label: string, aliceTickets: number) {
  const mine = Array.from({ length: aliceTickets }, (_, i) =>
    stack.emulator.model.createTicket('acme', {
      title: `${label} ${i}`,
      requester_email: 'alice@acme.example',
    }),
  );
  const bobs = Array.from({ length: SECONDS / 10 + 1 }, (_, i) =>
    stack.emulator.model.createTicket('acme', {
      title: `${label} Bob ${i}`,
      requester_email: 'bob@acme.example',
    }),
  );
  const requestsBefore = stack.platformRequests.length;
  const sent: { who: 'alice' | 'bob'; url: string }[] = [];
  const started = Date.now();
  const send = async (who: 'alice' | 'bob', userId: string, text: string) => {
    const command = await stack.driver.slashCommand({ userId, channelId: itHelp, text });
    sent.push({ who, url: command.responseUrl });
  };
  const pending: Promise<void>[] = [];
  for (let tick = 0; tick < SECONDS * 2.5; tick++) {
    const at = started + tick * 400;
    await new Promise((r) => setTimeout(r, Math.max(0, at - Date.now())));
    pending.push(send('alice', alice, mine[tick % mine.length]?.id ?? ''));
    if (tick % 25 === 0) pending.push(send('bob', bob, bobs[tick / 25]?.id ?? ''));
  }
  await Promise.all(pending);
  // Every answer comes within the interactive wait (10 s) of its command.
  await new Promise((r) => setTimeout(r, 12_000));
  const bodies = new Map(
    stack.double.responseUrlPosts.map((p) => [p.url, JSON.stringify(p.body)] as const),
  );
  const tally = (who: 'alice' | 'bob') => {
    const counts: Record<Answer, number> = {
      fresh: 0,
      known: 0,
      fair_share: 0,
      busy: 0,
      none: 0,
    };
    for (const s of sent.filter((x) => x.who === who)) counts[kindOf(bodies.get(s.url))]++;
    return counts;
  };
  const spent = stack.platformRequests.slice(requestsBefore);
  const result = {
    case: label,
    seconds: SECONDS,
    platformRequests: spent.length,
    getTicket: spent.filter((op) => op === 'getTicket').length,
    alice: tally('alice'),
    bob: tally('bob'),
  };
  const answeredNoRead = sent.length - result.getTicket - result.alice.none - result.bob.none;
  console.log(JSON.stringify({ ...result, answeredWithNoPlatformRead: answeredNoRead }));
  return result;
}

const OPENINGS = 120;
const LOOKUPS = 8;

/**
 * One person opens the create form 120 times, 4 a second; then another person looks a ticket
 * up every 4 s. Counts the List assets calls the openings made, the forms filled in, and the
 * other person's lookups answered with their ticket's card.
 */
async function formBurst(stack: Stack) {
  // Each has devices, so every opening has a device list to read.
  for (const [email, n] of [
    ['alice@acme.example', 1],
    ['bob@acme.example', 2],
  ] as const) {
    stack.emulator.model.addAsset('acme', {
      id: `ast_bench_${n}`,
      name: `Bench laptop ${n}`,
      type: 'laptop',
      serial_number: `SN-BENCH-${n}`,
      assigned_to_email: email,
    });
  }
  const bobs = Array.from({ length: LOOKUPS }, (_, i) =>
    stack.emulator.model.createTicket('acme', {
      title: `Bob's form-burst lookup ${i}`,
      requester_email: 'bob@acme.example',
    }),
  );
  const requestsBefore = stack.platformRequests.length;
  const updatesBefore = stack.double.callsTo('views.update').length;
  const started = Date.now();
  const openings: Promise<unknown>[] = [];
  for (let i = 0; i < OPENINGS; i++) {
    await new Promise((r) => setTimeout(r, Math.max(0, started + i * 250 - Date.now())));
    openings.push(
      stack.driver.slashCommand({ userId: alice, channelId: itHelp, text: `printer ${i} broken` }),
    );
  }
  await Promise.all(openings);
  const lookups: { url: string; title: string }[] = [];
  const lookupsStarted = Date.now();
  for (const [i, ticket] of bobs.entries()) {
    await new Promise((r) => setTimeout(r, Math.max(0, lookupsStarted + i * 4_000 - Date.now())));
    const command = await stack.driver.slashCommand({
      userId: bob,
      channelId: itHelp,
      text: ticket.id,
    });
    lookups.push({ url: command.responseUrl, title: ticket.title });
  }
  await new Promise((r) => setTimeout(r, 12_000));
  const bodies = new Map(
    stack.double.responseUrlPosts.map((p) => [p.url, JSON.stringify(p.body)] as const),
  );
  const spent = stack.platformRequests.slice(requestsBefore);
  const bobAnswers = lookups.map((l) => bodies.get(l.url));
  const result = {
    case: 'Form openings',
    openings: OPENINGS,
    platformRequests: spent.length,
    listAssets: spent.filter((op) => op === 'listAssets').length,
    formsFilled: stack.double.callsTo('views.update').length - updatesBefore,
    bobLookups: LOOKUPS,
    bobCards: lookups.filter((l, i) =>
      bobAnswers[i]?.includes(JSON.stringify(l.title).slice(1, -1)),
    ).length,
    bob: bobAnswers.reduce<Record<Answer, number>>(
      (counts, body) => {
        counts[kindOf(body)]++;
        return counts;
      },
      { fresh: 0, known: 0, fair_share: 0, busy: 0, none: 0 },
    ),
  };
  console.log(JSON.stringify(result));
  return result;
}

let unanswered = 0;
if (CASES.has('distinct') || CASES.has('repeated')) {
  const stack = await startStack({ budget: { perMinute: 100, perHour: 1_000 } });
  try {
    const runs = [];
    if (CASES.has('distinct')) runs.push(await run(stack, 'Distinct', Math.ceil(SECONDS * 2.5)));
    if (CASES.has('repeated')) runs.push(await run(stack, 'Repeated', 5));
    unanswered += runs.reduce((n, r) => n + r.alice.none + r.bob.none, 0);
  } finally {
    await stack.close();
  }
}
if (CASES.has('form')) {
  // A stack of its own: the lookups above spent Alice's hour.
  const stack = await startStack({ budget: { perMinute: 100, perHour: 1_000 } });
  try {
    const form = await formBurst(stack);
    unanswered += form.bob.none;
  } finally {
    await stack.close();
  }
}
if (unanswered > 0) console.error(`${unanswered} lookups got no answer`);
process.exitCode = unanswered > 0 ? 1 : 0;

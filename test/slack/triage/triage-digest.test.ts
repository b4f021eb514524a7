/**
 * The morning summary's sending: once per triage channel per day across two replicas, a restart
 * and a holder that died between posting and recording it; on memory and on Redis. Slack and
 * the platform are fakes here (the end-to-end test runs the real ones); the clock is injected.
 */
import { randomUUID } from 'node:crypto';
import type {
  ChatGetPermalinkArguments,
  ChatPostMessageArguments,
  ConversationsHistoryArguments,
} from '@slack/web-api';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Desk, Ticket } from '../../../src/contract/schemas.ts';
import { parseServiceTargets } from '../../../src/contract/service-levels.ts';
import { BudgetDeferredError } from '../../../src/mirror/errors.ts';
import type { ThreadMessage } from '../../../src/slack/posting/post-metadata.ts';
import type { ChannelPrivacy } from '../../../src/slack/triage/channel-privacy.ts';
import { TriageDigest, type TriageDigestOptions } from '../../../src/slack/triage/triage-digest.ts';
import { createMemoryStores, createRedisStores } from '../../../src/store/index.ts';
import type { Stores } from '../../../src/store/types.ts';
import { deleteKeys, REDIS_URL } from '../../support/redis.ts';
import { ticketWith } from '../../support/ticket-fixture.ts';
import { fakeClient, fakePart } from '../support/fake-deps.ts';

const TRIAGE = 'C0TRIAGE';
const CATCH_ALL = 'C0CATCHALL';
// Monday 30 November 2026, 09:00 in Paris.
const NINE_PARIS = Date.parse('2026-11-30T08:00:00Z');
const MINUTE = 60_000;

interface Clock {
  now: () => number;
  set(ms: number): void;
}

function clockAt(start: number): Clock {
  let now = start;
  return {
    now: () => now,
    set: (ms) => {
      now = ms;
    },
  };
}

/** Slack as the digest uses it: posts kept per channel, history with metadata. */
class FakeSlack {
  readonly posts = new Map<string, ThreadMessage[]>();
  failures: unknown[] = [];
  // A post that lands in Slack but whose answer never comes (the process died on the way).
  hangAfterPost = false;
  #ts = 1_700_000_000;

  posted(channel: string): ThreadMessage[] {
    return this.posts.get(channel) ?? [];
  }

  client() {
    const chat = {
      postMessage: async (args: ChatPostMessageArguments) => {
        const failure = this.failures.shift();
        if (failure) throw failure;
        const ts = `${this.#ts++}.000100`;
        const list = this.posts.get(args.channel) ?? [];
        list.unshift({
          ts,
          ...('text' in args ? { text: args.text } : {}),
          ...('blocks' in args ? { blocks: args.blocks } : {}),
          ...(args.metadata ? { metadata: args.metadata } : {}),
        });
        this.posts.set(args.channel, list);
        if (this.hangAfterPost) return new Promise<never>(() => undefined);
        return { ok: true, ts };
      },
      getPermalink: async (args: ChatGetPermalinkArguments) => ({
        ok: true,
        permalink: `https://acme.slack.example/archives/${args.channel}/p${args.message_ts.replace('.', '')}`,
      }),
    };
    const conversations = {
      history: async (args: ConversationsHistoryArguments) => ({
        ok: true,
        messages: this.posted(args.channel),
      }),
    };
    return fakeClient({ chat, conversations });
  }
}

function rateLimited(retryAfter: number) {
  return Object.assign(new Error('rate limited'), {
    code: 'slack_webapi_rate_limited_error',
    retryAfter,
  });
}

function serverError() {
  return Object.assign(new Error('An API error occurred: internal_error'), {
    code: 'slack_webapi_platform_error',
    data: { ok: false, error: 'internal_error' },
  });
}

/** The platform: open tickets by status; counts its list requests. */
class FakePlatform {
  lists = 0;
  deferUntil: number | undefined;
  readonly tickets: Ticket[];
  readonly desks: Desk[];
  constructor(tickets: Ticket[], desks: Desk[] = [{ slug: 'it', name: 'IT' } as Desk]) {
    this.tickets = tickets;
    this.desks = desks;
  }

  api() {
    return fakePart<TriageDigestOptions['platform']>('platform', {
      listDesks: async () => ({ items: this.desks, total_count: this.desks.length }),
      listTickets: async (query: { status?: string; desk_id?: string }) => {
        if (this.deferUntil !== undefined) {
          throw new BudgetDeferredError('listTickets', this.deferUntil, 'window');
        }
        this.lists += 1;
        const items = this.tickets.filter(
          (t) =>
            (!query.status || t.status === query.status) &&
            (!query.desk_id || t.desk_id === query.desk_id),
        );
        return { items, total_count: items.length };
      },
    });
  }
}

interface Logged {
  level: string;
  obj: object;
  msg: string | undefined;
}

function logger(lines: Logged[]) {
  const at =
    (level: string) =>
    (obj: object, msg?: string): void =>
      void lines.push({ level, obj, msg });
  return { info: at('info'), warn: at('warn'), error: at('error'), debug: at('debug') } as never;
}

const TICKETS = [
  ticketWith({ id: 'IT-1', title: 'VPN drops', created_at: '2026-11-27T08:00:00Z' }),
  ticketWith({
    id: 'IT-2',
    title: 'Laptop',
    assignee_email: 'sam.rivera@acme.example',
    created_at: '2026-11-28T08:00:00Z',
  }),
  ticketWith({ id: 'IT-3', title: 'Done', status: 'resolved' }),
  ticketWith({ id: 'HR-1', title: 'Payslip', desk_id: null, created_at: '2026-11-29T08:00:00Z' }),
];

type Backend = { name: string; stores: () => Stores; clean?: () => Promise<void> };

function backends(): Backend[] {
  const memory = createMemoryStores();
  let redis: Redis | undefined;
  const prefix = `test:digest:${randomUUID()}:`;
  return [
    { name: 'memory', stores: () => memory },
    {
      name: 'Redis',
      stores: () => {
        redis ??= new Redis(REDIS_URL);
        return createRedisStores({ redis, prefix });
      },
      clean: async () => {
        if (!redis) return;
        await deleteKeys(redis, prefix);
        redis.disconnect();
      },
    },
  ];
}

describe.each(backends())('the triage digest on $name', (backend) => {
  let stores: Stores;
  beforeAll(async () => {
    stores = backend.stores();
  });
  afterAll(async () => {
    await backend.clean?.();
  });

  // Each test its own channels: the stores are shared by the file's tests.
  async function setup(privacy: (channel: string) => ChannelPrivacy = () => 'private') {
    const triage = `${TRIAGE}${randomUUID().slice(0, 6)}`;
    const catchAll = `${CATCH_ALL}${randomUUID().slice(0, 6)}`;
    await stores.triageChannels.set('it', triage);
    await stores.triageChannels.set('*', catchAll);
    const slack = new FakeSlack();
    const platform = new FakePlatform(TICKETS);
    const clock = clockAt(NINE_PARIS);
    const logs: Logged[] = [];
    const replica = (options: { slack?: FakeSlack; leaseMs?: number } = {}) =>
      new TriageDigest({
        schedule: { minuteOfDay: 9 * 60, timeZone: 'Europe/Paris' },
        client: (options.slack ?? slack).client(),
        platform: platform.api(),
        stores,
        privacy: { privacy: async (channel) => privacy(channel) },
        targets: parseServiceTargets('').targets,
        warnAt: 0.8,
        dashboardUrl: 'https://desk.acme.example',
        logger: logger(logs),
        now: clock.now,
        ...(options.leaseMs !== undefined
          ? { leaseMs: options.leaseMs, runLeaseMs: options.leaseMs }
          : {}),
      });
    return { triage, catchAll, slack, platform, clock, logs, replica };
  }

  it('links an oldest unassigned ticket to its triage thread, and one without a thread to the dashboard', async () => {
    const { triage, catchAll, slack, replica } = await setup();
    await stores.links.link('IT-1', {
      channel: triage,
      threadTs: '1700000000.000200',
      triage: true,
    });
    await replica().step();
    const itBlocks = JSON.stringify(slack.posted(triage)[0]?.blocks);
    expect(itBlocks).toContain(`/archives/${triage}/p1700000000000200|IT-1>`);
    expect(JSON.stringify(slack.posted(catchAll)[0]?.blocks)).toContain(
      '<https://desk.acme.example/tickets/HR-1|HR-1>',
    );
  });

  it('posts one summary per channel when two replicas wake at 09:00 together', async () => {
    const { triage, catchAll, slack, replica } = await setup();
    const [a, b] = [replica(), replica()];
    await Promise.all([a.step(), b.step()]);
    await Promise.all([a.step(), b.step()]);
    expect(slack.posted(triage)).toHaveLength(1);
    expect(slack.posted(catchAll)).toHaveLength(1);
    expect(slack.posted(triage)[0]?.text).toContain('2 open, 1 unassigned');
    // The catch-all summarises the ticket on no desk.
    expect(slack.posted(catchAll)[0]?.text).toContain('1 open, 1 unassigned');
  });

  it('posts nothing more after a restart later that morning', async () => {
    const { triage, slack, clock, replica } = await setup();
    await replica().step();
    clock.set(NINE_PARIS + 60 * MINUTE);
    const restarted = replica();
    await restarted.step();
    expect(slack.posted(triage)).toHaveLength(1);
  });

  it('finds a summary posted by a replica that died before recording it, and posts no second', async () => {
    const { triage, catchAll, slack, replica, platform } = await setup();
    slack.hangAfterPost = true;
    const dying = replica({ leaseMs: 100 });
    void dying.step();
    // Its first post lands, and its answer never comes.
    await waitFor(() => slack.posted(triage).length + slack.posted(catchAll).length === 1);
    const landed = slack.posted(triage).length === 1 ? triage : catchAll;
    slack.hangAfterPost = false;
    // Its leases lapse (real milliseconds: Redis keeps them).
    await new Promise((resolve) => setTimeout(resolve, 250));
    const run = await replica({ leaseMs: 100 }).send(dayOf(platform));
    expect(run.channels.find((c) => c.channel === landed)?.outcome).toBe('found');
    expect(slack.posted(triage)).toHaveLength(1);
    expect(slack.posted(catchAll)).toHaveLength(1);
  });

  it('waits out Slack’s Retry-After and a 500, then posts once', async () => {
    const { triage, catchAll, slack, clock, replica } = await setup();
    const digest = replica();
    slack.failures = [rateLimited(30), serverError()];
    expect(await digest.step()).toBe(30_000);
    expect([...slack.posted(triage), ...slack.posted(catchAll)]).toEqual([]);
    for (let step = 0; step < 4; step++) {
      clock.set(clock.now() + 2 * MINUTE);
      await digest.step();
    }
    expect(slack.posted(triage)).toHaveLength(1);
    expect(slack.posted(catchAll)).toHaveLength(1);
  });

  it('posts no summary in a public channel, says so at error level, and reads nothing for it', async () => {
    const { triage, catchAll, slack, platform, logs, replica } = await setup((channel) =>
      channel.startsWith(TRIAGE) ? 'public' : 'absent',
    );
    await replica().step();
    expect(slack.posted(triage)).toEqual([]);
    expect(slack.posted(catchAll)).toEqual([]);
    expect(platform.lists).toBe(0);
    expect(logs.filter((l) => l.level === 'error').map((l) => l.msg)).toEqual(
      expect.arrayContaining([expect.stringContaining('triage channel is public')]),
    );
  });

  it('waits for room in the platform budget and posts when there is, within the morning', async () => {
    const { triage, slack, platform, clock, logs, replica } = await setup();
    const digest = replica();
    platform.deferUntil = NINE_PARIS + 10 * MINUTE;
    const wait = await digest.step();
    expect(wait).toBe(10 * MINUTE);
    expect(logs.some((l) => l.msg?.includes('waits for room in the platform'))).toBe(true);
    platform.deferUntil = undefined;
    clock.set(NINE_PARIS + 10 * MINUTE);
    await digest.step();
    expect(slack.posted(triage)).toHaveLength(1);
  });

  it('sends nothing when it starts after noon, and today’s when it starts at 09:30', async () => {
    const { triage, slack, platform, clock, replica } = await setup();
    clock.set(NINE_PARIS + 3 * 60 * MINUTE + 5 * MINUTE);
    await replica().step();
    expect(slack.posted(triage)).toEqual([]);
    expect(platform.lists).toBe(0);
    clock.set(NINE_PARIS + 30 * MINUTE);
    await replica().step();
    expect(slack.posted(triage)).toHaveLength(1);
  });

  it('gives the day up at noon when it could not send, and says which channels went without', async () => {
    const { triage, slack, platform, clock, logs, replica } = await setup();
    const digest = replica();
    platform.deferUntil = NINE_PARIS + 4 * 60 * MINUTE;
    await digest.step();
    platform.deferUntil = undefined;
    clock.set(NINE_PARIS + 3 * 60 * MINUTE + 1);
    await digest.step();
    expect(slack.posted(triage)).toEqual([]);
    expect(logs.some((l) => l.level === 'error' && l.msg?.includes('window closed'))).toBe(true);
  });
});

function dayOf(_platform: FakePlatform) {
  return {
    date: '2026-11-30',
    sendAtMs: NINE_PARIS,
    closesAtMs: NINE_PARIS + 3 * 60 * MINUTE,
    startOfDayMs: Date.parse('2026-11-29T23:00:00Z'),
    endOfDayMs: Date.parse('2026-11-30T23:00:00Z'),
  };
}

async function waitFor(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!check()) throw new Error('never happened');
}

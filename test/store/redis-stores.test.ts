import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisStores } from '../../src/store/redis-stores.ts';
import type { Outbox } from '../../src/store/types.ts';
import { describeBudgetContract } from './contract/budget-contract.ts';
import { describeClaimsContract } from './contract/claims-contract.ts';
import type { StoresBackend } from './contract/harness.ts';
import { fakeClock } from './contract/harness.ts';
import { describeLinksContract } from './contract/links-contract.ts';
import { describeMirrorContract } from './contract/mirror-contract.ts';
import { describeOutboxContract } from './contract/outbox-contract.ts';
import { describeScheduleContract } from './contract/schedule-contract.ts';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
// Every key this file writes starts with RUN_PREFIX; afterAll deletes exactly those.
const RUN_PREFIX = `test:${randomUUID()}:`;

// Two connections stand for two replicas; each test namespace gets its own sub-prefix.
let connections: [Redis, Redis] | undefined;
let namespaces = 0;

function connection(replica: number): Redis {
  if (!connections) throw new Error('Redis connections are not open');
  return replica % 2 === 0 ? connections[0] : connections[1];
}

function nextPrefix(): string {
  namespaces += 1;
  return `${RUN_PREFIX}${namespaces}:`;
}

const backend: StoresBackend = {
  durable: true,
  namespace(clock, options) {
    const prefix = nextPrefix();
    return {
      open: (replica = 0) =>
        createRedisStores({ redis: connection(replica), prefix, now: clock.now, ...options }),
    };
  },
};

async function keysUnder(redis: Redis, prefix: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  for (let round = 0; round < 100_000; round++) {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    found.push(...keys);
    cursor = next;
    if (cursor === '0') break;
  }
  return found;
}

// Redis Cluster's rule: the text between the first `{` and the next `}`, when not empty.
function hashTag(key: string): string | undefined {
  const open = key.indexOf('{');
  const close = key.indexOf('}', open + 1);
  if (open < 0 || close < 0 || close === open + 1) return undefined;
  return key.slice(open + 1, close);
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

beforeAll(async () => {
  connections = [new Redis(REDIS_URL), new Redis(REDIS_URL)];
  await Promise.all(connections.map((redis) => redis.ping()));
});

afterAll(async () => {
  if (!connections) return;
  const [first] = connections;
  const keys = await keysUnder(first, RUN_PREFIX);
  for (let i = 0; i < keys.length; i += 500) await first.del(...keys.slice(i, i + 500));
  await Promise.all(connections.map((redis) => redis.quit()));
  connections = undefined;
});

describe('Redis stores', () => {
  describeClaimsContract(backend);
  describeOutboxContract(backend);
  describeLinksContract(backend);
  describeBudgetContract(backend);
  describeScheduleContract(backend);
  describeMirrorContract(backend);

  describe('watching the outbox', () => {
    // Enqueues probes until the watch hears one (a subscription takes a moment), for at most 5 s.
    async function heardWithin(outbox: Outbox, heard: () => number, tag: string): Promise<void> {
      const before = heard();
      const deadline = Date.now() + 5_000;
      for (let probe = 0; heard() === before; probe++) {
        if (Date.now() > deadline) throw new Error(`the watch heard nothing (${tag})`);
        await outbox.enqueue(`probe:${tag}:${probe}`, 'probe', {});
        await sleep(20);
      }
    }

    async function watchClientIds(name: string): Promise<string[]> {
      const list = String(await connection(1).client('LIST'));
      return list
        .split('\n')
        .filter((line) => line.includes(` name=${name} `))
        .map((line) => /^id=(\d+)/.exec(line)?.[1] ?? '');
    }

    it('a watch hears new entries again after Redis drops its connection', async () => {
      const prefix = nextPrefix();
      const { outbox } = createRedisStores({ redis: connection(0), prefix });
      let heard = 0;
      const stop = outbox.watch(() => {
        heard += 1;
      });
      await heardWithin(outbox, () => heard, 'before');
      const name = `watch:${prefix}{outbox}:enqueued`;
      const [id] = await watchClientIds(name);
      if (!id) throw new Error('the watch connection is not named after its channel');
      await connection(1).client('KILL', 'ID', id);
      await heardWithin(outbox, () => heard, 'after');
      const now = await watchClientIds(name);
      expect(now).toHaveLength(1);
      expect(now).not.toContain(id);
      await stop();
      expect(await watchClientIds(name)).toEqual([]);
    });
  });

  describe('key layout', () => {
    it('every key written carries the prefix of the run and a hash tag', async () => {
      const clock = fakeClock();
      const prefix = nextPrefix();
      const stores = createRedisStores({ redis: connection(0), prefix, now: clock.now });
      const held = await stores.claims.claim('A1:T1:Ev1', 30_000);
      if (held.state !== 'claimed') throw new Error('expected the lease');
      await stores.outbox.enqueue('view:V1', 'createTicket', { title: 'VPN' });
      await stores.outbox.enqueue('view:V2', 'createTicket', { title: 'Mail' });
      await stores.outbox.enqueue('view:V3', 'createTicket', { title: 'Disk' });
      const done = await stores.outbox.reserve('w', 30_000);
      const failed = await stores.outbox.reserve('w', 30_000);
      await stores.outbox.reserve('w', 30_000);
      if (!done || !failed) throw new Error('expected entries');
      await stores.outbox.complete(done, { ticketId: 'IT-1' });
      await stores.outbox.fail(failed, 'HTTP 422');
      await stores.links.link('IT-1', { channel: 'C1', threadTs: '1.2' });

      const keys = (await keysUnder(connection(0), prefix)).map((key) => key.slice(prefix.length));
      expect(keys.sort()).toEqual([
        'claim:{A1:T1:Ev1}',
        '{links}:thread:["C1","1.2"]',
        '{links}:ticket:IT-1',
        '{outbox}:all',
        '{outbox}:dead',
        '{outbox}:delivery:view:V1',
        '{outbox}:delivery:view:V2',
        '{outbox}:delivery:view:V3',
        '{outbox}:entry:000000000003',
        '{outbox}:leased',
        '{outbox}:seq',
      ]);
      expect(keys.map(hashTag)).not.toContain(undefined);
    });

    it('the budget, schedule and mirror keys carry the prefix of the run and a hash tag', async () => {
      const clock = fakeClock();
      const prefix = nextPrefix();
      const stores = createRedisStores({ redis: connection(0), prefix, now: clock.now });
      await stores.budget.take('interactive');
      await stores.budget.backOff(clock.now() + 1_000);
      await stores.schedule.pollAt('IT-1', clock.now());
      await stores.schedule.claimDue(1, 30_000);
      await stores.mirror.saveState('IT-1', {
        activityCursor: 1,
        messageCursor: 0,
        messagesAnnounced: 0,
        lastActivityAt: clock.now(),
        lastAnswerAt: 0,
        lastPolledAt: clock.now(),
        backoffStep: 0,
        status: 'new',
        settledAt: undefined,
        requesterEmail: undefined,
        slackWriteAt: 0,
      });
      await stores.mirror.claimPost('IT-1', 'msg_1', 30_000);
      await stores.mirror.rememberOwn('IT-1', ['id:msg_2']);

      const keys = (await keysUnder(connection(0), prefix)).map((key) => key.slice(prefix.length));
      expect(keys.sort()).toEqual([
        'mirror:{IT-1}:own',
        'mirror:{IT-1}:posts',
        'mirror:{IT-1}:state',
        '{budget}:log',
        '{budget}:state',
        '{poll}:due',
        '{poll}:leases',
      ]);
      expect(keys.map(hashTag)).not.toContain(undefined);
    });

    it('a forgotten ticket’s mirror keys expire in Redis after the grace period', async () => {
      const prefix = nextPrefix();
      const stores = createRedisStores({ redis: connection(0), prefix });
      await stores.mirror.noteSlackWrite('IT-9', Date.now());
      await stores.mirror.rememberOwn('IT-9', ['id:msg_1']);
      await stores.mirror.forget('IT-9', 60_000);
      const ttl = await connection(0).pttl(`${prefix}mirror:{IT-9}:state`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);
      expect(await connection(0).pttl(`${prefix}mirror:{IT-9}:own`)).toBeLessThanOrEqual(60_000);
    });

    it('refuses a prefix that holds a brace, which would become the hash tag of every key', () => {
      expect(() => createRedisStores({ redis: connection(0), prefix: 'app{x}:' })).toThrow(
        expect.objectContaining({ code: 'STORE_INVALID_ARGUMENT' }),
      );
    });
  });

  describe('errors', () => {
    it('an unreachable Redis is reported as StoreUnavailableError', async () => {
      const redis = new Redis({
        host: '127.0.0.1',
        port: await closedPort(),
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
      });
      // The client also emits the refused connection; the rejected command is what counts.
      redis.on('error', () => {});
      try {
        const { outbox } = createRedisStores({ redis, prefix: nextPrefix() });
        await expect(outbox.enqueue('ev:1', 'addMessage', {})).rejects.toMatchObject({
          name: 'StoreUnavailableError',
          code: 'STORE_UNAVAILABLE',
          operation: 'outbox.enqueue',
        });
      } finally {
        redis.disconnect();
      }
    });

    it('a command Redis refuses is reported as StoreCommandError', async () => {
      const prefix = nextPrefix();
      await connection(0).set(`${prefix}{outbox}:due`, 'not a sorted set');
      const { outbox } = createRedisStores({ redis: connection(0), prefix });
      await expect(outbox.enqueue('ev:1', 'addMessage', {})).rejects.toMatchObject({
        name: 'StoreCommandError',
        code: 'STORE_COMMAND_FAILED',
        cause: expect.objectContaining({ message: expect.stringContaining('WRONGTYPE') }),
      });
    });
  });
});

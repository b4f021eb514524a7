/** The change feed across replicas on a real Redis: one scan a period, and one memory. */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangeFeed, initialMirrorState } from '../../src/mirror/index.ts';
import { createRedisStores } from '../../src/store/index.ts';
import { emptyModel, ModelPlatform, SAM, TENANT } from './support.ts';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const T0 = 1_767_225_600_000;
const PERIOD = 30_000;
const prefix = `test:feed:${randomUUID()}:`;
const silent = { debug() {}, info() {}, warn() {}, error() {} };
let connections: Redis[] = [];

beforeAll(() => {
  connections = [new Redis(REDIS_URL), new Redis(REDIS_URL)];
});

afterAll(async () => {
  const [first] = connections;
  const keys = first ? await first.keys(`${prefix}*`) : [];
  if (first && keys.length > 0) await first.del(...keys);
  await Promise.all(connections.map((redis) => redis.quit()));
});

function replicas() {
  const clock = { now: T0 };
  const now = () => clock.now;
  const model = emptyModel(now);
  const platform = new ModelPlatform(model);
  const namespace = `${prefix}${randomUUID()}:`;
  const open = (redis: Redis) => {
    const stores = createRedisStores({ redis, prefix: namespace, now });
    const feed = new ChangeFeed({
      platform,
      stores,
      logger: silent,
      now,
      periodMs: PERIOD,
      filterPeriodMs: PERIOD,
    });
    return { stores, feed, namespace };
  };
  return {
    clock,
    model,
    platform,
    a: open(connections[0] as Redis),
    b: open(connections[1] as Redis),
  };
}

describe('change feed on Redis', () => {
  it('two replicas scanning at once make one scan, and the other waits for the next period', async () => {
    const { clock, model, platform, a, b } = replicas();
    model.createTicket(TENANT, { title: 'Printer' });
    const scans = await Promise.all([a.feed.scanOnce(), b.feed.scanOnce()]);
    expect(scans.filter((scan) => scan !== undefined)).toHaveLength(1);
    expect(platform.count('listTickets')).toBe(3);
    clock.now += PERIOD - 1;
    expect(await Promise.all([a.feed.scanOnce(), b.feed.scanOnce()])).toEqual([
      undefined,
      undefined,
    ]);
    clock.now += 1;
    const next = await Promise.all([a.feed.scanOnce(), b.feed.scanOnce()]);
    expect(next.filter((scan) => scan !== undefined)).toHaveLength(1);
  });

  it('a replica goes on from where another’s scan left off', async () => {
    const { clock, model, a, b } = replicas();
    const ticket = model.createTicket(TENANT, { title: 'Printer' });
    await a.stores.links.link(ticket.id, { channel: 'C0HELP', threadTs: '1.1' });
    clock.now += 5_000;
    await a.stores.mirror.saveState(ticket.id, {
      ...initialMirrorState(),
      lastPolledAt: clock.now,
    });
    await a.stores.schedule.pollAt(ticket.id, clock.now + 600_000);
    await a.feed.scanOnce();
    clock.now += PERIOD;
    model.addAgentReply(TENANT, ticket.id, { agentEmail: SAM, body: 'On my way' });
    expect(await a.feed.scanOnce()).toMatchObject({ way: 'filter', changed: 1 });
    clock.now += PERIOD;
    // The change is still behind the cursor's overlap; the other replica knows it was seen.
    expect(await b.feed.scanOnce()).toMatchObject({ way: 'filter', requests: 1, changed: 0 });
  });

  it('starts warm again after Redis was emptied: hints only the ticket changed meanwhile', async () => {
    const { clock, model, a } = replicas();
    const quiet = model.createTicket(TENANT, { title: 'Printer' });
    const answered = model.createTicket(TENANT, { title: 'VPN' });
    clock.now += 5_000;
    const lookedAt = clock.now;
    /** The ticket's thread, the mirror's record of a look now, and its next look in 20 s. */
    const follow = async (ticketId: string, threadTs: string) => {
      await a.stores.links.link(ticketId, { channel: 'C0HELP', threadTs });
      await a.stores.mirror.saveState(ticketId, {
        ...initialMirrorState(),
        lastPolledAt: lookedAt,
        status: 'new',
      });
      await a.stores.schedule.pollAt(ticketId, lookedAt + 20_000);
    };
    await follow(quiet.id, '1.1');
    await follow(answered.id, '1.2');
    await a.feed.scanOnce();
    clock.now += PERIOD;
    await a.feed.scanOnce();
    const redis = connections[0] as Redis;
    const keys = await redis.keys(`${a.namespace}*`);
    await redis.del(...keys);
    clock.now += 60_000;
    model.addAgentReply(TENANT, answered.id, { agentEmail: SAM, body: 'On my way' });
    clock.now += 1_000;
    // The threads are found again with what the mirror had read of them.
    await follow(quiet.id, '1.1');
    await follow(answered.id, '1.2');
    expect(await a.feed.scanOnce()).toMatchObject({ way: 'filter', changed: 1, postponed: 1 });
    expect(await a.stores.schedule.dueAt(answered.id)).toBeLessThanOrEqual(clock.now + 1_000);
    expect(await a.stores.schedule.dueAt(quiet.id)).toBeGreaterThan(clock.now);
  });
});

import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisStores } from '../../src/store/redis-stores.ts';
import { describeBudgetContract } from './contract/budget-contract.ts';
import { describeChannelModesContract } from './contract/channel-modes-contract.ts';
import { describeClaimsContract } from './contract/claims-contract.ts';
import { describeClockScheduleContract } from './contract/clock-schedule-contract.ts';
import { describeFairShareContract } from './contract/fair-share-contract.ts';
import { describeFeedContract } from './contract/feed-contract.ts';
import { describeHomesContract } from './contract/homes-contract.ts';
import { describeInstallationsContract } from './contract/installations-contract.ts';
import { describeLinksContract } from './contract/links-contract.ts';
import { describeMirrorContract } from './contract/mirror-contract.ts';
import { describeOutboxContract } from './contract/outbox-contract.ts';
import { describeScheduleContract } from './contract/schedule-contract.ts';
import { describeTriageContract } from './contract/triage-contract.ts';
import { redisInstallBackend, redisTestBed } from './redis-backend.ts';
import { describeRedisContract } from './redis-contract.ts';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const bed = redisTestBed(() => new Redis(REDIS_URL));

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

beforeAll(() => bed.open());
afterAll(() => bed.close());

describe('Redis stores', () => {
  describeClaimsContract(bed.backend);
  describeOutboxContract(bed.backend);
  describeLinksContract(bed.backend);
  describeBudgetContract(bed.backend);
  describeScheduleContract(bed.backend);
  describeClockScheduleContract(bed.backend);
  describeMirrorContract(bed.backend);
  describeFeedContract(bed.backend);
  describeFairShareContract(bed.backend);
  describeTriageContract(bed.backend);
  describeChannelModesContract(bed.backend);
  describeHomesContract(bed.backend);
  describeInstallationsContract(redisInstallBackend(bed));
  describeRedisContract(bed);

  describe('key layout', () => {
    it('a forgotten ticket’s mirror keys expire in Redis after the grace period', async () => {
      const prefix = bed.nextPrefix();
      const redis = bed.connection(0);
      const stores = createRedisStores({ redis, prefix });
      await stores.mirror.noteSlackWrite('IT-9', Date.now());
      await stores.mirror.rememberOwn('IT-9', ['id:msg_1']);
      await stores.mirror.forget('IT-9', 60_000);
      const ttl = await redis.pttl(`${prefix}mirror:{IT-9}:state`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);
      expect(await redis.pttl(`${prefix}mirror:{IT-9}:own`)).toBeLessThanOrEqual(60_000);
    });

    it('refuses a prefix that holds a brace, which would become the hash tag of every key', () => {
      expect(() => createRedisStores({ redis: bed.connection(0), prefix: 'app{x}:' })).toThrow(
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
        const { outbox } = createRedisStores({ redis, prefix: bed.nextPrefix() });
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
      const prefix = bed.nextPrefix();
      await bed.connection(0).set(`${prefix}{${prefix}outbox}:due`, 'not a sorted set');
      const { outbox } = createRedisStores({ redis: bed.connection(0), prefix });
      await expect(outbox.enqueue('ev:1', 'addMessage', {})).rejects.toMatchObject({
        name: 'StoreCommandError',
        code: 'STORE_COMMAND_FAILED',
        cause: expect.objectContaining({ message: expect.stringContaining('WRONGTYPE') }),
      });
    });
  });
});

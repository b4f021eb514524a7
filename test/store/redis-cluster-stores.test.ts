/**
 * The store contracts against a real three-node Redis Cluster: REDIS_CLUSTER_URL's, or one
 * started for this file (see `redis-cluster.ts`). Without either the file is skipped, unless
 * REDIS_CLUSTER_REQUIRED=1 (CI sets it) makes that a failure.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisClient } from '../../src/ops/redis-client.ts';
import { redisKeys } from '../../src/store/redis-stores.ts';
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
import { clusterAvailability, startTestCluster, type TestCluster } from './redis-cluster.ts';
import { describeRedisContract } from './redis-contract.ts';

const availability = clusterAvailability();
const required = process.env.REDIS_CLUSTER_REQUIRED === '1';
let cluster: TestCluster | undefined;
const bed = redisTestBed(() => {
  if (!cluster) throw new Error('the cluster is not running');
  return createRedisClient(cluster.url, { cluster: true });
});

describe.skipIf(!availability.available && !required)('Redis Cluster stores', () => {
  beforeAll(async () => {
    if (!availability.available) throw new Error(`no Redis Cluster: ${availability.reason}`);
    cluster = await startTestCluster();
    await bed.open();
  }, 30_000);

  afterAll(async () => {
    try {
      await bed.close();
    } finally {
      await cluster?.stop();
    }
  });

  it('runs on three masters that share the slots', async () => {
    const nodes = bed.nodes();
    expect(nodes).toHaveLength(3);
    const slots = (await bed.connection(0).call('CLUSTER', 'SLOTS')) as [number, number][];
    expect(slots.reduce((sum, [from, to]) => sum + to - from + 1, 0)).toBe(16_384);
  });

  it('deployments with different prefixes keep their outbox, links, budget and schedule on different slots', async () => {
    const redis = bed.connection(0);
    const slotOf = async (key: string) => Number(await redis.call('CLUSTER', 'KEYSLOT', key));
    const slotsOf = async (prefix: string) => {
      const keys = redisKeys(prefix);
      return Promise.all(
        [keys.outbox.due, keys.links.ticket('IT-1'), keys.budget.log, keys.schedule.due].map(
          slotOf,
        ),
      );
    };
    const production = await slotsOf('sds:prod:');
    const staging = await slotsOf('sds:staging:');
    for (const [i, slot] of production.entries()) expect(staging[i]).not.toBe(slot);
  });

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
});

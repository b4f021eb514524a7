/**
 * Redis for the store tests, one server or a Cluster alike: two connections stand for two
 * replicas, each test namespace gets a prefix of its own under the run's prefix, and closing
 * deletes exactly the keys under the run's prefix.
 */
import { randomUUID } from 'node:crypto';
import { Cluster, type Redis } from 'ioredis';
import { createRedisInstallStores } from '../../src/store/redis-installations.ts';
import type { RedisClient } from '../../src/store/redis-script.ts';
import { createRedisStores } from '../../src/store/redis-stores.ts';
import type { StoresBackend } from './contract/harness.ts';
import { type InstallBackend, testCipher } from './contract/installations-contract.ts';

/** One run's Redis: connections, prefixes and the backend the contract suites take. */
export interface RedisTestBed {
  /** Every key the run writes starts with it. */
  readonly runPrefix: string;
  /** The contract suites' view of it. */
  readonly backend: StoresBackend;
  /** Opens both connections. */
  open(): Promise<void>;
  /** Deletes the run's keys and closes both connections. */
  close(): Promise<void>;
  /** The connection of replica `n` (n % 2). */
  connection(replica: number): RedisClient;
  /** A fresh prefix under the run's. */
  nextPrefix(): string;
  /** Every key that starts with `prefix`, on every node. */
  keysUnder(prefix: string): Promise<string[]>;
  /** The server, or each master of the Cluster, as a plain connection. */
  nodes(): Redis[];
}

/** A bed whose connections `connect` makes (called twice by `open`). */
export function redisTestBed(connect: () => RedisClient): RedisTestBed {
  const runPrefix = `test:${randomUUID()}:`;
  let connections: [RedisClient, RedisClient] | undefined;
  let namespaces = 0;

  const connection = (replica: number): RedisClient => {
    if (!connections) throw new Error('Redis connections are not open');
    return replica % 2 === 0 ? connections[0] : connections[1];
  };
  const nodes = (): Redis[] => {
    const first = connection(0);
    return first instanceof Cluster ? first.nodes('master') : [first];
  };
  const nextPrefix = () => {
    namespaces += 1;
    return `${runPrefix}${namespaces}:`;
  };
  const keysUnder = async (prefix: string): Promise<string[]> => {
    const found: string[] = [];
    for (const node of nodes()) {
      let cursor = '0';
      for (let round = 0; round < 100_000; round++) {
        const [next, keys] = await node.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
        found.push(...keys);
        cursor = next;
        if (cursor === '0') break;
      }
    }
    return found;
  };

  return {
    runPrefix,
    backend: {
      durable: true,
      namespace(clock, options) {
        const prefix = nextPrefix();
        return {
          open: (replica = 0) =>
            createRedisStores({ redis: connection(replica), prefix, now: clock.now, ...options }),
        };
      },
    },
    async open() {
      connections = [connect(), connect()];
      await Promise.all(connections.map((redis) => redis.ping()));
    },
    async close() {
      if (!connections) return;
      const keys = await keysUnder(runPrefix);
      // One key at a time: on a Cluster a DEL of keys from several slots is refused.
      const first = connection(0);
      for (let i = 0; i < keys.length; i += 100) {
        await Promise.all(keys.slice(i, i + 100).map((key) => first.del(key)));
      }
      await Promise.all(connections.map((redis) => redis.quit()));
      connections = undefined;
    },
    connection,
    nextPrefix,
    keysUnder,
    nodes,
  };
}

/** Redis Cluster's rule: the text between the first `{` and the next `}`, when not empty. */
export function hashTag(key: string): string | undefined {
  const open = key.indexOf('{');
  const close = key.indexOf('}', open + 1);
  if (open < 0 || close < 0 || close === open + 1) return undefined;
  return key.slice(open + 1, close);
}

/** The installation stores on this Redis, for the installations contract: one place for both. */
export function redisInstallBackend(bed: RedisTestBed): InstallBackend {
  return {
    namespace() {
      const prefix = bed.nextPrefix();
      const cipher = testCipher();
      return {
        open: (replica = 0, withKey) =>
          createRedisInstallStores({
            redis: bed.connection(replica),
            prefix,
            cipher: withKey ?? cipher,
            stateSecret: 'state-secret',
          }),
        // Every value stored under the prefix, as it lies in Redis (no token may be readable).
        raw: async () => {
          const redis = bed.connection(0);
          const values: string[] = [];
          for (const key of await bed.keysUnder(prefix)) {
            const type = await redis.type(key);
            if (type === 'hash') values.push(...Object.values(await redis.hgetall(key)));
            else if (type === 'string') values.push((await redis.get(key)) ?? '');
          }
          return values;
        },
      };
    },
  };
}

/**
 * The Redis connection from REDIS_URL: one server (or a Sentinel-fronted one), or, with
 * REDIS_CLUSTER=1, a Redis Cluster discovered from the URL's node. The stores' key layout puts
 * every multi-key script on one hash slot, so both work the same.
 */
import { Cluster, Redis, type RedisOptions } from 'ioredis';

/** Options of `createRedisClient`. */
export interface RedisClientOptions {
  /** Treat the URL as a seed node of a Redis Cluster. */
  cluster?: boolean;
  /** Connect on the first command or `connect()` rather than at once. */
  lazyConnect?: boolean;
  /** Per-command retries while reconnecting; 3 by default. */
  maxRetriesPerRequest?: number;
  /** Give up connecting after this long. */
  connectTimeoutMs?: number;
  /** Never reconnect after a failure (the doctor wants one honest attempt). */
  noReconnect?: boolean;
}

/** A client for the URL: `Redis` for one server, `Cluster` when asked. */
export function createRedisClient(url: string, options: RedisClientOptions = {}): Redis | Cluster {
  const common: RedisOptions = {
    maxRetriesPerRequest: options.maxRetriesPerRequest ?? 3,
    ...(options.lazyConnect ? { lazyConnect: true } : {}),
    ...(options.connectTimeoutMs !== undefined ? { connectTimeout: options.connectTimeoutMs } : {}),
  };
  if (!options.cluster) {
    return new Redis(url, {
      ...common,
      ...(options.noReconnect ? { retryStrategy: () => null } : {}),
    });
  }
  // Nodes the cluster reports are reached with redisOptions, not with the seed URL's parts.
  const parsed = new URL(url);
  const { maxRetriesPerRequest, ...perNode } = common;
  return new Cluster([url], {
    ...(options.lazyConnect ? { lazyConnect: true } : {}),
    ...(options.noReconnect ? { clusterRetryStrategy: () => null } : {}),
    redisOptions: {
      ...perNode,
      maxRetriesPerRequest,
      ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
      ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
      ...(parsed.protocol === 'rediss:' ? { tls: {} } : {}),
    },
  });
}

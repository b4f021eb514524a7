/**
 * The Redis connection from REDIS_URL: one server (or a Sentinel-fronted one), or, with
 * REDIS_CLUSTER=1, a Redis Cluster discovered from the URL's node. The stores' key layout puts
 * every multi-key script on one hash slot, so both work the same.
 */
import { Cluster, Redis, type RedisOptions } from 'ioredis';
import type { Logger } from 'pino';

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
  /**
   * A command with no answer after this long fails (default 1 s): while Redis is away, an ack
   * waiting on its claim must fail well inside Slack's 3 s, so Slack delivers again.
   */
  commandTimeoutMs?: number;
  /** Where connection errors go; without it ioredis prints each one to stderr. */
  logger?: Logger;
}

// One line per outage, not one per reconnection attempt.
function logConnection(client: Redis | Cluster, logger: Logger): void {
  let down = false;
  client.on('error', (error: Error) => {
    if (down) return;
    down = true;
    logger.warn({ err: error }, 'Redis is not answering; requests answer 500 until it is back');
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    logger.info('Redis answers again');
  });
}

/** A client for the URL: `Redis` for one server, `Cluster` when asked. */
export function createRedisClient(url: string, options: RedisClientOptions = {}): Redis | Cluster {
  const common: RedisOptions = {
    maxRetriesPerRequest: options.maxRetriesPerRequest ?? 3,
    commandTimeout: options.commandTimeoutMs ?? 1_000,
    ...(options.lazyConnect ? { lazyConnect: true } : {}),
    ...(options.connectTimeoutMs !== undefined ? { connectTimeout: options.connectTimeoutMs } : {}),
  };
  if (!options.cluster) {
    const client = new Redis(url, {
      ...common,
      ...(options.noReconnect ? { retryStrategy: () => null } : {}),
    });
    if (options.logger) logConnection(client, options.logger);
    return client;
  }
  // Nodes the cluster reports are reached with redisOptions, not with the seed URL's parts.
  const parsed = new URL(url);
  const { maxRetriesPerRequest, ...perNode } = common;
  const cluster = new Cluster([url], {
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
  if (options.logger) logConnection(cluster, options.logger);
  return cluster;
}

/**
 * The doctor's client: one honest attempt, no retries, connecting on `connect()`, its failures
 * left to whoever awaits it (the client's own error event must not crash the check).
 */
export function createCheckRedisClient(
  url: string,
  cluster: boolean,
  timeoutMs: number,
): Redis | Cluster {
  const redis = createRedisClient(url, {
    cluster,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeoutMs: timeoutMs,
    noReconnect: true,
  });
  redis.on('error', () => undefined);
  return redis;
}

/**
 * The Redis backend: claims, outbox and links shared by every replica.
 *
 * Key layout (`<p>` is the caller's prefix; `{...}` is the Cluster hash tag, and every key
 * one script touches shares one tag so the script runs on one node):
 *
 *   <p>claim:{<key>}                       hash state leased|done, token, expiresAt, result
 *                                          (PEXPIRE: the lease, or 24 h once done)
 *   <p>{outbox}:seq                        string, the last entry id handed out
 *   <p>{outbox}:due                        zset   entry id -> next attempt (ms)
 *   <p>{outbox}:leased                     zset   entry id -> lease expiry (ms)
 *   <p>{outbox}:all                        zset   entry id -> created (ms): depth, oldest age
 *   <p>{outbox}:entry:<id>                 hash   deliveryKey, kind, payload (JSON text),
 *                                                 attempts, createdAt, nextAttemptAt,
 *                                                 lastError, rememberMs, leaseToken, workerId,
 *                                                 leaseExpiresAt
 *   <p>{outbox}:delivery:<deliveryKey>     hash   state pending|done|failed, id, result, error,
 *                                                 expiresAt (no expiry while pending,
 *                                                 PEXPIRE rememberMs once finished)
 *   <p>{outbox}:dead                       list   dead letters as JSON, newest first, capped
 *   <p>{links}:thread:<["channel","ts"]>   string ticket ID
 *   <p>{links}:ticket:<ticketId>           zset   ["channel","ts"] -> when linked (ms)
 *
 * Claims take a per-key tag: each claim script touches one key, so claims spread over the
 * Cluster. Outbox and links each take one tag because their scripts must change several keys
 * at once; outbox scripts build entry and delivery keys from `<p>{outbox}:`, passed as a key.
 * Links never expire: a ticket's thread may come back to life months later. Lease and
 * remember times are compared with the caller's clock, not Redis's TIME, so replicas need
 * clocks in step to within a small part of a lease (NTP gives that).
 */
import { InvalidStoreArgumentError } from './errors.ts';
import { RedisClaimStore } from './redis-claims.ts';
import type { LinkKeys } from './redis-links.ts';
import { RedisThreadLinks } from './redis-links.ts';
import type { OutboxKeys } from './redis-outbox.ts';
import { RedisOutbox } from './redis-outbox.ts';
import type { RedisClient } from './redis-script.ts';
import type { Clock, Stores } from './types.ts';
import { DEFAULT_DEAD_LETTER_CAP } from './types.ts';

/** Options for the Redis backend. */
export interface RedisStoresOptions {
  /** A connected client (standalone, Sentinel or Cluster); the caller owns and closes it. */
  redis: RedisClient;
  /** Put before every key, e.g. `servicedesk:prod:`; must not hold `{` or `}`. */
  prefix: string;
  /** The clock in ms (default Date.now). */
  now?: Clock;
  /** How many dead letters are kept (default 1,000). */
  deadLetterCap?: number;
}

/** Every key the Redis stores use under one prefix. */
export interface RedisKeys {
  claim(key: string): string;
  outbox: OutboxKeys;
  links: LinkKeys;
}

/** The key layout above, for one prefix. */
export function redisKeys(prefix: string): RedisKeys {
  // A brace in the prefix would become the hash tag of every key and undo the layout.
  if (/[{}]/.test(prefix)) {
    throw new InvalidStoreArgumentError('the Redis key prefix must not contain { or }');
  }
  const outbox = `${prefix}{outbox}:`;
  const links = `${prefix}{links}:`;
  return {
    claim: (key) => `${prefix}claim:{${key}}`,
    outbox: {
      base: outbox,
      seq: `${outbox}seq`,
      due: `${outbox}due`,
      leased: `${outbox}leased`,
      all: `${outbox}all`,
      dead: `${outbox}dead`,
      delivery: (deliveryKey) => `${outbox}delivery:${deliveryKey}`,
    },
    links: {
      base: links,
      thread: (member) => `${links}thread:${member}`,
      ticket: (ticketId) => `${links}ticket:${ticketId}`,
    },
  };
}

/** Claims, outbox and links in Redis, with their scripts registered on `redis`. */
export function createRedisStores(options: RedisStoresOptions): Stores {
  const keys = redisKeys(options.prefix);
  const clock = options.now ?? Date.now;
  // Whole milliseconds: scripts store times as integers.
  const now: Clock = () => Math.floor(clock());
  const { redis } = options;
  return {
    claims: new RedisClaimStore(redis, keys.claim, now),
    outbox: new RedisOutbox(
      redis,
      keys.outbox,
      now,
      options.deadLetterCap ?? DEFAULT_DEAD_LETTER_CAP,
    ),
    links: new RedisThreadLinks(redis, keys.links, now),
  };
}

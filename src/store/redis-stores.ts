/**
 * The Redis backend: claims, outbox, links, rate budget, poll schedule and mirror state,
 * shared by every replica.
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
 *   <p>{budget}:log                        zset   one member per request taken -> when (ms);
 *                                                 the rolling hour (PEXPIRE 61 min)
 *   <p>{budget}:state                      hash   blockedUntil (after a 429), and per window
 *                                                 (minute|hour) Remaining, ObservedAt, ResetAt
 *                                                 adopted from X-RateLimit-* (PEXPIRE 2 h)
 *   <p>{poll}:due                          zset   ticket ID -> next poll (ms); a claimed
 *                                                 ticket's score is its claim's expiry
 *   <p>{poll}:leases                       hash   ticket ID -> token|expiresAt|pending (the
 *                                                 earliest hint that came during the claim)
 *   <p>mirror:{<ticketId>}:state           hash   activityCursor, messageCursor,
 *                                                 messagesAnnounced, lastActivityAt,
 *                                                 lastAnswerAt, lastPolledAt, backoffStep,
 *                                                 status, settledAt, requesterEmail,
 *                                                 slackWriteAt, saved
 *   <p>mirror:{<ticketId>}:posts           hash   post key (item and thread, JSON) -> done |
 *                                                 retry | leased|token|expiresAt
 *   <p>mirror:{<ticketId>}:own             set    id:<messageId> and text:<digest> of messages
 *                                                 the app added from Slack (PEXPIRE 30 days)
 *
 * Claims take a per-key tag: each claim script touches one key, so claims spread over the
 * Cluster. Outbox and links each take one tag because their scripts must change several keys
 * at once; outbox scripts build entry and delivery keys from `<p>{outbox}:`, passed as a key.
 * The budget and the schedule each take one tag for the same reason (a take counts and records
 * in one step; a claim hands out many tickets in one step). The mirror's keys take the ticket's
 * ID as tag, so tickets spread over the Cluster; a closed ticket's mirror keys expire a week
 * after it closed (`forget`), others stay, like links.
 * Links never expire: a ticket's thread may come back to life months later. Lease and
 * remember times are compared with the caller's clock, not Redis's TIME, so replicas need
 * clocks in step to within a small part of a lease (NTP gives that).
 */
import { InvalidStoreArgumentError } from './errors.ts';
import { resolveBudgetLimits } from './rate-budget-rules.ts';
import type { BudgetKeys } from './redis-budget.ts';
import { RedisRateBudget } from './redis-budget.ts';
import { RedisClaimStore } from './redis-claims.ts';
import type { LinkKeys } from './redis-links.ts';
import { RedisThreadLinks } from './redis-links.ts';
import type { MirrorKeys } from './redis-mirror.ts';
import { RedisMirrorStore } from './redis-mirror.ts';
import type { OutboxKeys } from './redis-outbox.ts';
import { RedisOutbox } from './redis-outbox.ts';
import type { ScheduleKeys } from './redis-schedule.ts';
import { RedisPollSchedule } from './redis-schedule.ts';
import type { RedisClient } from './redis-script.ts';
import type { Clock, RateBudgetLimits, Stores } from './types.ts';
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
  /** The platform's rate limits and the interactive reserve (default 100/min, 1,000/h, 20%). */
  budget?: Partial<RateBudgetLimits>;
}

/** Every key the Redis stores use under one prefix. */
export interface RedisKeys {
  claim(key: string): string;
  outbox: OutboxKeys;
  links: LinkKeys;
  budget: BudgetKeys;
  schedule: ScheduleKeys;
  mirror: MirrorKeys;
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
      enqueued: `${outbox}enqueued`,
      delivery: (deliveryKey) => `${outbox}delivery:${deliveryKey}`,
    },
    links: {
      base: links,
      thread: (member) => `${links}thread:${member}`,
      ticket: (ticketId) => `${links}ticket:${ticketId}`,
    },
    budget: { log: `${prefix}{budget}:log`, state: `${prefix}{budget}:state` },
    schedule: { due: `${prefix}{poll}:due`, leases: `${prefix}{poll}:leases` },
    mirror: {
      state: (ticketId) => `${prefix}mirror:{${ticketId}}:state`,
      posts: (ticketId) => `${prefix}mirror:{${ticketId}}:posts`,
      own: (ticketId) => `${prefix}mirror:{${ticketId}}:own`,
    },
  };
}

/** Every store in Redis, with their scripts registered on `redis`. */
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
    budget: new RedisRateBudget(redis, keys.budget, resolveBudgetLimits(options.budget), now),
    schedule: new RedisPollSchedule(redis, keys.schedule, now),
    mirror: new RedisMirrorStore(redis, keys.mirror, now),
  };
}

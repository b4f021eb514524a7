/**
 * The outbox in Redis. Every key lives under the `{outbox}` hash tag (see `redis-stores.ts`),
 * so each script runs on one Cluster node. Scripts build entry and delivery keys from the
 * `base` key they are given (`<prefix>{outbox}:`), which carries the same tag. Payloads and
 * results are stored as the JSON text the caller's process wrote and never decoded in Lua, so
 * nothing about them changes on the way through.
 */
import { randomUUID } from 'node:crypto';
import { Cluster } from 'ioredis';
import {
  checkedEnqueue,
  requireCount,
  requireDuration,
  requireKey,
  requireTime,
  reservedAtEnqueue,
} from './argument-checks.ts';
import { StoreDataError } from './errors.ts';
import { decodeDeadLetter, decodeJson, encodeJson } from './json-codec.ts';
import type { RedisClient, RedisScript } from './redis-script.ts';
import {
  defineScript,
  replyArray,
  replyNumber,
  replyOptionalString,
  replyString,
  runCommand,
} from './redis-script.ts';
import type {
  Clock,
  DeadLetter,
  DeliveryState,
  EnqueueOptions,
  EnqueueOutcome,
  JsonValue,
  Outbox,
  OutboxLease,
  OutboxStats,
  ReservedEntry,
} from './types.ts';

/** The outbox's keys; every one carries the `{outbox}` tag. */
export interface OutboxKeys {
  /** The prefix scripts append `entry:<id>` and `delivery:<key>` to. */
  base: string;
  seq: string;
  due: string;
  leased: string;
  all: string;
  dead: string;
  /** The Pub/Sub channel new due entries are announced on (a channel, not a key). */
  enqueued: string;
  delivery(deliveryKey: string): string;
}

// Lua 5.1 prints large numbers in exponent form; %d keeps millisecond times exact.
const INT = `local function int(n) return string.format('%d', n) end`;

// KEYS base, seq, due, all, delivery, leased; ARGV deliveryKey, kind, payload, now, runAt,
// rememberMs, leaseToken, workerId, leaseExpiresAt (the lease three empty without leaseTo), channel.
// The delivery record has no expiry while pending: its key cannot be reused while queued.
// A new entry due now and free is announced on the channel, so idle workers anywhere wake.
const ENQUEUE = `
local d = redis.call('HMGET', KEYS[5], 'state', 'id', 'result', 'error', 'expiresAt')
if d[1] and (not d[5] or tonumber(d[5]) > tonumber(ARGV[4])) then
  return {0, d[2], d[1], d[3], d[4]}
end
local id = string.format('%012d', redis.call('INCR', KEYS[2]))
local key = KEYS[1] .. 'entry:' .. id
redis.call('HSET', key, 'deliveryKey', ARGV[1], 'kind', ARGV[2],
  'payload', ARGV[3], 'attempts', '0', 'createdAt', ARGV[4], 'nextAttemptAt', ARGV[5],
  'rememberMs', ARGV[6])
if ARGV[7] ~= '' then
  redis.call('HSET', key, 'leaseToken', ARGV[7], 'workerId', ARGV[8], 'leaseExpiresAt', ARGV[9])
  redis.call('ZADD', KEYS[6], ARGV[9], id)
else
  redis.call('ZADD', KEYS[3], ARGV[5], id)
  if tonumber(ARGV[5]) <= tonumber(ARGV[4]) then redis.call('PUBLISH', ARGV[10], id) end
end
redis.call('ZADD', KEYS[4], ARGV[4], id)
redis.call('DEL', KEYS[5])
redis.call('HSET', KEYS[5], 'state', 'pending', 'id', id)
return {1, id}
`;

// KEYS base, due, leased, all; ARGV now, leaseExpiresAt, workerId, token, sweepLimit.
// Lapsed leases go back to the due set at their own due time, so they come first.
const RESERVE = `
local expired = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[5]))
for _, id in ipairs(expired) do
  redis.call('ZREM', KEYS[3], id)
  local at = redis.call('HGET', KEYS[1] .. 'entry:' .. id, 'nextAttemptAt')
  if at then redis.call('ZADD', KEYS[2], at, id) else redis.call('ZREM', KEYS[4], id) end
end
for _ = 1, 100 do
  local id = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[1], 'LIMIT', 0, 1)[1]
  if not id then return false end
  redis.call('ZREM', KEYS[2], id)
  local key = KEYS[1] .. 'entry:' .. id
  local e = redis.call('HMGET', key, 'deliveryKey', 'kind', 'payload', 'attempts', 'createdAt',
    'nextAttemptAt', 'lastError')
  if e[1] then
    redis.call('HSET', key, 'leaseToken', ARGV[4], 'workerId', ARGV[3], 'leaseExpiresAt', ARGV[2])
    redis.call('ZADD', KEYS[3], ARGV[2], id)
    return {id, e[1], e[2], e[3], e[4], e[5], e[6], e[7]}
  end
  redis.call('ZREM', KEYS[4], id)
end
return false
`;

// KEYS base, due, leased, all; ARGV id, token, now, hasResult ('1'/'0'), result.
// The token decides, not the expiry: a holder whose lease lapsed may still finish the entry
// until another worker reserves it and the token changes.
const COMPLETE = `
${INT}
local key = KEYS[1] .. 'entry:' .. ARGV[1]
local e = redis.call('HMGET', key, 'leaseToken', 'deliveryKey', 'rememberMs')
if e[1] ~= ARGV[2] then return 0 end
redis.call('DEL', key)
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('ZREM', KEYS[4], ARGV[1])
local dkey = KEYS[1] .. 'delivery:' .. e[2]
redis.call('DEL', dkey)
redis.call('HSET', dkey, 'state', 'done', 'id', ARGV[1],
  'expiresAt', int(tonumber(ARGV[3]) + tonumber(e[3])))
if ARGV[4] == '1' then redis.call('HSET', dkey, 'result', ARGV[5]) end
redis.call('PEXPIRE', dkey, e[3])
return 1
`;

// KEYS base, due, leased; ARGV id, token, atMs, error.
const RETRY = `
local key = KEYS[1] .. 'entry:' .. ARGV[1]
if redis.call('HGET', key, 'leaseToken') ~= ARGV[2] then return 0 end
redis.call('HINCRBY', key, 'attempts', 1)
redis.call('HSET', key, 'nextAttemptAt', ARGV[3], 'lastError', ARGV[4])
redis.call('HDEL', key, 'leaseToken', 'workerId', 'leaseExpiresAt')
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
return 1
`;

// KEYS base, due, leased, all, dead; ARGV id, token, now, error, cap.
// The dead letter is JSON assembled around the stored payload text, which stays untouched.
const FAIL = `
${INT}
local key = KEYS[1] .. 'entry:' .. ARGV[1]
local e = redis.call('HMGET', key, 'leaseToken', 'deliveryKey', 'kind', 'payload', 'attempts',
  'createdAt', 'rememberMs')
if e[1] ~= ARGV[2] then return 0 end
local letter = '{"id":' .. cjson.encode(ARGV[1]) .. ',"deliveryKey":' .. cjson.encode(e[2]) ..
  ',"kind":' .. cjson.encode(e[3]) .. ',"payload":' .. e[4] ..
  ',"attempts":' .. int(tonumber(e[5]) + 1) .. ',"createdAt":' .. e[6] ..
  ',"failedAt":' .. ARGV[3] .. ',"error":' .. cjson.encode(ARGV[4]) .. '}'
redis.call('LPUSH', KEYS[5], letter)
redis.call('LTRIM', KEYS[5], 0, tonumber(ARGV[5]) - 1)
redis.call('DEL', key)
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('ZREM', KEYS[4], ARGV[1])
local dkey = KEYS[1] .. 'delivery:' .. e[2]
redis.call('DEL', dkey)
redis.call('HSET', dkey, 'state', 'failed', 'id', ARGV[1], 'error', ARGV[4],
  'expiresAt', int(tonumber(ARGV[3]) + tonumber(e[7])))
redis.call('PEXPIRE', dkey, e[7])
return 1
`;

// KEYS all, leased; ARGV now.
const STATS = `
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {redis.call('ZCARD', KEYS[1]), oldest[2] or false,
  redis.call('ZCOUNT', KEYS[2], '(' .. ARGV[1], '+inf')}
`;

// Bounds the work one reserve does returning lapsed leases; the rest wait for the next call.
const SWEEP_LIMIT = 100;

/** The outbox in Redis; see the key layout in `redis-stores.ts`. */
export class RedisOutbox implements Outbox {
  readonly #redis: RedisClient;
  readonly #keys: OutboxKeys;
  readonly #now: Clock;
  readonly #deadLetterCap: number;
  readonly #enqueue: RedisScript;
  readonly #reserve: RedisScript;
  readonly #complete: RedisScript;
  readonly #retry: RedisScript;
  readonly #fail: RedisScript;
  readonly #stats: RedisScript;
  readonly #watchers = new Set<() => void>();
  #subscriber: RedisClient | undefined;

  constructor(redis: RedisClient, keys: OutboxKeys, now: Clock, deadLetterCap: number) {
    this.#redis = redis;
    this.#keys = keys;
    this.#now = now;
    this.#deadLetterCap = requireCount(deadLetterCap, 'deadLetterCap');
    this.#enqueue = defineScript(redis, 'servicedeskOutboxEnqueue', 6, ENQUEUE);
    this.#reserve = defineScript(redis, 'servicedeskOutboxReserve', 4, RESERVE);
    this.#complete = defineScript(redis, 'servicedeskOutboxComplete', 4, COMPLETE);
    this.#retry = defineScript(redis, 'servicedeskOutboxRetry', 3, RETRY);
    this.#fail = defineScript(redis, 'servicedeskOutboxFail', 5, FAIL);
    this.#stats = defineScript(redis, 'servicedeskOutboxStats', 2, STATS);
  }

  async enqueue(
    deliveryKey: string,
    kind: string,
    payload: JsonValue,
    opts: EnqueueOptions = {},
  ): Promise<EnqueueOutcome> {
    const now = this.#now();
    const { encoded, rememberMs, runAt, lease } = checkedEnqueue(
      deliveryKey,
      kind,
      payload,
      opts,
      now,
    );
    const op = 'outbox.enqueue';
    const k = this.#keys;
    const reply = replyArray(
      await this.#enqueue(
        op,
        [k.base, k.seq, k.due, k.all, k.delivery(deliveryKey), k.leased],
        [
          deliveryKey,
          kind,
          encoded,
          now,
          runAt,
          rememberMs,
          lease?.leaseToken ?? '',
          lease?.workerId ?? '',
          lease?.leaseExpiresAt ?? '',
          k.enqueued,
        ],
      ),
      op,
    );
    const id = replyString(reply[1], op);
    if (reply[0] === 1) {
      return lease
        ? {
            enqueued: true,
            id,
            reserved: reservedAtEnqueue(id, deliveryKey, kind, encoded, now, runAt, lease),
          }
        : { enqueued: true, id };
    }
    const outcome: EnqueueOutcome = { enqueued: false, id, state: deliveryState(reply[2], op) };
    const result = replyOptionalString(reply[3], op);
    if (result !== undefined) outcome.result = decodeJson(result, 'outbox result');
    const error = replyOptionalString(reply[4], op);
    if (error !== undefined) outcome.error = error;
    return outcome;
  }

  async reserve(workerId: string, leaseMs: number): Promise<ReservedEntry | undefined> {
    requireKey(workerId, 'workerId');
    requireDuration(leaseMs, 'leaseMs');
    const op = 'outbox.reserve';
    const now = this.#now();
    const leaseToken = randomUUID();
    const leaseExpiresAt = now + leaseMs;
    const k = this.#keys;
    const raw = await this.#reserve(
      op,
      [k.base, k.due, k.leased, k.all],
      [now, leaseExpiresAt, workerId, leaseToken, SWEEP_LIMIT],
    );
    if (raw === null || raw === false) return undefined;
    const reply = replyArray(raw, op);
    const entry: ReservedEntry = {
      id: replyString(reply[0], op),
      deliveryKey: replyString(reply[1], op),
      kind: replyString(reply[2], op),
      payload: decodeJson(replyString(reply[3], op), 'outbox payload'),
      attempts: replyNumber(reply[4], op),
      createdAt: replyNumber(reply[5], op),
      nextAttemptAt: replyNumber(reply[6], op),
      leaseToken,
      workerId,
      leaseExpiresAt,
    };
    const lastError = replyOptionalString(reply[7], op);
    if (lastError !== undefined) entry.lastError = lastError;
    return entry;
  }

  async complete(lease: OutboxLease, result?: JsonValue): Promise<boolean> {
    requireKey(lease.id, 'entry id');
    const encoded = result === undefined ? undefined : encodeJson(result, 'outbox result');
    const k = this.#keys;
    const reply = await this.#complete(
      'outbox.complete',
      [k.base, k.due, k.leased, k.all],
      [lease.id, lease.leaseToken, this.#now(), encoded === undefined ? '0' : '1', encoded ?? ''],
    );
    return reply === 1;
  }

  async retryAt(lease: OutboxLease, atMs: number, error: string): Promise<boolean> {
    requireKey(lease.id, 'entry id');
    requireTime(atMs, 'atMs');
    const k = this.#keys;
    const reply = await this.#retry(
      'outbox.retryAt',
      [k.base, k.due, k.leased],
      [lease.id, lease.leaseToken, atMs, error],
    );
    return reply === 1;
  }

  async fail(lease: OutboxLease, error: string): Promise<boolean> {
    requireKey(lease.id, 'entry id');
    const k = this.#keys;
    const reply = await this.#fail(
      'outbox.fail',
      [k.base, k.due, k.leased, k.all, k.dead],
      [lease.id, lease.leaseToken, this.#now(), error, this.#deadLetterCap],
    );
    return reply === 1;
  }

  async stats(now: number = this.#now()): Promise<OutboxStats> {
    requireTime(now, 'now');
    const op = 'outbox.stats';
    const reply = replyArray(await this.#stats(op, [this.#keys.all, this.#keys.leased], [now]), op);
    const oldest = replyOptionalString(reply[1], op);
    return {
      depth: replyNumber(reply[0], op),
      oldestAgeMs: oldest === undefined ? 0 : Math.max(0, now - replyNumber(oldest, op)),
      inFlight: replyNumber(reply[2], op),
    };
  }

  async deadLetters(limit = 100): Promise<DeadLetter[]> {
    requireCount(limit, 'limit');
    const texts = await runCommand('outbox.deadLetters', () =>
      this.#redis.lrange(this.#keys.dead, 0, limit - 1),
    );
    return texts.map(decodeDeadLetter);
  }

  watch(listener: () => void): () => Promise<void> {
    // A wrapper of its own, so one listener watching twice is two watches.
    const watcher = () => listener();
    this.#watchers.add(watcher);
    this.#subscriber ??= this.#subscribe();
    return async () => {
      if (!this.#watchers.delete(watcher) || this.#watchers.size > 0) return;
      const subscriber = this.#subscriber;
      this.#subscriber = undefined;
      await subscriber?.quit().catch(() => subscriber.disconnect());
    };
  }

  #subscribe(): RedisClient {
    // A subscribed connection can run no other command, so it is one of its own; named after
    // its channel so CLIENT LIST tells what it is.
    const redis = this.#redis;
    const channel = this.#keys.enqueued;
    const subscriber: RedisClient =
      redis instanceof Cluster
        ? redis.duplicate()
        : redis.duplicate({ connectionName: `watch:${channel}` });
    // A lost connection only loses wake-ups, which the workers' polling covers. Subscribing on
    // every ready (re)connection also covers a first attempt that failed.
    subscriber.on('error', () => undefined);
    subscriber.on('ready', () => {
      subscriber.subscribe(channel).catch(() => undefined);
    });
    subscriber.on('message', (from: string) => {
      if (from === channel) for (const watcher of this.#watchers) watcher();
    });
    if (subscriber.status === 'wait') subscriber.connect().catch(() => undefined);
    return subscriber;
  }
}

function deliveryState(value: unknown, operation: string): DeliveryState {
  const state = replyString(value, operation);
  if (state === 'pending' || state === 'done' || state === 'failed') return state;
  throw new StoreDataError(`unknown delivery state during ${operation}`);
}

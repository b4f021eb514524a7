/**
 * The outbox in Redis. Every key carries the outbox's hash tag (see `redis-stores.ts`), so each
 * script runs on one Cluster node, and every script is handed each key it touches: entries are
 * fields of one hash, and a delivery record's key comes from the caller (the lease names it).
 * Payloads and results are stored as the JSON text the caller's process wrote and never decoded
 * in Lua, so nothing about them changes on the way through. A dead letter is its entry's fields
 * left in the hash, with its id on the dead list, so it can be read, retried or dropped by id.
 */
import { randomUUID } from 'node:crypto';
import { Cluster } from 'ioredis';
import {
  checkedEnqueue,
  requireCount,
  requireDuration,
  requireKey,
  requireLease,
  requireTime,
  reservedAtEnqueue,
} from './argument-checks.ts';
import { StoreDataError } from './errors.ts';
import { decodeJson, encodeJson } from './json-codec.ts';
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
  AmendOutcome,
  DeadLetter,
  DeadLetterRetry,
  DeliveryRecord,
  DeliveryState,
  EnqueueOptions,
  EnqueueOutcome,
  JsonValue,
  Now,
  Outbox,
  OutboxLease,
  OutboxStats,
  ReservedEntry,
} from './types.ts';

/** The outbox's keys; every one carries the outbox's tag. */
export interface OutboxKeys {
  seq: string;
  due: string;
  leased: string;
  all: string;
  /** One hash holding every entry's fields as `<id>:<field>`. */
  entries: string;
  dead: string;
  /** The Pub/Sub channel new due entries are announced on (a channel, not a key). */
  enqueued: string;
  delivery(deliveryKey: string): string;
}

// Lua 5.1 prints large numbers in exponent form; %d keeps millisecond times exact. An entry's
// fields live in one hash as `<id>:<field>`, so scripts never build a key name; `drop` removes
// every field an entry can have.
const HELPERS = `
local function int(n) return string.format('%d', n) end
local FIELDS = {'deliveryKey', 'kind', 'payload', 'attempts', 'createdAt', 'nextAttemptAt',
  'lastError', 'rememberMs', 'leaseToken', 'workerId', 'leaseExpiresAt', 'failedAt', 'error',
  'version'}
local function fields(id, names)
  local out = {}
  for i, name in ipairs(names) do out[i] = id .. ':' .. name end
  return out
end
local function drop(entries, id) redis.call('HDEL', entries, unpack(fields(id, FIELDS))) end
`;

// KEYS entries, seq, due, all, delivery, leased; ARGV deliveryKey, kind, payload, now, runAt,
// rememberMs, leaseToken, workerId, leaseExpiresAt (the lease three empty without leaseTo), channel.
// The delivery record has no expiry while pending: its key cannot be reused while queued.
// A new entry due now and free is announced on the channel, so idle workers anywhere wake.
const ENQUEUE = `
local d = redis.call('HMGET', KEYS[5], 'state', 'id', 'result', 'error', 'expiresAt')
if d[1] and (not d[5] or tonumber(d[5]) > tonumber(ARGV[4])) then
  return {0, d[2], d[1], d[3], d[4]}
end
local id = string.format('%012d', redis.call('INCR', KEYS[2]))
local f = id .. ':'
redis.call('HSET', KEYS[1], f .. 'deliveryKey', ARGV[1], f .. 'kind', ARGV[2],
  f .. 'payload', ARGV[3], f .. 'attempts', '0', f .. 'createdAt', ARGV[4],
  f .. 'nextAttemptAt', ARGV[5], f .. 'rememberMs', ARGV[6])
if ARGV[7] ~= '' then
  redis.call('HSET', KEYS[1], f .. 'leaseToken', ARGV[7], f .. 'workerId', ARGV[8],
    f .. 'leaseExpiresAt', ARGV[9])
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

// KEYS entries, delivery; ARGV deliveryKey, kind, payload, version. Only an entry no worker
// ever took changes: a lease (lapsed or not) or a counted attempt means it runs, or ran, as it was.
const AMEND = `
local d = redis.call('HMGET', KEYS[2], 'state', 'id')
if d[1] ~= 'pending' then return 'taken' end
local f = d[2] .. ':'
local e = redis.call('HMGET', KEYS[1], f .. 'deliveryKey', f .. 'kind', f .. 'attempts',
  f .. 'leaseToken', f .. 'version')
if e[1] ~= ARGV[1] or e[2] ~= ARGV[2] or e[3] ~= '0' or e[4] then return 'taken' end
if e[5] and e[5] >= ARGV[4] then return 'stale' end
redis.call('HSET', KEYS[1], f .. 'payload', ARGV[3], f .. 'version', ARGV[4])
return 'amended'
`;

// KEYS entries, due, leased, all; ARGV now, leaseExpiresAt, workerId, token, sweepLimit.
// Lapsed leases go back to the due set at their own due time, so they come first.
const RESERVE = `${HELPERS}
local expired = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[5]))
for _, id in ipairs(expired) do
  redis.call('ZREM', KEYS[3], id)
  local at = redis.call('HGET', KEYS[1], id .. ':nextAttemptAt')
  if at then redis.call('ZADD', KEYS[2], at, id) else redis.call('ZREM', KEYS[4], id) end
end
for _ = 1, 100 do
  local id = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[1], 'LIMIT', 0, 1)[1]
  if not id then return false end
  redis.call('ZREM', KEYS[2], id)
  local e = redis.call('HMGET', KEYS[1], unpack(fields(id, {'deliveryKey', 'kind', 'payload',
    'attempts', 'createdAt', 'nextAttemptAt', 'lastError'})))
  if e[1] then
    redis.call('HSET', KEYS[1], id .. ':leaseToken', ARGV[4], id .. ':workerId', ARGV[3],
      id .. ':leaseExpiresAt', ARGV[2])
    redis.call('ZADD', KEYS[3], ARGV[2], id)
    return {id, e[1], e[2], e[3], e[4], e[5], e[6], e[7]}
  end
  redis.call('ZREM', KEYS[4], id)
end
return false
`;

// KEYS entries, due, leased, all, delivery; ARGV id, token, now, hasResult ('1'/'0'), result,
// deliveryKey. The token decides, not the expiry: a holder whose lease lapsed may still finish
// the entry until another worker reserves it and the token changes. The delivery key must be
// the entry's own, or the record of another would change.
const COMPLETE = `${HELPERS}
local e = redis.call('HMGET', KEYS[1], unpack(fields(ARGV[1], {'leaseToken', 'deliveryKey',
  'rememberMs'})))
if e[1] ~= ARGV[2] or e[2] ~= ARGV[6] then return 0 end
drop(KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('ZREM', KEYS[4], ARGV[1])
redis.call('DEL', KEYS[5])
redis.call('HSET', KEYS[5], 'state', 'done', 'id', ARGV[1],
  'expiresAt', int(tonumber(ARGV[3]) + tonumber(e[3])))
if ARGV[4] == '1' then redis.call('HSET', KEYS[5], 'result', ARGV[5]) end
redis.call('PEXPIRE', KEYS[5], e[3])
return 1
`;

// KEYS entries, due, leased; ARGV id, token, atMs, error, deliveryKey.
const RETRY = `${HELPERS}
local e = redis.call('HMGET', KEYS[1], unpack(fields(ARGV[1], {'leaseToken', 'deliveryKey'})))
if e[1] ~= ARGV[2] or e[2] ~= ARGV[5] then return 0 end
redis.call('HINCRBY', KEYS[1], ARGV[1] .. ':attempts', 1)
redis.call('HSET', KEYS[1], ARGV[1] .. ':nextAttemptAt', ARGV[3], ARGV[1] .. ':lastError', ARGV[4])
redis.call('HDEL', KEYS[1], unpack(fields(ARGV[1], {'leaseToken', 'workerId', 'leaseExpiresAt'})))
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
return 1
`;

// KEYS entries, due, leased, all, dead, delivery; ARGV id, token, now, error, cap, deliveryKey.
// The entry's fields stay in the hash as the dead letter; letters pushed out by the cap go.
const FAIL = `${HELPERS}
local e = redis.call('HMGET', KEYS[1], unpack(fields(ARGV[1], {'leaseToken', 'deliveryKey',
  'rememberMs'})))
if e[1] ~= ARGV[2] or e[2] ~= ARGV[6] then return 0 end
redis.call('HINCRBY', KEYS[1], ARGV[1] .. ':attempts', 1)
redis.call('HSET', KEYS[1], ARGV[1] .. ':failedAt', ARGV[3], ARGV[1] .. ':error', ARGV[4])
redis.call('HDEL', KEYS[1], unpack(fields(ARGV[1], {'leaseToken', 'workerId', 'leaseExpiresAt',
  'lastError'})))
redis.call('LPUSH', KEYS[5], ARGV[1])
local cap = tonumber(ARGV[5])
for _, gone in ipairs(redis.call('LRANGE', KEYS[5], cap, -1)) do drop(KEYS[1], gone) end
redis.call('LTRIM', KEYS[5], 0, cap - 1)
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('ZREM', KEYS[4], ARGV[1])
redis.call('DEL', KEYS[6])
redis.call('HSET', KEYS[6], 'state', 'failed', 'id', ARGV[1], 'error', ARGV[4],
  'expiresAt', int(tonumber(ARGV[3]) + tonumber(e[3])))
redis.call('PEXPIRE', KEYS[6], e[3])
return 1
`;

// KEYS all, leased; ARGV now.
const STATS = `
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {redis.call('ZCARD', KEYS[1]), oldest[2] or false,
  redis.call('ZCOUNT', KEYS[2], '(' .. ARGV[1], '+inf')}
`;

// What a dead letter is made of, in the order the scripts return it.
const LETTER = `{'deliveryKey', 'kind', 'payload', 'attempts', 'createdAt', 'failedAt', 'error'}`;

// KEYS entries, dead; ARGV limit. Each letter as its id and LETTER's fields, one after another.
const DEAD_LIST = `${HELPERS}
local out = {}
for _, id in ipairs(redis.call('LRANGE', KEYS[2], 0, tonumber(ARGV[1]) - 1)) do
  out[#out + 1] = id
  for _, v in ipairs(redis.call('HMGET', KEYS[1], unpack(fields(id, ${LETTER})))) do
    out[#out + 1] = v
  end
end
return out
`;

// KEYS entries; ARGV id. LETTER's fields, or false when the entry is not dead.
const DEAD_GET = `${HELPERS}
local e = redis.call('HMGET', KEYS[1], unpack(fields(ARGV[1], ${LETTER})))
if not e[6] then return false end
return e
`;

// KEYS entries, due, all, dead, delivery; ARGV id, now, channel, deliveryKey.
// A delivery record of another entry still remembered means the key was queued anew: retrying
// would do the work twice, so nothing changes.
const DEAD_RETRY = `${HELPERS}
local e = redis.call('HMGET', KEYS[1], unpack(fields(ARGV[1], {'deliveryKey', 'failedAt'})))
if e[1] ~= ARGV[4] or not e[2] then return 'not-found' end
local d = redis.call('HMGET', KEYS[5], 'state', 'id', 'expiresAt')
if d[1] and d[2] ~= ARGV[1] and (not d[3] or tonumber(d[3]) > tonumber(ARGV[2])) then
  return 'superseded'
end
if redis.call('LREM', KEYS[4], 1, ARGV[1]) == 0 then return 'not-found' end
redis.call('HDEL', KEYS[1], unpack(fields(ARGV[1], {'failedAt', 'error', 'lastError'})))
redis.call('HSET', KEYS[1], ARGV[1] .. ':attempts', '0', ARGV[1] .. ':createdAt', ARGV[2],
  ARGV[1] .. ':nextAttemptAt', ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[1])
redis.call('DEL', KEYS[5])
redis.call('HSET', KEYS[5], 'state', 'pending', 'id', ARGV[1])
redis.call('PUBLISH', ARGV[3], ARGV[1])
return 'requeued'
`;

// KEYS entries, dead; ARGV id.
const DEAD_DROP = `${HELPERS}
if redis.call('LREM', KEYS[2], 1, ARGV[1]) == 0 then return 0 end
drop(KEYS[1], ARGV[1])
return 1
`;

// Bounds the work one reserve does returning lapsed leases; the rest wait for the next call.
const SWEEP_LIMIT = 100;

/** The outbox in Redis; see the key layout in `redis-stores.ts`. */
export class RedisOutbox implements Outbox {
  readonly #redis: RedisClient;
  readonly #keys: OutboxKeys;
  readonly #now: Now;
  readonly #deadLetterCap: number;
  readonly #enqueue: RedisScript;
  readonly #amend: RedisScript;
  readonly #reserve: RedisScript;
  readonly #complete: RedisScript;
  readonly #retry: RedisScript;
  readonly #fail: RedisScript;
  readonly #stats: RedisScript;
  readonly #deadList: RedisScript;
  readonly #deadGet: RedisScript;
  readonly #deadRetry: RedisScript;
  readonly #deadDrop: RedisScript;
  readonly #watchers = new Set<() => void>();
  #subscriber: RedisClient | undefined;

  constructor(redis: RedisClient, keys: OutboxKeys, now: Now, deadLetterCap: number) {
    this.#redis = redis;
    this.#keys = keys;
    this.#now = now;
    this.#deadLetterCap = requireCount(deadLetterCap, 'deadLetterCap');
    this.#enqueue = defineScript(redis, 'servicedeskOutboxEnqueue', 6, ENQUEUE);
    this.#amend = defineScript(redis, 'servicedeskOutboxAmend', 2, AMEND);
    this.#reserve = defineScript(redis, 'servicedeskOutboxReserve', 4, RESERVE);
    this.#complete = defineScript(redis, 'servicedeskOutboxComplete', 5, COMPLETE);
    this.#retry = defineScript(redis, 'servicedeskOutboxRetry', 3, RETRY);
    this.#fail = defineScript(redis, 'servicedeskOutboxFail', 6, FAIL);
    this.#stats = defineScript(redis, 'servicedeskOutboxStats', 2, STATS);
    this.#deadList = defineScript(redis, 'servicedeskOutboxDeadList', 2, DEAD_LIST);
    this.#deadGet = defineScript(redis, 'servicedeskOutboxDeadGet', 1, DEAD_GET);
    this.#deadRetry = defineScript(redis, 'servicedeskOutboxDeadRetry', 5, DEAD_RETRY);
    this.#deadDrop = defineScript(redis, 'servicedeskOutboxDeadDrop', 2, DEAD_DROP);
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
        [k.entries, k.seq, k.due, k.all, k.delivery(deliveryKey), k.leased],
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

  async amend(
    deliveryKey: string,
    kind: string,
    payload: JsonValue,
    version: string,
  ): Promise<AmendOutcome> {
    requireKey(deliveryKey, 'delivery key');
    requireKey(kind, 'kind');
    requireKey(version, 'version');
    const op = 'outbox.amend';
    const k = this.#keys;
    const reply = replyString(
      await this.#amend(
        op,
        [k.entries, k.delivery(deliveryKey)],
        [deliveryKey, kind, encodeJson(payload, 'outbox payload'), version],
      ),
      op,
    );
    if (reply === 'amended' || reply === 'stale' || reply === 'taken') return reply;
    throw new StoreDataError(`unexpected reply from Redis during ${op}`);
  }

  async delivery(deliveryKey: string): Promise<DeliveryRecord | undefined> {
    requireKey(deliveryKey, 'delivery key');
    const op = 'outbox.delivery';
    const [state, result, error, expiresAt] = await runCommand(op, () =>
      this.#redis.hmget(this.#keys.delivery(deliveryKey), 'state', 'result', 'error', 'expiresAt'),
    );
    if (!state || (expiresAt && Number(expiresAt) <= this.#now())) return undefined;
    const record: DeliveryRecord = { state: deliveryState(state, op) };
    if (result) record.result = decodeJson(result, 'outbox result');
    if (error) record.error = error;
    return record;
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
      [k.entries, k.due, k.leased, k.all],
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
    requireLease(lease);
    const encoded = result === undefined ? undefined : encodeJson(result, 'outbox result');
    const k = this.#keys;
    const reply = await this.#complete(
      'outbox.complete',
      [k.entries, k.due, k.leased, k.all, k.delivery(lease.deliveryKey)],
      [
        lease.id,
        lease.leaseToken,
        this.#now(),
        encoded === undefined ? '0' : '1',
        encoded ?? '',
        lease.deliveryKey,
      ],
    );
    return reply === 1;
  }

  async retryAt(lease: OutboxLease, atMs: number, error: string): Promise<boolean> {
    requireLease(lease);
    requireTime(atMs, 'atMs');
    const k = this.#keys;
    const reply = await this.#retry(
      'outbox.retryAt',
      [k.entries, k.due, k.leased],
      [lease.id, lease.leaseToken, atMs, error, lease.deliveryKey],
    );
    return reply === 1;
  }

  async fail(lease: OutboxLease, error: string): Promise<boolean> {
    requireLease(lease);
    const k = this.#keys;
    const reply = await this.#fail(
      'outbox.fail',
      [k.entries, k.due, k.leased, k.all, k.dead, k.delivery(lease.deliveryKey)],
      [lease.id, lease.leaseToken, this.#now(), error, this.#deadLetterCap, lease.deliveryKey],
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
    const op = 'outbox.deadLetters';
    const k = this.#keys;
    const reply = replyArray(await this.#deadList(op, [k.entries, k.dead], [limit]), op);
    const letters: DeadLetter[] = [];
    for (let i = 0; i + LETTER_FIELDS < reply.length; i += LETTER_FIELDS + 1) {
      letters.push(
        deadLetterOf(replyString(reply[i], op), reply.slice(i + 1, i + 1 + LETTER_FIELDS), op),
      );
    }
    return letters;
  }

  async deadLetter(id: string): Promise<DeadLetter | undefined> {
    requireKey(id, 'entry id');
    const op = 'outbox.deadLetter';
    const raw = await this.#deadGet(op, [this.#keys.entries], [id]);
    if (raw === null || raw === false) return undefined;
    return deadLetterOf(id, replyArray(raw, op), op);
  }

  async retryDeadLetter(id: string): Promise<DeadLetterRetry> {
    requireKey(id, 'entry id');
    const op = 'outbox.retryDeadLetter';
    const k = this.#keys;
    // The script must be told the delivery key's record, so it is read first; an entry's
    // delivery key never changes, and the script checks it is still a dead letter.
    const deliveryKey = await runCommand(op, () =>
      this.#redis.hget(k.entries, `${id}:deliveryKey`),
    );
    if (deliveryKey === null) return 'not-found';
    const reply = replyString(
      await this.#deadRetry(
        op,
        [k.entries, k.due, k.all, k.dead, k.delivery(deliveryKey)],
        [id, this.#now(), k.enqueued, deliveryKey],
      ),
      op,
    );
    if (reply === 'requeued' || reply === 'not-found' || reply === 'superseded') return reply;
    throw new StoreDataError(`unexpected reply from Redis during ${op}`);
  }

  async dropDeadLetter(id: string): Promise<boolean> {
    requireKey(id, 'entry id');
    const k = this.#keys;
    return (await this.#deadDrop('outbox.dropDeadLetter', [k.entries, k.dead], [id])) === 1;
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
    // its channel so CLIENT LIST tells what it is (a Cluster's subscriber connection gets
    // `ioredis-cluster(subscriber):` before the name). On a Cluster it subscribes on one node,
    // and Redis passes every node's PUBLISH to it over the cluster bus.
    const redis = this.#redis;
    const channel = this.#keys.enqueued;
    const connectionName = `watch:${channel}`;
    const subscriber: RedisClient =
      redis instanceof Cluster
        ? redis.duplicate([], { redisOptions: { connectionName } })
        : redis.duplicate({ connectionName });
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

// The fields of LETTER in the scripts.
const LETTER_FIELDS = 7;

function deadLetterOf(id: string, fields: unknown[], operation: string): DeadLetter {
  const [deliveryKey, kind, payload, attempts, createdAt, failedAt, error] = fields;
  return {
    id,
    deliveryKey: replyString(deliveryKey, operation),
    kind: replyString(kind, operation),
    payload: decodeJson(replyString(payload, operation), 'outbox payload'),
    attempts: replyNumber(attempts, operation),
    createdAt: replyNumber(createdAt, operation),
    failedAt: replyNumber(failedAt, operation),
    error: replyString(error, operation),
  };
}

function deliveryState(value: unknown, operation: string): DeliveryState {
  const state = replyString(value, operation);
  if (state === 'pending' || state === 'done' || state === 'failed') return state;
  throw new StoreDataError(`unknown delivery state during ${operation}`);
}

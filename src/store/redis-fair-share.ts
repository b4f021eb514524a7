/**
 * People's fair share in Redis, shared by every replica: one hash per person (`at` and the
 * tokens of each bucket as `t1`, `t2`...) decided and written by one script, so two replicas
 * can never both spend a person's last token; and one string per kept read (JSON of the value,
 * when it was kept and when it expires by the caller's clock; PX reclaims the memory).
 */
import { requireDuration, requireKey } from './argument-checks.ts';
import { StoreDataError } from './errors.ts';
import { bucketsTtlMs, checkBuckets, checkPerson } from './fair-share-rules.ts';
import { decodeJson, encodeJson } from './json-codec.ts';
import type { RedisClient, RedisScript } from './redis-script.ts';
import { defineScript, replyArray, replyNumber, runCommand } from './redis-script.ts';
import type {
  FairShareBucket,
  FairShareGrant,
  FairShareStore,
  JsonValue,
  KeptRead,
  Now,
} from './types.ts';

/** The fair share's keys: a person's buckets and a kept read, each its own hash tag. */
export interface FairShareKeys {
  person(person: string): string;
  read(key: string): string;
}

// KEYS person; ARGV now, ttlMs, then capacity and refillEveryMs of each bucket. The same
// arithmetic as `takeFrom` in fair-share-rules.ts: a missing bucket is full, a refusal writes
// nothing. Tokens are fractions; Lua's doubles keep them exactly enough.
const TAKE = `
local now = tonumber(ARGV[1])
local n = (#ARGV - 2) / 2
local fields = {'at'}
for i = 1, n do fields[i + 1] = 't' .. i end
local held = redis.call('HMGET', KEYS[1], unpack(fields))
local at = tonumber(held[1])
local elapsed = 0
if at and now > at then elapsed = now - at end
local tokens = {}
local retry = 0
for i = 1, n do
  local cap = tonumber(ARGV[1 + 2 * i])
  local every = tonumber(ARGV[2 + 2 * i])
  local t = tonumber(held[i + 1])
  if t == nil or at == nil then t = cap else t = math.min(cap, t + elapsed / every) end
  tokens[i] = t
  local short = 1 - t
  if short > 0 then
    local at_least = now + math.ceil(short * every)
    if at_least > retry then retry = at_least end
  end
end
if retry > 0 then return {0, retry} end
local set = {'at', ARGV[1]}
for i = 1, n do
  set[#set + 1] = 't' .. i
  set[#set + 1] = string.format('%.17g', tokens[i] - 1)
end
redis.call('HSET', KEYS[1], unpack(set))
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return {1}
`;

/** The fair share in Redis; see the key layout in `redis-stores.ts`. */
export class RedisFairShareStore implements FairShareStore {
  readonly #redis: RedisClient;
  readonly #keys: FairShareKeys;
  readonly #now: Now;
  readonly #take: RedisScript;

  constructor(redis: RedisClient, keys: FairShareKeys, now: Now) {
    this.#redis = redis;
    this.#keys = keys;
    this.#now = now;
    this.#take = defineScript(redis, 'servicedeskFairShareTake', 1, TAKE);
  }

  async take(person: string, buckets: readonly FairShareBucket[]): Promise<FairShareGrant> {
    checkPerson(person);
    checkBuckets(buckets);
    const op = 'fairShare.take';
    const reply = replyArray(
      await this.#take(
        op,
        [this.#keys.person(person)],
        [
          this.#now(),
          bucketsTtlMs(buckets),
          ...buckets.flatMap((b) => [b.capacity, b.refillEveryMs]),
        ],
      ),
      op,
    );
    if (replyNumber(reply[0], op) === 1) return { granted: true };
    return { granted: false, retryAt: replyNumber(reply[1], op) };
  }

  async recall(key: string): Promise<KeptRead | undefined> {
    requireKey(key, 'read key');
    const text = await runCommand('fairShare.recall', () => this.#redis.get(this.#keys.read(key)));
    if (text === null) return undefined;
    const kept = decodeJson(text, 'kept read');
    if (
      typeof kept !== 'object' ||
      kept === null ||
      Array.isArray(kept) ||
      typeof kept.keptAt !== 'number' ||
      typeof kept.expiresAt !== 'number' ||
      !('value' in kept)
    ) {
      throw new StoreDataError('stored kept read is not {value, keptAt, expiresAt}');
    }
    // Expiry by the caller's clock, as claims decide theirs; PX only reclaims the memory.
    if (kept.expiresAt <= this.#now()) return undefined;
    return { value: kept.value as JsonValue, keptAt: kept.keptAt };
  }

  async keep(key: string, value: JsonValue, ttlMs: number): Promise<void> {
    requireKey(key, 'read key');
    requireDuration(ttlMs, 'ttlMs');
    const now = this.#now();
    const text = encodeJson({ value, keptAt: now, expiresAt: now + ttlMs }, 'kept read');
    await runCommand('fairShare.keep', () =>
      this.#redis.set(this.#keys.read(key), text, 'PX', ttlMs),
    );
  }
}

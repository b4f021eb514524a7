/**
 * Delivery claims in Redis: one hash per key (`state`, `token`, `expiresAt`, `result`). Expiry
 * is decided by comparing `expiresAt` with the caller's clock, so every replica and every test
 * agrees on it; PEXPIRE with the same duration only reclaims the memory afterwards.
 */
import { randomUUID } from 'node:crypto';
import { requireDuration, requireKey } from './argument-checks.ts';
import { StoreDataError } from './errors.ts';
import { doneWithResult, encodeJson } from './json-codec.ts';
import type { RedisClient, RedisScript } from './redis-script.ts';
import {
  defineScript,
  replyArray,
  replyOptionalString,
  replyString,
  runCommand,
} from './redis-script.ts';
import type { ClaimOutcome, ClaimRecord, ClaimStore, JsonValue, Now } from './types.ts';
import { DAY_MS } from './types.ts';

// KEYS[1] claim; ARGV now, leaseMs, token, expiresAt.
const CLAIM = `
local rec = redis.call('HMGET', KEYS[1], 'state', 'expiresAt', 'result')
if rec[1] and (tonumber(rec[2]) or 0) > tonumber(ARGV[1]) then
  if rec[1] == 'done' then return {'done', rec[3]} end
  return {'busy'}
end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'state', 'leased', 'token', ARGV[3], 'expiresAt', ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return {'claimed'}
`;

// KEYS[1] claim; ARGV now, token, expiresAt, ttlMs, hasResult ('1'/'0'), result.
const COMPLETE = `
local rec = redis.call('HMGET', KEYS[1], 'state', 'token', 'expiresAt')
if rec[1] and (tonumber(rec[3]) or 0) > tonumber(ARGV[1]) then
  if rec[1] == 'done' or rec[2] ~= ARGV[2] then return 0 end
end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'state', 'done', 'expiresAt', ARGV[3])
if ARGV[5] == '1' then redis.call('HSET', KEYS[1], 'result', ARGV[6]) end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1
`;

// KEYS[1] claim; ARGV token. A lapsed lease may still be released by its own holder: nobody
// else holds it, or the token would differ.
const RELEASE = `
local rec = redis.call('HMGET', KEYS[1], 'state', 'token')
if rec[1] ~= 'leased' or rec[2] ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
return 1
`;

/** Claims in Redis; see the key layout in `redis-stores.ts`. */
export class RedisClaimStore implements ClaimStore {
  readonly #redis: RedisClient;
  readonly #keyFor: (key: string) => string;
  readonly #now: Now;
  readonly #claim: RedisScript;
  readonly #complete: RedisScript;
  readonly #release: RedisScript;

  constructor(redis: RedisClient, keyFor: (key: string) => string, now: Now) {
    this.#redis = redis;
    this.#keyFor = keyFor;
    this.#now = now;
    this.#claim = defineScript(redis, 'servicedeskClaimsClaim', 1, CLAIM);
    this.#complete = defineScript(redis, 'servicedeskClaimsComplete', 1, COMPLETE);
    this.#release = defineScript(redis, 'servicedeskClaimsRelease', 1, RELEASE);
  }

  async claim(key: string, leaseMs: number): Promise<ClaimOutcome> {
    requireKey(key, 'claim key');
    requireDuration(leaseMs, 'leaseMs');
    const op = 'claims.claim';
    const now = this.#now();
    const token = randomUUID();
    const reply = replyArray(
      await this.#claim(op, [this.#keyFor(key)], [now, leaseMs, token, now + leaseMs]),
      op,
    );
    const state = replyString(reply[0], op);
    if (state === 'claimed') return { state, token };
    if (state === 'busy') return { state };
    return doneWithResult(replyOptionalString(reply[1], op), 'claim result');
  }

  async complete(key: string, token: string, result?: JsonValue, ttlMs = DAY_MS): Promise<boolean> {
    requireKey(key, 'claim key');
    requireDuration(ttlMs, 'ttlMs');
    const encoded = result === undefined ? undefined : encodeJson(result, 'claim result');
    const now = this.#now();
    const reply = await this.#complete(
      'claims.complete',
      [this.#keyFor(key)],
      [now, token, now + ttlMs, ttlMs, encoded === undefined ? '0' : '1', encoded ?? ''],
    );
    return reply === 1;
  }

  async get(key: string): Promise<ClaimRecord | undefined> {
    requireKey(key, 'claim key');
    const op = 'claims.get';
    const [state, expiresAt, result] = await runCommand(op, () =>
      this.#redis.hmget(this.#keyFor(key), 'state', 'expiresAt', 'result'),
    );
    if (!state || Number(expiresAt) <= this.#now()) return undefined;
    if (state === 'leased') return { state };
    if (state !== 'done') throw new StoreDataError(`unknown claim state during ${op}`);
    return doneWithResult(result ?? undefined, 'claim result');
  }

  async release(key: string, token: string): Promise<boolean> {
    requireKey(key, 'claim key');
    return (await this.#release('claims.release', [this.#keyFor(key)], [token])) === 1;
  }
}

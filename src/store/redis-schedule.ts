/**
 * The poll schedule in Redis: a sorted set of tickets by due time, a hash of the live claims
 * (`token|expiresAt|pending`) and a hash of holds (ticket -> no look before, ms). A claimed
 * ticket's score is its claim's expiry, so a crashed poller's ticket simply comes due again;
 * `pending` keeps a hint that arrived during the claim until the holder reschedules; a hold
 * (Slack's Retry-After on a post) keeps every later ask at or after it until it passes. The
 * keys carry the `{poll}` tag because a claim touches many tickets in one script.
 */
import { randomUUID } from 'node:crypto';
import { requireCount, requireDuration, requireKey, requireTime } from './argument-checks.ts';
import type { RedisClient, RedisScript } from './redis-script.ts';
import { defineScript, replyArray, replyNumber, replyString, runCommand } from './redis-script.ts';
import type { Now, PollClaim, PollSchedule, ScheduledPoll } from './types.ts';

/** The schedule's keys; each carries the `{poll}` tag. */
export interface ScheduleKeys {
  due: string;
  leases: string;
  holds: string;
}

const PARSE_LEASE = `
local function parse_lease(value)
  if not value then return nil end
  local token, exp, pending = string.match(value, '^([^|]*)|([^|]*)|(.*)$')
  return token, tonumber(exp), tonumber(pending)
end
`;

// The time a look asked for may come: not before the ticket's hold (KEYS[3]) while it lasts.
const HELD = `
local function held(ticket, at, now)
  local hold = tonumber(redis.call('HGET', KEYS[3], ticket))
  if not hold then return at end
  if hold <= now then
    redis.call('HDEL', KEYS[3], ticket)
    return at
  end
  if at < hold then return hold end
  return at
end
`;

// KEYS due, leases, holds; ARGV ticket, at, now.
const POLL_AT = `${PARSE_LEASE}${HELD}
local token, exp, pending = parse_lease(redis.call('HGET', KEYS[2], ARGV[1]))
local at = held(ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]))
local atText = string.format('%d', at)
if token and exp > tonumber(ARGV[3]) then
  if not pending or at < pending then
    redis.call('HSET', KEYS[2], ARGV[1], token .. '|' .. string.format('%d', exp) .. '|' .. atText)
  end
  return 1
end
local score = tonumber(redis.call('ZSCORE', KEYS[1], ARGV[1]))
if not score or at < score then redis.call('ZADD', KEYS[1], atText, ARGV[1]) end
return 1
`;

// KEYS due, leases; ARGV now, limit, expiresAt, tokenBase.
const CLAIM_DUE = `${PARSE_LEASE}
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'WITHSCORES', 'LIMIT', 0, ARGV[2])
local out = {}
for i = 1, #due, 2 do
  local id = due[i]
  local token = ARGV[4] .. ':' .. ((i + 1) / 2)
  local _, _, pending = parse_lease(redis.call('HGET', KEYS[2], id))
  local kept = ''
  if pending then kept = string.format('%d', pending) end
  redis.call('HSET', KEYS[2], id, token .. '|' .. ARGV[3] .. '|' .. kept)
  redis.call('ZADD', KEYS[1], ARGV[3], id)
  out[#out + 1] = id
  out[#out + 1] = token
  out[#out + 1] = due[i + 1]
end
return out
`;

// KEYS due, leases, holds; ARGV ticket, token, at, notBefore ('' for none), now.
const RESCHEDULE = `${PARSE_LEASE}${HELD}
local token, _, pending = parse_lease(redis.call('HGET', KEYS[2], ARGV[1]))
if token ~= ARGV[2] then return 0 end
local at = tonumber(ARGV[3])
if pending and pending < at then at = pending end
local notBefore = tonumber(ARGV[4])
if notBefore then
  local hold = tonumber(redis.call('HGET', KEYS[3], ARGV[1]))
  if not hold or notBefore > hold then redis.call('HSET', KEYS[3], ARGV[1], ARGV[4]) end
end
at = held(ARGV[1], at, tonumber(ARGV[5]))
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('ZADD', KEYS[1], string.format('%d', at), ARGV[1])
return 1
`;

// KEYS due, leases, holds; ARGV ticket, token ('' removes whatever holds the ticket), now.
const REMOVE = `${PARSE_LEASE}${HELD}
if ARGV[2] ~= '' then
  local token, _, pending = parse_lease(redis.call('HGET', KEYS[2], ARGV[1]))
  if token ~= ARGV[2] then return 0 end
  if pending then
    redis.call('HDEL', KEYS[2], ARGV[1])
    local at = held(ARGV[1], pending, tonumber(ARGV[3]))
    redis.call('ZADD', KEYS[1], string.format('%d', at), ARGV[1])
    return 0
  end
end
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
return redis.call('ZREM', KEYS[1], ARGV[1])
`;

// KEYS due, leases; ARGV until, limit, now. A ticket under a live claim is left out; the due
// set is read in slices until `limit` unclaimed ones are found.
const DUE_WITHIN = `${PARSE_LEASE}
local limit = tonumber(ARGV[2])
local out = {}
local offset = 0
while #out < 2 * limit do
  local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'WITHSCORES', 'LIMIT', offset, limit)
  if #due == 0 then break end
  for i = 1, #due, 2 do
    local token, exp = parse_lease(redis.call('HGET', KEYS[2], due[i]))
    if not (token and exp > tonumber(ARGV[3])) and #out < 2 * limit then
      out[#out + 1] = due[i]
      out[#out + 1] = due[i + 1]
    end
  end
  offset = offset + #due / 2
end
return out
`;

// KEYS due, leases; ARGV ticket, dueAt, at. Any lease, even a lapsed one, may carry a hint the
// next holder must apply, so a ticket with one is left alone.
const POSTPONE = `
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then return 0 end
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score or tonumber(score) ~= tonumber(ARGV[2]) then return 0 end
if tonumber(ARGV[3]) <= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
return 1
`;

/** The poll schedule in Redis; see the key layout in `redis-stores.ts`. */
export class RedisPollSchedule implements PollSchedule {
  readonly #redis: RedisClient;
  readonly #keys: ScheduleKeys;
  readonly #now: Now;
  readonly #pollAt: RedisScript;
  readonly #claimDue: RedisScript;
  readonly #reschedule: RedisScript;
  readonly #remove: RedisScript;
  readonly #dueWithin: RedisScript;
  readonly #postpone: RedisScript;

  constructor(redis: RedisClient, keys: ScheduleKeys, now: Now) {
    this.#redis = redis;
    this.#keys = keys;
    this.#now = now;
    this.#pollAt = defineScript(redis, 'servicedeskSchedulePollAt', 3, POLL_AT);
    this.#claimDue = defineScript(redis, 'servicedeskScheduleClaimDue', 2, CLAIM_DUE);
    this.#reschedule = defineScript(redis, 'servicedeskScheduleReschedule', 3, RESCHEDULE);
    this.#remove = defineScript(redis, 'servicedeskScheduleRemove', 3, REMOVE);
    this.#dueWithin = defineScript(redis, 'servicedeskScheduleDueWithin', 2, DUE_WITHIN);
    this.#postpone = defineScript(redis, 'servicedeskSchedulePostpone', 2, POSTPONE);
  }

  async pollAt(ticketId: string, atMs: number): Promise<void> {
    requireKey(ticketId, 'ticket ID');
    const at = requireTime(Math.floor(atMs), 'atMs');
    await this.#pollAt('schedule.pollAt', this.#all(), [ticketId, at, this.#now()]);
  }

  async claimDue(limit: number, leaseMs: number): Promise<PollClaim[]> {
    requireCount(limit, 'limit');
    requireDuration(leaseMs, 'leaseMs');
    const op = 'schedule.claimDue';
    const now = this.#now();
    const expiresAt = now + leaseMs;
    const reply = replyArray(
      await this.#claimDue(op, this.#both(), [now, limit, expiresAt, randomUUID()]),
      op,
    );
    const claims: PollClaim[] = [];
    for (let i = 0; i + 2 < reply.length; i += 3) {
      claims.push({
        ticketId: replyString(reply[i], op),
        token: replyString(reply[i + 1], op),
        dueAt: replyNumber(reply[i + 2], op),
        leaseExpiresAt: expiresAt,
      });
    }
    return claims;
  }

  async reschedule(claim: PollClaim, atMs: number, notBeforeMs?: number): Promise<boolean> {
    const at = requireTime(Math.floor(atMs), 'atMs');
    const notBefore =
      notBeforeMs === undefined ? '' : requireTime(Math.floor(notBeforeMs), 'notBeforeMs');
    const reply = await this.#reschedule('schedule.reschedule', this.#all(), [
      claim.ticketId,
      claim.token,
      at,
      notBefore,
      this.#now(),
    ]);
    return reply === 1;
  }

  async remove(ticketId: string, claim?: PollClaim): Promise<boolean> {
    requireKey(ticketId, 'ticket ID');
    const reply = await this.#remove('schedule.remove', this.#all(), [
      ticketId,
      claim?.token ?? '',
      this.#now(),
    ]);
    return reply === 1;
  }

  async dueAt(ticketId: string): Promise<number | undefined> {
    requireKey(ticketId, 'ticket ID');
    const score = await runCommand('schedule.dueAt', () =>
      this.#redis.zscore(this.#keys.due, ticketId),
    );
    return score === null ? undefined : Number(score);
  }

  async nextDueAt(): Promise<number | undefined> {
    const first = await runCommand('schedule.nextDueAt', () =>
      this.#redis.zrange(this.#keys.due, '0', '0', 'WITHSCORES'),
    );
    return first[1] === undefined ? undefined : Number(first[1]);
  }

  async size(): Promise<number> {
    return runCommand('schedule.size', () => this.#redis.zcard(this.#keys.due));
  }

  async dueWithin(untilMs: number, limit: number): Promise<ScheduledPoll[]> {
    const until = requireTime(Math.floor(untilMs), 'untilMs');
    requireCount(limit, 'limit');
    const op = 'schedule.dueWithin';
    const reply = replyArray(
      await this.#dueWithin(op, this.#both(), [until, limit, this.#now()]),
      op,
    );
    const polls: ScheduledPoll[] = [];
    for (let i = 0; i + 1 < reply.length; i += 2) {
      polls.push({ ticketId: replyString(reply[i], op), dueAt: replyNumber(reply[i + 1], op) });
    }
    return polls;
  }

  async postpone(ticketId: string, dueAt: number, atMs: number): Promise<boolean> {
    requireKey(ticketId, 'ticket ID');
    requireTime(dueAt, 'dueAt');
    const at = requireTime(Math.floor(atMs), 'atMs');
    const reply = await this.#postpone('schedule.postpone', this.#both(), [ticketId, dueAt, at]);
    return reply === 1;
  }

  #both(): string[] {
    return [this.#keys.due, this.#keys.leases];
  }

  #all(): string[] {
    return [this.#keys.due, this.#keys.leases, this.#keys.holds];
  }
}

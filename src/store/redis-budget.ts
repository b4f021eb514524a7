/**
 * The rate budget in Redis, shared by every replica: a sorted set of request times (a rolling
 * log, so both windows are exact) and a hash with what the platform's headers said and the
 * back-off after a 429. One script decides and records a take, so two replicas can never both
 * take the last request of a window.
 */
import { randomUUID } from 'node:crypto';
import { requireTime } from './argument-checks.ts';
import {
  allowance,
  HOUR_MS,
  isPressed,
  isUsableObservation,
  MINUTE_MS,
  observedWindow,
  PEOPLE_RECENT_MS,
  PRESSED_MS,
} from './rate-budget-rules.ts';
import type { RedisClient, RedisScript } from './redis-script.ts';
import { defineScript, replyArray, replyNumber, replyString } from './redis-script.ts';
import type {
  BudgetGrant,
  BudgetPriority,
  BudgetUsage,
  Now,
  RateBudget,
  RateBudgetLimits,
  RateLimitObservation,
} from './types.ts';

/** The budget's keys; both carry the `{budget}` tag. */
export interface BudgetKeys {
  log: string;
  state: string;
}

// Kept a little longer than the windows they serve, so an idle budget cleans itself up.
const LOG_TTL_MS = HOUR_MS + MINUTE_MS;
const STATE_TTL_MS = 2 * HOUR_MS;

// The platform's view of one window, as the count it implies for this budget's limit: what it
// had counted when the response was read, plus every request taken since (from that very
// millisecond on, so a request is rather counted twice than not at all). Times arrive as
// strings and are compared as numbers; 13-digit ms are exact in Lua's doubles.
const SERVER_USED = `
local function server_used(limit, rem, at, reset, now)
  rem = tonumber(rem); reset = tonumber(reset)
  if not rem or not reset or reset <= now then return -1, 0 end
  return limit - rem + redis.call('ZCOUNT', KEYS[1], at, '+inf'), reset
end
`;

// KEYS log, state; ARGV now, allowMinute, allowHour, perMinute, perHour, minuteFloor, hourFloor,
// member, then for background takes: ownMinute, ownHour (the cap on background entries, ':b:'),
// pressedMinute, pressedHour (everyone's count while people are pressed), pressedFloor (a
// person's refusal after it presses them) and pressedPeople (people's own count in the hour
// that presses them, or a tenth of it in the recent window), recentFloor; for interactive ones,
// '' for those and a refusal records when people were pressed. While they are, background's own
// hour also stops where people's projected hour still fits under the pressed cap
// (`pressedOwnHour`).
const TAKE = `${SERVER_USED}
local now = tonumber(ARGV[1])
local st = redis.call('HMGET', KEYS[2], 'blockedUntil',
  'minuteRemaining', 'minuteObservedAt', 'minuteResetAt',
  'hourRemaining', 'hourObservedAt', 'hourResetAt')
local blocked = tonumber(st[1]) or 0
if blocked > now then return {0, st[1], 'backoff'} end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[7])
local function window(allow, limit, floor, span, rem, at, reset)
  local localCount = redis.call('ZCOUNT', KEYS[1], '(' .. floor, '+inf')
  local used, resetAt = server_used(limit, rem, at, reset, now)
  local release = 0
  local isBlocked = false
  if localCount >= allow then
    local e = redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. floor, '+inf', 'WITHSCORES',
      'LIMIT', localCount - allow, 1)
    release = tonumber(e[2]) + span
    isBlocked = true
  end
  if used >= allow then
    if resetAt > release then release = resetAt end
    isBlocked = true
  end
  return isBlocked, release
end
-- Also counts the background entries after ARGV[15] (the recent window), for the hour's call.
local function own(allow, floor, span)
  if not allow then return false, 0, 0, 0, {} end
  local e = redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. floor, '+inf', 'WITHSCORES')
  local times = {}
  local recent = 0
  for i = 1, #e, 2 do
    if string.find(e[i], ':b:', 1, true) then
      local at = tonumber(e[i + 1])
      times[#times + 1] = at
      if at > tonumber(ARGV[15]) then recent = recent + 1 end
    end
  end
  if #times < allow then return false, 0, #times, recent, times end
  return true, times[#times - allow + 1] + span, #times, recent, times
end
local omBlocked, omRelease = own(tonumber(ARGV[9]), ARGV[6], ${MINUTE_MS})
local ohBlocked, ohRelease, ohCount, recentBackground, ohTimes =
  own(tonumber(ARGV[10]), ARGV[7], ${HOUR_MS})
local pressed = false
if ARGV[13] ~= '' then
  local pressedAt = tonumber(redis.call('HGET', KEYS[2], 'peoplePressedAt')) or 0
  local people = redis.call('ZCOUNT', KEYS[1], '(' .. ARGV[7], '+inf') - ohCount
  local recentPeople = redis.call('ZCOUNT', KEYS[1], '(' .. ARGV[15], '+inf') - recentBackground
  local peopleHour = tonumber(ARGV[14])
  local projected = math.max(people, recentPeople * ${HOUR_MS / PEOPLE_RECENT_MS})
  pressed = pressedAt > tonumber(ARGV[13]) or projected >= peopleHour
  if pressed then
    -- pressedOwnHour: background's own hour leaves people's projected hour under the cap.
    local ownAllow = math.max(1, math.min(tonumber(ARGV[10]), tonumber(ARGV[12]) - projected))
    if ohCount >= ownAllow then
      local release = ohTimes[ohCount - ownAllow + 1] + ${HOUR_MS}
      ohBlocked = true
      if release > ohRelease then ohRelease = release end
    end
  end
end
local function cap(allow, pressedAllow)
  if pressed and pressedAllow then return pressedAllow end
  return allow
end
local mBlocked, mRelease = window(cap(tonumber(ARGV[2]), tonumber(ARGV[11])),
  tonumber(ARGV[4]), ARGV[6], ${MINUTE_MS}, st[2], st[3], st[4])
local hBlocked, hRelease = window(cap(tonumber(ARGV[3]), tonumber(ARGV[12])),
  tonumber(ARGV[5]), ARGV[7], ${HOUR_MS}, st[5], st[6], st[7])
if omBlocked then mBlocked = true; if omRelease > mRelease then mRelease = omRelease end end
if ohBlocked then hBlocked = true; if ohRelease > hRelease then hRelease = ohRelease end end
if mBlocked or hBlocked then
  local retry = 0
  if mBlocked then retry = mRelease end
  if hBlocked and hRelease > retry then retry = hRelease end
  if retry <= now then retry = now + 1 end
  if ARGV[9] == '' then
    redis.call('HSET', KEYS[2], 'peoplePressedAt', ARGV[1])
    redis.call('PEXPIRE', KEYS[2], ${STATE_TTL_MS})
  end
  return {0, tostring(retry), 'window'}
end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[8])
redis.call('PEXPIRE', KEYS[1], ${LOG_TTL_MS})
return {1}
`;

// KEYS log, state; ARGV now, window ('minute'|'hour'), remaining, observedAt, resetAt.
const OBSERVE = `
local now = tonumber(ARGV[1])
local w = ARGV[2]
local reset = tonumber(ARGV[5])
if reset <= now then return 0 end
local cur = redis.call('HMGET', KEYS[2], w .. 'Remaining', w .. 'ObservedAt', w .. 'ResetAt')
local curReset = tonumber(cur[3])
if curReset and curReset > now then
  if reset < curReset then return 0 end
  if reset == curReset then
    local curEff = tonumber(cur[1]) - redis.call('ZCOUNT', KEYS[1], cur[2], '+inf')
    local newEff = tonumber(ARGV[3]) - redis.call('ZCOUNT', KEYS[1], ARGV[4], '+inf')
    if newEff >= curEff then return 0 end
  end
end
redis.call('HSET', KEYS[2], w .. 'Remaining', ARGV[3], w .. 'ObservedAt', ARGV[4],
  w .. 'ResetAt', ARGV[5])
redis.call('PEXPIRE', KEYS[2], ${STATE_TTL_MS})
return 1
`;

// KEYS state; ARGV until.
const BACK_OFF = `
local cur = tonumber(redis.call('HGET', KEYS[1], 'blockedUntil')) or 0
if tonumber(ARGV[1]) > cur then redis.call('HSET', KEYS[1], 'blockedUntil', ARGV[1]) end
redis.call('PEXPIRE', KEYS[1], ${STATE_TTL_MS})
return 1
`;

// KEYS log, state; ARGV now, perMinute, perHour, minuteFloor, hourFloor, recentFloor,
// oldestFloor (the earlier of the hour's and the recent window's), peopleRecentFloor (inside
// the hour). Background takes are the
// members marked ':b:' (see take).
const USAGE = `${SERVER_USED}
local now = tonumber(ARGV[1])
local st = redis.call('HMGET', KEYS[2], 'blockedUntil',
  'minuteRemaining', 'minuteObservedAt', 'minuteResetAt',
  'hourRemaining', 'hourObservedAt', 'hourResetAt', 'peoplePressedAt')
local minute = redis.call('ZCOUNT', KEYS[1], '(' .. ARGV[4], '+inf')
local hour = redis.call('ZCOUNT', KEYS[1], '(' .. ARGV[5], '+inf')
local recent = redis.call('ZCOUNT', KEYS[1], '(' .. ARGV[6], '+inf')
local bm, bh, br, bp = 0, 0, 0, 0
local entries = redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. ARGV[7], '+inf', 'WITHSCORES')
for i = 1, #entries, 2 do
  if string.find(entries[i], ':b:', 1, true) then
    local at = tonumber(entries[i + 1])
    if at > tonumber(ARGV[4]) then bm = bm + 1 end
    if at > tonumber(ARGV[5]) then bh = bh + 1 end
    if at > tonumber(ARGV[6]) then br = br + 1 end
    if at > tonumber(ARGV[8]) then bp = bp + 1 end
  end
end
local peopleRecent = redis.call('ZCOUNT', KEYS[1], '(' .. ARGV[8], '+inf') - bp
local sm = server_used(tonumber(ARGV[2]), st[2], st[3], st[4], now)
local sh = server_used(tonumber(ARGV[3]), st[5], st[6], st[7], now)
if sm > minute then minute = sm end
if sh > hour then hour = sh end
local blocked = st[1] or '0'
if (tonumber(blocked) or 0) <= now then blocked = '0' end
return {minute, hour, recent, blocked, bm, bh, br, st[8] or '0', peopleRecent}
`;

/** The rate budget in Redis; see the key layout in `redis-stores.ts`. */
export class RedisRateBudget implements RateBudget {
  readonly limits: RateBudgetLimits;
  readonly #keys: BudgetKeys;
  readonly #now: Now;
  readonly #take: RedisScript;
  readonly #observe: RedisScript;
  readonly #backOff: RedisScript;
  readonly #usage: RedisScript;

  constructor(redis: RedisClient, keys: BudgetKeys, limits: RateBudgetLimits, now: Now) {
    this.limits = limits;
    this.#keys = keys;
    this.#now = now;
    this.#take = defineScript(redis, 'servicedeskBudgetTake', 2, TAKE);
    this.#observe = defineScript(redis, 'servicedeskBudgetObserve', 2, OBSERVE);
    this.#backOff = defineScript(redis, 'servicedeskBudgetBackOff', 1, BACK_OFF);
    this.#usage = defineScript(redis, 'servicedeskBudgetUsage', 2, USAGE);
  }

  async take(priority: BudgetPriority): Promise<BudgetGrant> {
    const op = 'budget.take';
    const now = this.#now();
    const allow = allowance(this.limits, priority);
    const reply = replyArray(
      await this.#take(
        op,
        [this.#keys.log, this.#keys.state],
        [
          now,
          allow.minute,
          allow.hour,
          this.limits.perMinute,
          this.limits.perHour,
          now - MINUTE_MS,
          now - HOUR_MS,
          // Two replicas may take in the same millisecond: each entry needs its own member. The
          // mark in the middle tells background takes from people's (see usage).
          `${now}:${priority === 'background' ? 'b' : 'i'}:${randomUUID()}`,
          allow.own?.minute ?? '',
          allow.own?.hour ?? '',
          allow.pressed?.minute ?? '',
          allow.pressed?.hour ?? '',
          allow.pressed ? now - PRESSED_MS : '',
          allow.pressed?.peopleHour ?? '',
          now - PEOPLE_RECENT_MS,
        ],
      ),
      op,
    );
    if (replyNumber(reply[0], op) === 1) return { granted: true };
    const reason = replyString(reply[2], op) === 'backoff' ? 'backoff' : 'window';
    return { granted: false, retryAt: replyNumber(reply[1], op), reason };
  }

  async observe(observation: RateLimitObservation): Promise<void> {
    if (!isUsableObservation(observation)) return;
    await this.#observe(
      'budget.observe',
      [this.#keys.log, this.#keys.state],
      [
        this.#now(),
        observedWindow(observation, this.limits),
        Math.floor(observation.remaining),
        Math.floor(observation.observedAt),
        Math.floor(observation.resetAt),
      ],
    );
  }

  async backOff(untilMs: number): Promise<void> {
    const until = requireTime(Math.floor(untilMs), 'untilMs');
    await this.#backOff('budget.backOff', [this.#keys.state], [until]);
  }

  async usage(recentMs = 600_000): Promise<BudgetUsage> {
    const op = 'budget.usage';
    const now = this.#now();
    const recentFloor = now - Math.max(1, Math.floor(recentMs));
    const reply = replyArray(
      await this.#usage(
        op,
        [this.#keys.log, this.#keys.state],
        [
          now,
          this.limits.perMinute,
          this.limits.perHour,
          now - MINUTE_MS,
          now - HOUR_MS,
          recentFloor,
          Math.min(recentFloor, now - HOUR_MS),
          now - PEOPLE_RECENT_MS,
        ],
      ),
      op,
    );
    const blocked = replyNumber(reply[3], op);
    return {
      minute: replyNumber(reply[0], op),
      hour: replyNumber(reply[1], op),
      recent: replyNumber(reply[2], op),
      background: {
        minute: replyNumber(reply[4], op),
        hour: replyNumber(reply[5], op),
        recent: replyNumber(reply[6], op),
      },
      blockedUntil: blocked > now ? blocked : undefined,
      // Anyone else on the key (the platform's count above this budget's) counts as people.
      peoplePressed: isPressed(
        allowance(this.limits, 'background'),
        now,
        replyNumber(reply[7], op),
        {
          hour: replyNumber(reply[1], op) - replyNumber(reply[5], op),
          recent: replyNumber(reply[8], op),
        },
      ),
    };
  }
}

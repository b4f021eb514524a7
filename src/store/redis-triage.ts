/**
 * Triage channels in Redis: one hash, desk slug (or `*`) -> channel id, `''` for a desk turned
 * off in Slack while a default names one. It carries the `{<p>triage}` tag: a clear reads and
 * writes every desk at once, and the hash holds one field per desk, so one slot is no burden.
 * The defaults are never written: they apply wherever nothing is stored, so a change of
 * DESK_TRIAGE_CHANNELS takes effect on restart for every desk not set in Slack.
 */
import type { RedisClient, RedisScript } from './redis-script.ts';
import {
  defineScript,
  replyArray,
  replyOptionalString,
  replyString,
  runCommand,
} from './redis-script.ts';
import {
  checkedDefaults,
  effectiveChannel,
  listChannels,
  requireChannel,
  requireDesk,
  routeTo,
  TRIAGE_OFF,
} from './triage-rules.ts';
import { TRIAGE_CATCH_ALL, type TriageChannel, type TriageChannels } from './types.ts';

/** The triage channels' key; it carries the `{<p>triage}` tag. */
export interface TriageKeys {
  channels: string;
}

// KEYS channels; ARGV desk, channel. Answers what was stored before (false: nothing).
const SET = `
local before = redis.call('HGET', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return before
`;

// KEYS channels; ARGV channel, off, then desk, default channel pairs. Every desk whose channel
// (stored, else its default) is ARGV[1] is cleared: stored as off when a default would
// otherwise take over, else deleted. Answers the desks cleared. Twin of `clearedBy`.
const CLEAR = `
local defaults = {}
for i = 3, #ARGV, 2 do defaults[ARGV[i]] = ARGV[i + 1] end
local stored = redis.call('HGETALL', KEYS[1])
local seen = {}
local cleared = {}
for i = 1, #stored, 2 do
  local desk, channel = stored[i], stored[i + 1]
  seen[desk] = true
  if channel == ARGV[1] then
    if defaults[desk] then redis.call('HSET', KEYS[1], desk, ARGV[2])
    else redis.call('HDEL', KEYS[1], desk) end
    cleared[#cleared + 1] = desk
  end
end
for desk, channel in pairs(defaults) do
  if not seen[desk] and channel == ARGV[1] then
    redis.call('HSET', KEYS[1], desk, ARGV[2])
    cleared[#cleared + 1] = desk
  end
end
return cleared
`;

/** Triage channels in Redis; see the key layout in `redis-stores.ts`. No key expires. */
export class RedisTriageChannels implements TriageChannels {
  readonly #redis: RedisClient;
  readonly #keys: TriageKeys;
  readonly #defaults: ReadonlyMap<string, string>;
  readonly #set: RedisScript;
  readonly #clear: RedisScript;

  constructor(redis: RedisClient, keys: TriageKeys, defaults?: ReadonlyMap<string, string>) {
    this.#redis = redis;
    this.#keys = keys;
    this.#defaults = checkedDefaults(defaults);
    this.#set = defineScript(redis, 'servicedeskTriageSet', 1, SET);
    this.#clear = defineScript(redis, 'servicedeskTriageClear', 1, CLEAR);
  }

  async set(desk: string, channel: string): Promise<string | undefined> {
    requireDesk(desk);
    requireChannel(channel);
    const op = 'triage.set';
    const reply = await this.#set(op, [this.#keys.channels], [desk, channel]);
    return effectiveChannel(replyOptionalString(reply, op), this.#defaults.get(desk));
  }

  async restore(desk: string, channel: string): Promise<boolean> {
    requireDesk(desk);
    requireChannel(channel);
    const stored = await runCommand('triage.restore', () =>
      this.#redis.hsetnx(this.#keys.channels, desk, channel),
    );
    return stored === 1;
  }

  async clear(channel: string): Promise<string[]> {
    requireChannel(channel);
    const op = 'triage.clear';
    const pairs = [...this.#defaults].flat();
    const reply = await this.#clear(op, [this.#keys.channels], [channel, TRIAGE_OFF, ...pairs]);
    return replyArray(reply, op)
      .map((desk) => replyString(desk, op))
      .sort();
  }

  async channelFor(desk: string | undefined): Promise<string | undefined> {
    if (desk !== undefined) requireDesk(desk);
    const fields = desk === undefined ? [TRIAGE_CATCH_ALL] : [desk, TRIAGE_CATCH_ALL];
    const values = await runCommand('triage.channelFor', () =>
      this.#redis.hmget(this.#keys.channels, ...fields),
    );
    const stored = new Map<string, string>();
    fields.forEach((field, index) => {
      const value = values[index];
      if (value != null) stored.set(field, value);
    });
    return routeTo(desk, (d) => stored.get(d), this.#defaults);
  }

  async all(): Promise<TriageChannel[]> {
    const stored = await runCommand('triage.all', () => this.#redis.hgetall(this.#keys.channels));
    return listChannels(new Map(Object.entries(stored)), this.#defaults);
  }
}

/**
 * Conversation homes in Redis: one hash, channel or user id -> workspace, under the
 * `{<p>homes}` tag, so a forget reads and deletes one workspace's ids in one step on one
 * Cluster slot. An organization's ids that the app meets are few (its channels and the people
 * who write to it), and the recorder writes only what is new or changed, so one hash is no
 * burden. Nothing expires: a home goes when its workspace uninstalls the app.
 */
import { requireKey } from './argument-checks.ts';
import type { RedisClient, RedisScript } from './redis-script.ts';
import { defineScript, replyArray, replyNumber, replyString, runCommand } from './redis-script.ts';
import type { ConversationHomes } from './types.ts';

/** The homes' key; it carries the `{<p>homes}` tag. */
export interface HomeKeys {
  homes: string;
}

// KEYS homes; ARGV workspace, then ids. Notes the workspace where an id has no home yet.
const ADOPT = `
local noted = 0
for i = 2, #ARGV do noted = noted + redis.call('HSETNX', KEYS[1], ARGV[i], ARGV[1]) end
return noted
`;

// KEYS homes; ARGV workspace. Deletes the ids whose home it is; answers them.
const FORGET = `
local all = redis.call('HGETALL', KEYS[1])
local gone = {}
for i = 1, #all, 2 do
  if all[i + 1] == ARGV[1] then gone[#gone + 1] = all[i] end
end
for i = 1, #gone, 500 do
  redis.call('HDEL', KEYS[1], unpack(gone, i, math.min(i + 499, #gone)))
end
return gone
`;

/** Conversation homes in Redis; see the key layout in `redis-stores.ts`. */
export class RedisConversationHomes implements ConversationHomes {
  readonly #redis: RedisClient;
  readonly #keys: HomeKeys;
  readonly #adopt: RedisScript;
  readonly #forget: RedisScript;

  constructor(redis: RedisClient, keys: HomeKeys) {
    this.#redis = redis;
    this.#keys = keys;
    this.#adopt = defineScript(redis, 'servicedeskHomesAdopt', 1, ADOPT);
    this.#forget = defineScript(redis, 'servicedeskHomesForget', 1, FORGET);
  }

  async note(id: string, workspace: string): Promise<void> {
    requireKey(id, 'conversation or user id');
    requireKey(workspace, 'workspace');
    await runCommand('homes.note', () => this.#redis.hset(this.#keys.homes, id, workspace));
  }

  async adopt(ids: readonly string[], workspace: string): Promise<number> {
    requireKey(workspace, 'workspace');
    for (const id of ids) requireKey(id, 'conversation or user id');
    if (ids.length === 0) return 0;
    const reply = await this.#adopt('homes.adopt', [this.#keys.homes], [workspace, ...ids]);
    return replyNumber(reply, 'homes.adopt');
  }

  async homeOf(id: string): Promise<string | undefined> {
    requireKey(id, 'conversation or user id');
    const home = await runCommand('homes.homeOf', () => this.#redis.hget(this.#keys.homes, id));
    return home ?? undefined;
  }

  async forget(workspace: string): Promise<string[]> {
    requireKey(workspace, 'workspace');
    const reply = await this.#forget('homes.forget', [this.#keys.homes], [workspace]);
    return replyArray(reply, 'homes.forget')
      .map((id) => replyString(id, 'homes.forget'))
      .sort();
  }
}

/**
 * Channel modes in Redis: one hash, channel id -> mode, under the `{channels}` tag. A mode is
 * set by hand for a handful of channels, so it never expires: it stays until an agent sets it
 * again. Read on every top-level channel message the app hears: one HGET, no script.
 */
import { requireKey } from './argument-checks.ts';
import { checkChannelMode, decodeChannelMode } from './channel-mode-rules.ts';
import type { RedisClient } from './redis-script.ts';
import { runCommand } from './redis-script.ts';
import type { ChannelMode, ChannelModeStore } from './types.ts';

/** The channel modes' key. */
export interface ChannelModeKeys {
  modes: string;
}

/** The channel-mode store in Redis; see the key layout in `redis-stores.ts`. */
export class RedisChannelModeStore implements ChannelModeStore {
  readonly #redis: RedisClient;
  readonly #keys: ChannelModeKeys;

  constructor(redis: RedisClient, keys: ChannelModeKeys) {
    this.#redis = redis;
    this.#keys = keys;
  }

  async get(channel: string): Promise<ChannelMode | undefined> {
    requireKey(channel, 'channel id');
    const text = await runCommand('channelModes.get', () =>
      this.#redis.hget(this.#keys.modes, channel),
    );
    return text == null ? undefined : decodeChannelMode(text);
  }

  async set(channel: string, mode: ChannelMode): Promise<void> {
    checkChannelMode(channel, mode);
    await runCommand('channelModes.set', () => this.#redis.hset(this.#keys.modes, channel, mode));
  }

  async channels(): Promise<string[]> {
    const channels = await runCommand('channelModes.channels', () =>
      this.#redis.hkeys(this.#keys.modes),
    );
    return channels.sort();
  }

  async remove(channel: string): Promise<boolean> {
    requireKey(channel, 'channel id');
    const removed = await runCommand('channelModes.remove', () =>
      this.#redis.hdel(this.#keys.modes, channel),
    );
    return removed === 1;
  }
}

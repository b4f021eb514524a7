/** Channel modes held in this process's memory: the twin of `redis-channel-modes.ts`. */
import { requireKey } from './argument-checks.ts';
import { checkChannelMode } from './channel-mode-rules.ts';
import type { ChannelMode, ChannelModeStore } from './types.ts';

/** Modes in a Map; there are as many as channels an agent set, so nothing is evicted. */
export class MemoryChannelModeStore implements ChannelModeStore {
  readonly #modes = new Map<string, ChannelMode>();

  async get(channel: string): Promise<ChannelMode | undefined> {
    requireKey(channel, 'channel id');
    return this.#modes.get(channel);
  }

  async set(channel: string, mode: ChannelMode): Promise<void> {
    checkChannelMode(channel, mode);
    this.#modes.set(channel, mode);
  }

  async channels(): Promise<string[]> {
    return [...this.#modes.keys()].sort();
  }

  async remove(channel: string): Promise<boolean> {
    requireKey(channel, 'channel id');
    return this.#modes.delete(channel);
  }
}

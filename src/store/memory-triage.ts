/** Triage channels held in this process's memory: the twin of `redis-triage.ts`. */
import {
  checkedDefaults,
  clearedBy,
  effectiveChannel,
  listChannels,
  requireChannel,
  requireDesk,
  routeTo,
} from './triage-rules.ts';
import type { TriageChannel, TriageChannels } from './types.ts';

/** Desk -> channel in a Map; each method runs to completion, so each is atomic. */
export class MemoryTriageChannels implements TriageChannels {
  readonly #defaults: ReadonlyMap<string, string>;
  readonly #stored = new Map<string, string>();

  constructor(defaults?: ReadonlyMap<string, string>) {
    this.#defaults = checkedDefaults(defaults);
  }

  async set(desk: string, channel: string): Promise<string | undefined> {
    requireDesk(desk);
    requireChannel(channel);
    const before = effectiveChannel(this.#stored.get(desk), this.#defaults.get(desk));
    this.#stored.set(desk, channel);
    return before;
  }

  async restore(desk: string, channel: string): Promise<boolean> {
    requireDesk(desk);
    requireChannel(channel);
    if (this.#stored.has(desk)) return false;
    this.#stored.set(desk, channel);
    return true;
  }

  async clear(channel: string): Promise<string[]> {
    requireChannel(channel);
    const cleared = clearedBy(channel, this.#stored, this.#defaults);
    for (const { desk, becomes } of cleared) {
      if (becomes === undefined) this.#stored.delete(desk);
      else this.#stored.set(desk, becomes);
    }
    return cleared.map(({ desk }) => desk);
  }

  async channelFor(desk: string | undefined): Promise<string | undefined> {
    if (desk !== undefined) requireDesk(desk);
    return routeTo(desk, (d) => this.#stored.get(d), this.#defaults);
  }

  async all(): Promise<TriageChannel[]> {
    return listChannels(this.#stored, this.#defaults);
  }
}

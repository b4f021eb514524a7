/**
 * The in-memory backend: one process, no Redis (the embedded default). Nothing survives a
 * restart and nothing is shared between processes; otherwise it keeps the same contract.
 */
import { MemoryRateBudget } from './memory-budget.ts';
import { MemoryChannelModeStore } from './memory-channel-modes.ts';
import { MemoryClaimStore } from './memory-claims.ts';
import { MemoryFairShareStore } from './memory-fair-share.ts';
import { MemoryChangeFeedStore } from './memory-feed.ts';
import { MemoryConversationHomes } from './memory-homes.ts';
import { MemoryThreadLinks } from './memory-links.ts';
import { MemoryMirrorStore } from './memory-mirror.ts';
import { MemoryOutbox } from './memory-outbox.ts';
import { MemoryPollSchedule } from './memory-schedule.ts';
import { MemoryTriageChannels } from './memory-triage.ts';
import { resolveBudgetLimits } from './rate-budget-rules.ts';
import type { Now, RateBudgetLimits, Stores } from './types.ts';
import { DEFAULT_DEAD_LETTER_CAP } from './types.ts';

/** Options for the in-memory backend. */
export interface MemoryStoresOptions {
  /** The clock in ms (default Date.now). */
  now?: Now;
  /** How many dead letters are kept (default 1,000). */
  deadLetterCap?: number;
  /** The platform's rate limits and the interactive reserve (default 100/min, 1,000/h, 20%). */
  budget?: Partial<RateBudgetLimits>;
  /** Triage channels that apply until set otherwise in Slack (desk slug or `*` -> channel id). */
  triageDefaults?: ReadonlyMap<string, string>;
}

/** Every store held in this process's memory. */
export function createMemoryStores(options: MemoryStoresOptions = {}): Stores {
  const clock = options.now ?? Date.now;
  // Whole milliseconds, as in Redis, whatever the injected clock returns.
  const now: Now = () => Math.floor(clock());
  return {
    claims: new MemoryClaimStore(now),
    outbox: new MemoryOutbox(now, options.deadLetterCap ?? DEFAULT_DEAD_LETTER_CAP),
    links: new MemoryThreadLinks(now),
    budget: new MemoryRateBudget(resolveBudgetLimits(options.budget), now),
    schedule: new MemoryPollSchedule(now),
    clockSchedule: new MemoryPollSchedule(now),
    mirror: new MemoryMirrorStore(now),
    feed: new MemoryChangeFeedStore(),
    fairShare: new MemoryFairShareStore(now),
    triageChannels: new MemoryTriageChannels(options.triageDefaults),
    channelModes: new MemoryChannelModeStore(),
    homes: new MemoryConversationHomes(),
  };
}

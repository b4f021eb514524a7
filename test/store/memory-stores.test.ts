import { describe, expect, it } from 'vitest';
import { MemoryInstallations, MemoryOAuthStates } from '../../src/store/memory-installations.ts';
import { createMemoryStores } from '../../src/store/memory-stores.ts';
import { describeBudgetContract } from './contract/budget-contract.ts';
import { describeChannelModesContract } from './contract/channel-modes-contract.ts';
import { describeClaimsContract } from './contract/claims-contract.ts';
import { describeClockScheduleContract } from './contract/clock-schedule-contract.ts';
import { describeFairShareContract } from './contract/fair-share-contract.ts';
import { describeFeedContract } from './contract/feed-contract.ts';
import type { StoresBackend } from './contract/harness.ts';
import { fakeClock } from './contract/harness.ts';
import { describeHomesContract } from './contract/homes-contract.ts';
import { describeInstallationsContract, testCipher } from './contract/installations-contract.ts';
import { describeLinksContract } from './contract/links-contract.ts';
import { describeMirrorContract } from './contract/mirror-contract.ts';
import { describeOutboxContract } from './contract/outbox-contract.ts';
import { describeScheduleContract } from './contract/schedule-contract.ts';
import { describeTriageContract } from './contract/triage-contract.ts';

// One process: every "replica" is the same instance, and nothing outlives it.
const backend: StoresBackend = {
  durable: false,
  namespace(clock, options) {
    const stores = createMemoryStores({ now: clock.now, ...options });
    return { open: () => stores };
  },
};

describe('in-memory stores', () => {
  describeClaimsContract(backend);
  describeOutboxContract(backend);
  describeLinksContract(backend);
  describeBudgetContract(backend);
  describeScheduleContract(backend);
  describeClockScheduleContract(backend);
  describeMirrorContract(backend);
  describeFeedContract(backend);
  describeFairShareContract(backend);
  describeTriageContract(backend);
  describeChannelModesContract(backend);
  describeHomesContract(backend);
  describeInstallationsContract({
    namespace() {
      const kept = new Map<string, string>();
      const cipher = testCipher();
      const states = new MemoryOAuthStates('state-secret');
      // One process: every replica reads the same map; another key reads it too.
      return {
        open: (_replica, withKey) => ({
          installations: new MemoryInstallations(withKey ?? cipher, Date.now, kept),
          states,
        }),
        raw: async () => [...kept.values()],
      };
    },
  });

  it('forgets a ticket’s mirror memory once the grace period has passed', async () => {
    const clock = fakeClock();
    const { mirror } = createMemoryStores({ now: clock.now });
    await mirror.noteSlackWrite('IT-9', clock.now());
    await mirror.rememberOwn('IT-9', ['id:msg_1']);
    await mirror.forget('IT-9', 60_000);
    clock.advance(60_000);
    expect(await mirror.state('IT-9')).toBeUndefined();
    expect(await mirror.isOwn('IT-9', ['id:msg_1'])).toBe(false);
  });
});

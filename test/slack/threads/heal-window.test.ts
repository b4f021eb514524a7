import { describe, expect, it } from 'vitest';
import { HealWindow } from '../../../src/slack/threads/heal-window.ts';
import { createMemoryStores } from '../../../src/store/index.ts';
import type { ClaimStore } from '../../../src/store/types.ts';

const T0 = 1_767_225_600_000;
const DAY = 24 * 60 * 60_000;

function setUp() {
  const clock = { now: T0 };
  const stores = createMemoryStores({ now: () => clock.now });
  const open = () =>
    new HealWindow({ claims: stores.claims, now: () => clock.now, recheckMs: 60_000 });
  return { clock, stores, open };
}

describe('the heal window', () => {
  it('opens on a store that holds no epoch marker, as a new or emptied one', async () => {
    const { open } = setUp();
    expect(await open().isOpen()).toBe(true);
  });

  it('closes a day after the marker was written, for every replica', async () => {
    const { clock, open } = setUp();
    await open().isOpen();
    clock.now += DAY + 1;
    expect(await open().isOpen()).toBe(false);
  });

  it('opens again within a minute once the store loses its marker', async () => {
    const { clock, stores } = setUp();
    // The store the window reads, which a test can swap for an empty one.
    let backing: ClaimStore = stores.claims;
    const claims: ClaimStore = {
      claim: (key, leaseMs) => backing.claim(key, leaseMs),
      complete: (key, token, result, ttlMs) => backing.complete(key, token, result, ttlMs),
      get: (key) => backing.get(key),
      release: (key, token) => backing.release(key, token),
    };
    const window = new HealWindow({ claims, now: () => clock.now, recheckMs: 60_000 });
    await window.isOpen();
    clock.now += DAY + 1;
    expect(await window.isOpen()).toBe(false);
    backing = createMemoryStores({ now: () => clock.now }).claims;
    clock.now += 30_000;
    expect(await window.isOpen()).toBe(false);
    clock.now += 30_000;
    expect(await window.isOpen()).toBe(true);
  });
});

/** The claims contract: every backend's ClaimStore must pass it. */
import { describe, expect, it } from 'vitest';
import type { StoresBackend } from './harness.ts';
import { fakeClock } from './harness.ts';

const LEASE = 30_000;

/** Registers the claims contract against a backend. */
export function describeClaimsContract(backend: StoresBackend): void {
  describe('claims', () => {
    it('a second claim while the lease is live is busy', async () => {
      const { claims } = backend.namespace(fakeClock()).open();
      expect((await claims.claim('ev:1', LEASE)).state).toBe('claimed');
      expect(await claims.claim('ev:1', LEASE)).toEqual({ state: 'busy' });
    });

    it('two replicas claiming one key at once give the lease to exactly one', async () => {
      const ns = backend.namespace(fakeClock());
      const outcomes = await Promise.all([
        ns.open(0).claims.claim('ev:1', LEASE),
        ns.open(1).claims.claim('ev:1', LEASE),
      ]);
      expect(outcomes.map((o) => o.state).sort()).toEqual(['busy', 'claimed']);
    });

    it('an expired lease can be claimed again', async () => {
      const clock = fakeClock();
      const { claims } = backend.namespace(clock).open();
      const first = await claims.claim('ev:1', LEASE);
      clock.advance(LEASE);
      const second = await claims.claim('ev:1', LEASE);
      expect(second.state).toBe('claimed');
      expect(second).not.toEqual(first);
    });

    it('a completed claim reports done with its result', async () => {
      const { claims } = backend.namespace(fakeClock()).open();
      const held = await claims.claim('ev:1', LEASE);
      if (held.state !== 'claimed') throw new Error('expected the lease');
      expect(await claims.complete('ev:1', held.token, { ticketId: 'IT-12' })).toBe(true);
      expect(await claims.claim('ev:1', LEASE)).toEqual({
        state: 'done',
        result: { ticketId: 'IT-12' },
      });
      expect(await claims.get('ev:1')).toEqual({ state: 'done', result: { ticketId: 'IT-12' } });
    });

    it('a completed claim is forgotten once its time to live has passed', async () => {
      const clock = fakeClock();
      const { claims } = backend.namespace(clock).open();
      const held = await claims.claim('ev:1', LEASE);
      if (held.state !== 'claimed') throw new Error('expected the lease');
      await claims.complete('ev:1', held.token, null, 60_000);
      clock.advance(60_000);
      expect(await claims.get('ev:1')).toBeUndefined();
      expect((await claims.claim('ev:1', LEASE)).state).toBe('claimed');
    });

    it('a stale holder cannot release the lease a new holder took', async () => {
      const clock = fakeClock();
      const { claims } = backend.namespace(clock).open();
      const stale = await claims.claim('ev:1', LEASE);
      if (stale.state !== 'claimed') throw new Error('expected the lease');
      clock.advance(LEASE);
      expect((await claims.claim('ev:1', LEASE)).state).toBe('claimed');
      expect(await claims.release('ev:1', stale.token)).toBe(false);
      expect(await claims.claim('ev:1', LEASE)).toEqual({ state: 'busy' });
    });

    it('a stale holder cannot complete over the lease a new holder took', async () => {
      const clock = fakeClock();
      const { claims } = backend.namespace(clock).open();
      const stale = await claims.claim('ev:1', LEASE);
      if (stale.state !== 'claimed') throw new Error('expected the lease');
      clock.advance(LEASE);
      const fresh = await claims.claim('ev:1', LEASE);
      if (fresh.state !== 'claimed') throw new Error('expected the lease');
      expect(await claims.complete('ev:1', stale.token, 'stale')).toBe(false);
      expect(await claims.get('ev:1')).toEqual({ state: 'leased' });
      expect(await claims.complete('ev:1', fresh.token, 'fresh')).toBe(true);
      expect(await claims.get('ev:1')).toEqual({ state: 'done', result: 'fresh' });
    });

    it('the holder releases its lease so the key can be claimed at once', async () => {
      const { claims } = backend.namespace(fakeClock()).open();
      const held = await claims.claim('ev:1', LEASE);
      if (held.state !== 'claimed') throw new Error('expected the lease');
      expect(await claims.release('ev:1', held.token)).toBe(true);
      expect(await claims.get('ev:1')).toBeUndefined();
      expect((await claims.claim('ev:1', LEASE)).state).toBe('claimed');
    });

    it('release cannot undo a completed claim', async () => {
      const { claims } = backend.namespace(fakeClock()).open();
      const held = await claims.claim('ev:1', LEASE);
      if (held.state !== 'claimed') throw new Error('expected the lease');
      await claims.complete('ev:1', held.token);
      expect(await claims.release('ev:1', held.token)).toBe(false);
      expect(await claims.get('ev:1')).toEqual({ state: 'done' });
    });

    it('refuses a lease that is not a positive whole number of milliseconds', async () => {
      const { claims } = backend.namespace(fakeClock()).open();
      await expect(claims.claim('ev:1', 0)).rejects.toMatchObject({
        code: 'STORE_INVALID_ARGUMENT',
      });
      await expect(claims.claim('ev:1', 1.5)).rejects.toMatchObject({
        code: 'STORE_INVALID_ARGUMENT',
      });
    });
  });
}

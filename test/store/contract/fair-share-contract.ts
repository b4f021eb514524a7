/** The fair-share contract: every backend's FairShareStore must pass it. */
import { describe, expect, it } from 'vitest';
import type { FairShareBucket } from '../../../src/store/types.ts';
import type { StoresBackend } from './harness.ts';
import { fakeClock } from './harness.ts';

// Ten a minute with a burst of five, and sixty an hour: the app's default share.
const MINUTE: FairShareBucket = { capacity: 5, refillEveryMs: 6_000 };
const HOUR: FairShareBucket = { capacity: 60, refillEveryMs: 60_000 };

/** Registers the fair-share contract against a backend. */
export function describeFairShareContract(backend: StoresBackend): void {
  describe('fair share', () => {
    it('grants a person their burst at once, then refuses saying when a read is back', async () => {
      const { fairShare } = backend.namespace(fakeClock()).open();
      for (let i = 0; i < 5; i++) {
        expect(await fairShare.take('U1', [MINUTE])).toEqual({ granted: true });
      }
      const refused = await fairShare.take('U1', [MINUTE]);
      expect(refused).toEqual({ granted: false, retryAt: 1_700_000_000_000 + 6_000 });
    });

    it('refills one read per period, never past the burst', async () => {
      const clock = fakeClock();
      const { fairShare } = backend.namespace(clock).open();
      for (let i = 0; i < 5; i++) await fairShare.take('U1', [MINUTE]);
      clock.advance(6_000);
      expect(await fairShare.take('U1', [MINUTE])).toEqual({ granted: true });
      expect((await fairShare.take('U1', [MINUTE])).granted).toBe(false);
      clock.advance(3_600_000);
      const granted = [];
      for (let i = 0; i < 6; i++) granted.push((await fairShare.take('U1', [MINUTE])).granted);
      expect(granted).toEqual([true, true, true, true, true, false]);
    });

    it('one person’s empty bucket leaves another person’s whole', async () => {
      const { fairShare } = backend.namespace(fakeClock()).open();
      for (let i = 0; i < 6; i++) await fairShare.take('U1', [MINUTE]);
      expect(await fairShare.take('U2', [MINUTE])).toEqual({ granted: true });
    });

    it('needs a read in every bucket, and a refusal spends none', async () => {
      const clock = fakeClock();
      const { fairShare } = backend.namespace(clock).open();
      const small: FairShareBucket = { capacity: 2, refillEveryMs: 60_000 };
      expect((await fairShare.take('U1', [MINUTE, small])).granted).toBe(true);
      expect((await fairShare.take('U1', [MINUTE, small])).granted).toBe(true);
      // The minute bucket still holds three; the small one is empty for a minute.
      expect(await fairShare.take('U1', [MINUTE, small])).toEqual({
        granted: false,
        retryAt: 1_700_000_000_000 + 60_000,
      });
      expect(await fairShare.take('U1', [MINUTE])).toEqual({ granted: true });
      expect(await fairShare.take('U1', [MINUTE])).toEqual({ granted: true });
      expect(await fairShare.take('U1', [MINUTE])).toEqual({ granted: true });
      expect((await fairShare.take('U1', [MINUTE])).granted).toBe(false);
    });

    it('the hour’s bucket stops a person the minute’s would let through', async () => {
      const clock = fakeClock();
      const { fairShare } = backend.namespace(clock).open();
      let granted = 0;
      // Thirty minutes at the minute bucket's pace: 5 + 10 a minute would be 305.
      for (let minute = 0; minute < 30; minute++) {
        for (let i = 0; i < 12; i++) {
          if ((await fairShare.take('U1', [MINUTE, HOUR])).granted) granted++;
        }
        clock.advance(60_000);
      }
      expect(granted).toBe(60 + 29);
    });

    it('two replicas taking a person’s last read at once give it to exactly one', async () => {
      const ns = backend.namespace(fakeClock());
      const one: FairShareBucket = { capacity: 1, refillEveryMs: 60_000 };
      const grants = await Promise.all([
        ns.open(0).fairShare.take('U1', [one]),
        ns.open(1).fairShare.take('U1', [one]),
      ]);
      expect(grants.map((g) => g.granted).sort()).toEqual([false, true]);
    });

    it('refuses a take with no bucket', async () => {
      const { fairShare } = backend.namespace(fakeClock()).open();
      await expect(fairShare.take('U1', [])).rejects.toMatchObject({
        code: 'STORE_INVALID_ARGUMENT',
      });
    });

    it('a kept read is recalled with when it was kept, by every replica', async () => {
      const clock = fakeClock();
      const ns = backend.namespace(clock);
      await ns.open(0).fairShare.keep('ticket:IT-1', { id: 'IT-1', status: 'open' }, 10_000);
      clock.advance(4_000);
      expect(await ns.open(1).fairShare.recall('ticket:IT-1')).toEqual({
        value: { id: 'IT-1', status: 'open' },
        keptAt: 1_700_000_000_000,
      });
    });

    it('a kept read is forgotten once its time to live has passed', async () => {
      const clock = fakeClock();
      const { fairShare } = backend.namespace(clock).open();
      await fairShare.keep('ticket:IT-1', { id: 'IT-1' }, 10_000);
      clock.advance(10_000);
      expect(await fairShare.recall('ticket:IT-1')).toBeUndefined();
      expect(await fairShare.recall('ticket:IT-2')).toBeUndefined();
    });

    it('keeping again replaces the value and its time', async () => {
      const clock = fakeClock();
      const { fairShare } = backend.namespace(clock).open();
      await fairShare.keep('ticket:IT-1', { status: 'open' }, 10_000);
      clock.advance(1_000);
      await fairShare.keep('ticket:IT-1', { status: 'resolved' }, 10_000);
      expect(await fairShare.recall('ticket:IT-1')).toEqual({
        value: { status: 'resolved' },
        keptAt: 1_700_000_000_000 + 1_000,
      });
    });
  });
}

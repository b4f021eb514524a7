/** The clock-schedule contract: the service-level clock watch's schedule, apart from the polls'. */
import { describe, expect, it } from 'vitest';
import type { StoresBackend } from './harness.ts';
import { fakeClock } from './harness.ts';

const LEASE = 30_000;

/** Registers the clock-schedule contract against a backend. */
export function describeClockScheduleContract(backend: StoresBackend): void {
  describe('clock schedule', () => {
    it('keeps a clock coming due apart from the poll schedule', async () => {
      const clock = fakeClock();
      const { schedule, clockSchedule } = backend.namespace(clock).open();
      await clockSchedule.pollAt('IT-1', clock.now() - 1);
      expect(await schedule.dueAt('IT-1')).toBeUndefined();
      expect(await schedule.claimDue(10, LEASE)).toEqual([]);
      const [claim] = await clockSchedule.claimDue(10, LEASE);
      expect(claim?.ticketId).toBe('IT-1');
    });

    it('gives a due clock to one replica at a time and the next change to whoever asks after', async () => {
      const clock = fakeClock();
      const space = backend.namespace(clock);
      const first = space.open(0).clockSchedule;
      const second = space.open(1).clockSchedule;
      await first.pollAt('IT-1', clock.now());
      const claims = [...(await first.claimDue(10, LEASE)), ...(await second.claimDue(10, LEASE))];
      expect(claims.map((one) => one.ticketId)).toEqual(['IT-1']);
      const [claim] = claims;
      if (!claim) throw new Error('no claim');
      expect(await first.reschedule(claim, clock.now() + 60_000)).toBe(true);
      expect(await second.dueAt('IT-1')).toBe(clock.now() + 60_000);
    });
  });
}

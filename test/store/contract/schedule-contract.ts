/** The poll-schedule contract: every backend's PollSchedule must pass it. */
import { describe, expect, it } from 'vitest';
import type { PollClaim } from '../../../src/store/types.ts';
import type { StoresBackend } from './harness.ts';
import { fakeClock } from './harness.ts';

const LEASE = 30_000;

function only(claims: PollClaim[]): PollClaim {
  const [claim] = claims;
  if (!claim || claims.length !== 1) throw new Error(`expected one claim, got ${claims.length}`);
  return claim;
}

/** Registers the poll-schedule contract against a backend. */
export function describeScheduleContract(backend: StoresBackend): void {
  describe('poll schedule', () => {
    it('claims due tickets earliest first and leaves the ones not yet due', async () => {
      const clock = fakeClock();
      const { schedule } = backend.namespace(clock).open();
      const now = clock.now();
      await schedule.pollAt('IT-3', now - 10);
      await schedule.pollAt('IT-1', now - 500);
      await schedule.pollAt('IT-2', now + 5_000);
      const claims = await schedule.claimDue(10, LEASE);
      expect(claims.map((c) => [c.ticketId, c.dueAt])).toEqual([
        ['IT-1', now - 500],
        ['IT-3', now - 10],
      ]);
      expect(claims.every((c) => c.leaseExpiresAt === now + LEASE)).toBe(true);
    });

    it('keeps a ticket held by a reschedule from every earlier ask until the hold passes', async () => {
      const clock = fakeClock();
      const { schedule } = backend.namespace(clock).open();
      const now = clock.now();
      await schedule.pollAt('IT-1', now);
      const claim = only(await schedule.claimDue(10, LEASE));
      // A hint during the claim, then Slack's Retry-After 30 s on the claim's post.
      await schedule.pollAt('IT-1', now + 1_000);
      expect(await schedule.reschedule(claim, now + 30_000, now + 30_000)).toBe(true);
      expect(await schedule.dueAt('IT-1')).toBe(now + 30_000);
      // Hints and the feed after the claim ask for sooner; the hold stands.
      await schedule.pollAt('IT-1', now + 2_000);
      await schedule.pollAt('IT-1', now + 24_000);
      expect(await schedule.dueAt('IT-1')).toBe(now + 30_000);
      clock.advance(30_000);
      const next = only(await schedule.claimDue(10, LEASE));
      // Once it has passed, the planner's and the hints' times are theirs again.
      expect(await schedule.reschedule(next, clock.now() + 60_000)).toBe(true);
      await schedule.pollAt('IT-1', clock.now() + 1_000);
      expect(await schedule.dueAt('IT-1')).toBe(clock.now() + 1_000);
    });

    it('keeps a held ticket from an earlier planned time and from a hint pending at the end of its next claim', async () => {
      const clock = fakeClock();
      const { schedule } = backend.namespace(clock).open();
      const now = clock.now();
      await schedule.pollAt('IT-1', now);
      const first = only(await schedule.claimDue(10, LEASE));
      await schedule.reschedule(first, now + 30_000, now + 30_000);
      // A claim taken early (a lapsed one, a replica's clock) ends with an earlier plan.
      clock.advance(30_000);
      const second = only(await schedule.claimDue(10, LEASE));
      await schedule.reschedule(second, clock.now() + 10_000, clock.now() + 50_000);
      await schedule.pollAt('IT-1', clock.now() + 5_000);
      expect(await schedule.dueAt('IT-1')).toBe(clock.now() + 50_000);
    });

    it('keeps the earlier time when a ticket is asked for twice', async () => {
      const clock = fakeClock();
      const { schedule } = backend.namespace(clock).open();
      const now = clock.now();
      await schedule.pollAt('IT-1', now + 60_000);
      await schedule.pollAt('IT-1', now + 2_000);
      await schedule.pollAt('IT-1', now + 30_000);
      expect(await schedule.dueAt('IT-1')).toBe(now + 2_000);
      expect(await schedule.size()).toBe(1);
    });

    it('hands each due ticket to one of several replicas claiming at once', async () => {
      const clock = fakeClock();
      const ns = backend.namespace(clock);
      for (const n of [1, 2, 3, 4, 5]) await ns.open(0).schedule.pollAt(`IT-${n}`, clock.now());
      const taken = await Promise.all(
        [0, 1, 2, 3].map((replica) => ns.open(replica).schedule.claimDue(2, LEASE)),
      );
      const ids = taken.flat().map((c) => c.ticketId);
      expect(ids.sort()).toEqual(['IT-1', 'IT-2', 'IT-3', 'IT-4', 'IT-5']);
    });

    it('does not hand out a claimed ticket again until its claim lapses', async () => {
      const clock = fakeClock();
      const { schedule } = backend.namespace(clock).open();
      await schedule.pollAt('IT-1', clock.now());
      const first = only(await schedule.claimDue(10, LEASE));
      expect(await schedule.claimDue(10, LEASE)).toEqual([]);
      expect(await schedule.dueAt('IT-1')).toBe(first.leaseExpiresAt);
      clock.advance(LEASE);
      const second = only(await schedule.claimDue(10, LEASE));
      expect(second.token).not.toBe(first.token);
    });

    it('the holder sets the next poll when it reschedules, and the ticket is free again', async () => {
      const clock = fakeClock();
      const { schedule } = backend.namespace(clock).open();
      await schedule.pollAt('IT-1', clock.now());
      const claim = only(await schedule.claimDue(10, LEASE));
      expect(await schedule.reschedule(claim, clock.now() + 90_000)).toBe(true);
      expect(await schedule.dueAt('IT-1')).toBe(clock.now() + 90_000);
      clock.advance(90_000);
      expect((await schedule.claimDue(10, LEASE)).map((c) => c.ticketId)).toEqual(['IT-1']);
    });

    it('a holder whose claim lapsed and was taken over cannot reschedule', async () => {
      const clock = fakeClock();
      const { schedule } = backend.namespace(clock).open();
      await schedule.pollAt('IT-1', clock.now());
      const stale = only(await schedule.claimDue(10, LEASE));
      clock.advance(LEASE);
      const fresh = only(await schedule.claimDue(10, LEASE));
      expect(await schedule.reschedule(stale, clock.now() + 1_000)).toBe(false);
      expect(await schedule.dueAt('IT-1')).toBe(fresh.leaseExpiresAt);
      expect(await schedule.reschedule(fresh, clock.now() + 5_000)).toBe(true);
    });

    it('keeps a hint that arrives during a claim and applies it when the holder reschedules', async () => {
      const clock = fakeClock();
      const { schedule } = backend.namespace(clock).open();
      const now = clock.now();
      await schedule.pollAt('IT-1', now);
      const claim = only(await schedule.claimDue(10, LEASE));
      await schedule.pollAt('IT-1', now + 2_000);
      expect(await schedule.dueAt('IT-1')).toBe(claim.leaseExpiresAt);
      await schedule.reschedule(claim, now + 600_000);
      expect(await schedule.dueAt('IT-1')).toBe(now + 2_000);
    });

    it('keeps the holder’s time when a hint during the claim asks for later', async () => {
      const clock = fakeClock();
      const { schedule } = backend.namespace(clock).open();
      const now = clock.now();
      await schedule.pollAt('IT-1', now);
      const claim = only(await schedule.claimDue(10, LEASE));
      await schedule.pollAt('IT-1', now + 900_000);
      await schedule.reschedule(claim, now + 60_000);
      expect(await schedule.dueAt('IT-1')).toBe(now + 60_000);
    });

    it('a hint for a ticket whose claim lapsed keeps it due now', async () => {
      const clock = fakeClock();
      const { schedule } = backend.namespace(clock).open();
      await schedule.pollAt('IT-1', clock.now());
      const claim = only(await schedule.claimDue(10, LEASE));
      clock.advance(LEASE + 1_000);
      await schedule.pollAt('IT-1', clock.now() + 5_000);
      expect(await schedule.dueAt('IT-1')).toBe(claim.leaseExpiresAt);
    });

    it('stops polling a removed ticket', async () => {
      const clock = fakeClock();
      const { schedule } = backend.namespace(clock).open();
      await schedule.pollAt('IT-1', clock.now());
      expect(await schedule.remove('IT-1')).toBe(true);
      expect(await schedule.remove('IT-1')).toBe(false);
      expect(await schedule.claimDue(10, LEASE)).toEqual([]);
      expect(await schedule.dueAt('IT-1')).toBeUndefined();
      expect(await schedule.size()).toBe(0);
    });

    it('a holder’s remove gives way to a hint that came during its claim', async () => {
      const clock = fakeClock();
      const { schedule } = backend.namespace(clock).open();
      const now = clock.now();
      await schedule.pollAt('IT-1', now);
      const claim = only(await schedule.claimDue(10, LEASE));
      await schedule.pollAt('IT-1', now + 2_000);
      expect(await schedule.remove('IT-1', claim)).toBe(false);
      expect(await schedule.dueAt('IT-1')).toBe(now + 2_000);
    });

    it('a holder removes the ticket it holds, and a stale holder cannot', async () => {
      const clock = fakeClock();
      const { schedule } = backend.namespace(clock).open();
      await schedule.pollAt('IT-1', clock.now());
      await schedule.pollAt('IT-2', clock.now());
      const [one, two] = await schedule.claimDue(10, LEASE);
      if (!one || !two) throw new Error('expected two claims');
      expect(await schedule.remove(one.ticketId, one)).toBe(true);
      expect(await schedule.dueAt(one.ticketId)).toBeUndefined();
      clock.advance(LEASE);
      await schedule.claimDue(10, LEASE);
      expect(await schedule.remove(two.ticketId, two)).toBe(false);
      expect(await schedule.dueAt(two.ticketId)).toBeDefined();
    });

    it('tells the earliest due time and how many tickets are scheduled', async () => {
      const clock = fakeClock();
      const { schedule } = backend.namespace(clock).open();
      expect(await schedule.nextDueAt()).toBeUndefined();
      await schedule.pollAt('IT-1', clock.now() + 7_000);
      await schedule.pollAt('IT-2', clock.now() + 3_000);
      expect(await schedule.nextDueAt()).toBe(clock.now() + 3_000);
      expect(await schedule.size()).toBe(2);
    });

    it('refuses a claim of no tickets or with no lease', async () => {
      const { schedule } = backend.namespace(fakeClock()).open();
      await expect(schedule.claimDue(0, LEASE)).rejects.toMatchObject({
        code: 'STORE_INVALID_ARGUMENT',
      });
      await expect(schedule.claimDue(1, 0)).rejects.toMatchObject({
        code: 'STORE_INVALID_ARGUMENT',
      });
    });
    it('lists the tickets due by a time, earliest first, leaving out those a poller holds', async () => {
      const clock = fakeClock();
      const { schedule } = backend.namespace(clock).open();
      const now = clock.now();
      await schedule.pollAt('IT-1', now);
      await schedule.pollAt('IT-2', now + 20_000);
      await schedule.pollAt('IT-3', now + 10_000);
      await schedule.pollAt('IT-4', now + 90_000);
      await schedule.claimDue(1, LEASE);
      expect(await schedule.dueWithin(now + 30_000, 10)).toEqual([
        { ticketId: 'IT-3', dueAt: now + 10_000 },
        { ticketId: 'IT-2', dueAt: now + 20_000 },
      ]);
      expect(await schedule.dueWithin(now + 90_000, 2)).toEqual([
        { ticketId: 'IT-3', dueAt: now + 10_000 },
        { ticketId: 'IT-2', dueAt: now + 20_000 },
      ]);
    });

    it('lists a ticket again once the claim on it lapsed', async () => {
      const clock = fakeClock();
      const { schedule } = backend.namespace(clock).open();
      await schedule.pollAt('IT-1', clock.now());
      const claim = only(await schedule.claimDue(10, LEASE));
      clock.advance(LEASE);
      expect(await schedule.dueWithin(clock.now(), 10)).toEqual([
        { ticketId: 'IT-1', dueAt: claim.leaseExpiresAt },
      ]);
    });

    it('postpones a ticket still due when it was seen due', async () => {
      const clock = fakeClock();
      const { schedule } = backend.namespace(clock).open();
      const now = clock.now();
      await schedule.pollAt('IT-1', now + 5_000);
      expect(await schedule.postpone('IT-1', now + 5_000, now + 60_000)).toBe(true);
      expect(await schedule.dueAt('IT-1')).toBe(now + 60_000);
    });

    it('does not postpone a ticket a hint moved since it was seen', async () => {
      const clock = fakeClock();
      const { schedule } = backend.namespace(clock).open();
      const now = clock.now();
      await schedule.pollAt('IT-1', now + 5_000);
      await schedule.pollAt('IT-1', now + 1_000);
      expect(await schedule.postpone('IT-1', now + 5_000, now + 60_000)).toBe(false);
      expect(await schedule.dueAt('IT-1')).toBe(now + 1_000);
    });

    it('does not postpone a ticket a poller holds, nor one whose claim lapsed unfinished', async () => {
      const clock = fakeClock();
      const { schedule } = backend.namespace(clock).open();
      await schedule.pollAt('IT-1', clock.now());
      const claim = only(await schedule.claimDue(10, LEASE));
      expect(await schedule.postpone('IT-1', claim.leaseExpiresAt, clock.now() + LEASE * 2)).toBe(
        false,
      );
      clock.advance(LEASE + 1);
      expect(await schedule.postpone('IT-1', claim.leaseExpiresAt, clock.now() + LEASE * 2)).toBe(
        false,
      );
      expect(await schedule.dueAt('IT-1')).toBe(claim.leaseExpiresAt);
    });

    it('never moves a poll earlier, nor one that is not scheduled', async () => {
      const clock = fakeClock();
      const { schedule } = backend.namespace(clock).open();
      const now = clock.now();
      await schedule.pollAt('IT-1', now + 5_000);
      expect(await schedule.postpone('IT-1', now + 5_000, now + 1_000)).toBe(false);
      expect(await schedule.postpone('IT-2', now + 5_000, now + 60_000)).toBe(false);
      expect(await schedule.dueAt('IT-1')).toBe(now + 5_000);
      expect(await schedule.dueAt('IT-2')).toBeUndefined();
    });
  });
}

/** The outbox contract: every backend's Outbox must pass it. */

import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { Outbox, ReservedEntry } from '../../../src/store/types.ts';
import type { StoresBackend } from './harness.ts';
import { fakeClock } from './harness.ts';

const LEASE = 30_000;

// Everything JSON can carry, including what Lua's cjson would alter if it ever decoded it.
const AWKWARD_PAYLOAD = {
  text: 'slash / quote " backslash \\ newline \n snowman \u2603 emoji \u{1F3AB}',
  empty: [],
  nested: { empty: {}, list: [1, 'two', null, true] },
  fraction: 0.1,
  big: 9_007_199_254_740_991,
  negative: -12,
};

function reserved(entry: ReservedEntry | undefined): ReservedEntry {
  if (!entry) throw new Error('expected an entry');
  return entry;
}

/** A watch on an outbox, counting what it hears from the moment `watching` returns. */
interface Watching {
  count(): number;
  /** Waits (at most 5 s) until `n` announcements were heard, then a little longer, and checks. */
  heard(n: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Watches each outbox once every watch is live. A subscription takes a moment to reach Redis
 * and nothing says when, so probes are enqueued until every watch heard one; counting starts
 * after that.
 */
async function watching(...outboxes: Outbox[]): Promise<Watching[]> {
  const calls = outboxes.map(() => 0);
  const stops = outboxes.map((outbox, i) =>
    outbox.watch(() => {
      calls[i] = (calls[i] ?? 0) + 1;
    }),
  );
  const deadline = Date.now() + 5_000;
  for (let probe = 0; calls.some((n) => n === 0); probe++) {
    if (Date.now() > deadline) throw new Error('a watch never heard anything');
    await outboxes[0]?.enqueue(`probe:${probe}`, 'probe', {});
    await sleep(20);
  }
  // Late echoes of the probes settle before counting starts.
  await sleep(50);
  return outboxes.map((_, i) => {
    const start = calls[i] ?? 0;
    const count = () => (calls[i] ?? 0) - start;
    return {
      count,
      async heard(n) {
        const until = Date.now() + 5_000;
        while (count() < n && Date.now() < until) await sleep(10);
        await sleep(50);
        expect(count()).toBe(n);
      },
      stop: stops[i] ?? (async () => undefined),
    };
  });
}

/** Registers the outbox contract against a backend. */
export function describeOutboxContract(backend: StoresBackend): void {
  describe('outbox', () => {
    it('enqueuing one delivery key twice makes one entry', async () => {
      const { outbox } = backend.namespace(fakeClock()).open();
      const first = await outbox.enqueue('view:V1', 'createTicket', { title: 'VPN' });
      const second = await outbox.enqueue('view:V1', 'createTicket', { title: 'VPN' });
      expect(first).toEqual({ enqueued: true, id: expect.any(String) });
      expect(second).toEqual({ enqueued: false, id: first.id, state: 'pending' });
      expect((await outbox.stats()).depth).toBe(1);
    });

    it('two replicas enqueuing one delivery key at once make one entry', async () => {
      const ns = backend.namespace(fakeClock());
      const outcomes = await Promise.all([
        ns.open(0).outbox.enqueue('ev:A1:T1:Ev1', 'addMessage', { text: 'hi' }),
        ns.open(1).outbox.enqueue('ev:A1:T1:Ev1', 'addMessage', { text: 'hi' }),
      ]);
      expect(outcomes.filter((o) => o.enqueued)).toHaveLength(1);
      expect(outcomes[0]?.id).toBe(outcomes[1]?.id);
      expect((await ns.open(0).outbox.stats()).depth).toBe(1);
    });

    it('reserve gives each due entry to one worker', async () => {
      const ns = backend.namespace(fakeClock());
      const { outbox } = ns.open(0);
      for (const n of [1, 2, 3, 4]) await outbox.enqueue(`ev:${n}`, 'addMessage', { n });
      const taken = await Promise.all(
        [0, 1, 2, 3, 4, 5].map((worker) => ns.open(worker).outbox.reserve(`w${worker}`, LEASE)),
      );
      const ids = taken.flatMap((entry) => (entry ? [entry.id] : []));
      expect(ids).toHaveLength(4);
      expect(new Set(ids).size).toBe(4);
    });

    it('reserve takes the oldest due entry first', async () => {
      const clock = fakeClock();
      const { outbox } = backend.namespace(clock).open();
      await outbox.enqueue('ev:later', 'addMessage', 'later', { runAt: clock.now() + 10 });
      await outbox.enqueue('ev:first', 'addMessage', 'first');
      await outbox.enqueue('ev:second', 'addMessage', 'second');
      clock.advance(10);
      const order = [];
      for (let i = 0; i < 3; i++) order.push(reserved(await outbox.reserve('w', LEASE)).payload);
      expect(order).toEqual(['first', 'second', 'later']);
    });

    it('an entry scheduled for later is not reserved before its time', async () => {
      const clock = fakeClock();
      const { outbox } = backend.namespace(clock).open();
      await outbox.enqueue('ev:1', 'addMessage', {}, { runAt: clock.now() + 5_000 });
      expect(await outbox.reserve('w', LEASE)).toBeUndefined();
      clock.advance(5_000);
      expect((await outbox.reserve('w', LEASE))?.deliveryKey).toBe('ev:1');
    });

    it('a reserved entry carries what was enqueued and the lease', async () => {
      const clock = fakeClock();
      const { outbox } = backend.namespace(clock).open();
      const { id } = await outbox.enqueue('ev:1', 'createTicket', { title: 'Printer' });
      const entry = await outbox.reserve('worker-a', LEASE);
      expect(entry).toEqual({
        id,
        deliveryKey: 'ev:1',
        kind: 'createTicket',
        payload: { title: 'Printer' },
        attempts: 0,
        createdAt: clock.now(),
        nextAttemptAt: clock.now(),
        leaseToken: expect.any(String),
        workerId: 'worker-a',
        leaseExpiresAt: clock.now() + LEASE,
      });
    });

    it('payloads come back exactly as they went in', async () => {
      const { outbox } = backend.namespace(fakeClock()).open();
      await outbox.enqueue('ev:1', 'addMessage', AWKWARD_PAYLOAD);
      expect(reserved(await outbox.reserve('w', LEASE)).payload).toEqual(AWKWARD_PAYLOAD);
    });

    it('a leased entry is invisible until its lease expires, then another worker gets it', async () => {
      const clock = fakeClock();
      const ns = backend.namespace(clock);
      await ns.open(0).outbox.enqueue('ev:1', 'addMessage', {});
      const first = reserved(await ns.open(0).outbox.reserve('crashed', LEASE));
      clock.advance(LEASE - 1);
      expect(await ns.open(1).outbox.reserve('survivor', LEASE)).toBeUndefined();
      clock.advance(1);
      const second = reserved(await ns.open(1).outbox.reserve('survivor', LEASE));
      expect(second.id).toBe(first.id);
      expect(second.workerId).toBe('survivor');
      expect(second.leaseToken).not.toBe(first.leaseToken);
    });

    it('retryAt delays an entry and counts the attempt', async () => {
      const clock = fakeClock();
      const { outbox } = backend.namespace(clock).open();
      await outbox.enqueue('ev:1', 'addMessage', {});
      const entry = reserved(await outbox.reserve('w', LEASE));
      const at = clock.now() + 2_000;
      expect(await outbox.retryAt(entry, at, 'HTTP 503')).toBe(true);
      expect(await outbox.reserve('w', LEASE)).toBeUndefined();
      clock.advance(2_000);
      const again = reserved(await outbox.reserve('w', LEASE));
      expect(again).toMatchObject({ id: entry.id, attempts: 1, nextAttemptAt: at });
      expect(again.lastError).toBe('HTTP 503');
    });

    it('complete records the result against the delivery key', async () => {
      const { outbox } = backend.namespace(fakeClock()).open();
      const { id } = await outbox.enqueue('view:V1', 'createTicket', { title: 'VPN' });
      const entry = reserved(await outbox.reserve('w', LEASE));
      expect(await outbox.complete(entry, { ticketId: 'IT-12' })).toBe(true);
      expect(await outbox.enqueue('view:V1', 'createTicket', { title: 'VPN' })).toEqual({
        enqueued: false,
        id,
        state: 'done',
        result: { ticketId: 'IT-12' },
      });
      expect(await outbox.stats()).toMatchObject({ depth: 0, inFlight: 0 });
    });

    it('amend gives a pending entry no worker took a newer payload, and it runs with it', async () => {
      const { outbox } = backend.namespace(fakeClock()).open();
      await outbox.enqueue('held:C1:1', 'hold', { text: 'typo' }, { runAt: 1 });
      expect(await outbox.amend('held:C1:1', 'hold', { text: 'fixed' }, '0002')).toBe('amended');
      expect(await outbox.amend('held:C1:1', 'hold', { text: 'older' }, '0001')).toBe('stale');
      expect(await outbox.amend('held:C1:1', 'hold', { text: 'again' }, '0002')).toBe('stale');
      expect(reserved(await outbox.reserve('w', LEASE)).payload).toEqual({ text: 'fixed' });
    });

    it('amend leaves an entry a worker took, even once its lease lapsed or it was retried', async () => {
      const clock = fakeClock();
      const { outbox } = backend.namespace(clock).open();
      await outbox.enqueue('held:1', 'hold', { text: 'a' });
      reserved(await outbox.reserve('w1', LEASE));
      expect(await outbox.amend('held:1', 'hold', { text: 'x' }, '1')).toBe('taken');
      clock.advance(LEASE + 1);
      expect(await outbox.amend('held:1', 'hold', { text: 'x' }, '1')).toBe('taken');
      const again = reserved(await outbox.reserve('w2', LEASE));
      await outbox.retryAt(again, clock.now(), 'HTTP 503');
      expect(await outbox.amend('held:1', 'hold', { text: 'x' }, '1')).toBe('taken');
      expect(reserved(await outbox.reserve('w3', LEASE)).payload).toEqual({ text: 'a' });
    });

    it('amend changes nothing under an unknown key, another kind or a finished key', async () => {
      const { outbox } = backend.namespace(fakeClock()).open();
      expect(await outbox.amend('held:none', 'hold', {}, '1')).toBe('taken');
      await outbox.enqueue('held:1', 'hold', { text: 'a' });
      expect(await outbox.amend('held:1', 'other', { text: 'x' }, '1')).toBe('taken');
      await outbox.complete(reserved(await outbox.reserve('w', LEASE)), { done: 1 });
      expect(await outbox.amend('held:1', 'hold', { text: 'x' }, '1')).toBe('taken');
    });

    it('delivery tells a key’s state and, once finished, its result or error', async () => {
      const { outbox } = backend.namespace(fakeClock()).open();
      expect(await outbox.delivery('view:V1')).toBeUndefined();
      await outbox.enqueue('view:V1', 'createTicket', { title: 'VPN' });
      expect(await outbox.delivery('view:V1')).toEqual({ state: 'pending' });
      await outbox.complete(reserved(await outbox.reserve('w', LEASE)), { ticketId: 'IT-12' });
      expect(await outbox.delivery('view:V1')).toEqual({
        state: 'done',
        result: { ticketId: 'IT-12' },
      });
      await outbox.enqueue('view:V2', 'createTicket', {});
      await outbox.fail(reserved(await outbox.reserve('w', LEASE)), 'HTTP 400');
      expect(await outbox.delivery('view:V2')).toEqual({ state: 'failed', error: 'HTTP 400' });
    });

    it('a finished delivery key is forgotten once it has been remembered long enough', async () => {
      const clock = fakeClock();
      const { outbox } = backend.namespace(clock).open();
      await outbox.enqueue('ev:1', 'addMessage', {}, { rememberMs: 60_000 });
      await outbox.complete(reserved(await outbox.reserve('w', LEASE)));
      clock.advance(60_000);
      expect((await outbox.enqueue('ev:1', 'addMessage', {})).enqueued).toBe(true);
    });

    it('fail moves the entry to the dead-letter list and marks its delivery key failed', async () => {
      const clock = fakeClock();
      const { outbox } = backend.namespace(clock).open();
      const { id } = await outbox.enqueue('view:V1', 'createTicket', AWKWARD_PAYLOAD);
      const createdAt = clock.now();
      clock.advance(1_000);
      expect(await outbox.fail(reserved(await outbox.reserve('w', LEASE)), 'HTTP 422')).toBe(true);
      expect(await outbox.deadLetters()).toEqual([
        {
          id,
          deliveryKey: 'view:V1',
          kind: 'createTicket',
          payload: AWKWARD_PAYLOAD,
          attempts: 1,
          createdAt,
          failedAt: createdAt + 1_000,
          error: 'HTTP 422',
        },
      ]);
      expect(await outbox.enqueue('view:V1', 'createTicket', {})).toEqual({
        enqueued: false,
        id,
        state: 'failed',
        error: 'HTTP 422',
      });
      expect((await outbox.stats()).depth).toBe(0);
    });

    it('the dead-letter list keeps only the newest entries up to its cap', async () => {
      const { outbox } = backend.namespace(fakeClock(), { deadLetterCap: 2 }).open();
      for (const n of [1, 2, 3]) {
        await outbox.enqueue(`ev:${n}`, 'addMessage', { n });
        await outbox.fail(reserved(await outbox.reserve('w', LEASE)), `failure ${n}`);
      }
      const letters = await outbox.deadLetters();
      expect(letters.map((letter) => letter.error)).toEqual(['failure 3', 'failure 2']);
    });

    it('a lease naming another delivery key cannot complete, retry or fail the entry', async () => {
      const { outbox } = backend.namespace(fakeClock()).open();
      await outbox.enqueue('ev:1', 'addMessage', {});
      await outbox.enqueue('ev:2', 'addMessage', {});
      const entry = reserved(await outbox.reserve('w', LEASE));
      const wrong = { ...entry, deliveryKey: 'ev:2' };
      expect(await outbox.complete(wrong, 'wrong')).toBe(false);
      expect(await outbox.retryAt(wrong, entry.nextAttemptAt, 'wrong')).toBe(false);
      expect(await outbox.fail(wrong, 'wrong')).toBe(false);
      expect(await outbox.enqueue('ev:2', 'addMessage', {})).toMatchObject({ state: 'pending' });
      expect(await outbox.complete(entry, 'right')).toBe(true);
    });

    it('a worker whose entry was taken over cannot complete, retry or fail it', async () => {
      const clock = fakeClock();
      const { outbox } = backend.namespace(clock).open();
      await outbox.enqueue('ev:1', 'addMessage', {});
      const stale = reserved(await outbox.reserve('slow', LEASE));
      clock.advance(LEASE);
      const current = reserved(await outbox.reserve('fast', LEASE));
      expect(await outbox.complete(stale, 'stale')).toBe(false);
      expect(await outbox.retryAt(stale, clock.now(), 'stale')).toBe(false);
      expect(await outbox.fail(stale, 'stale')).toBe(false);
      expect(await outbox.deadLetters()).toEqual([]);
      expect(await outbox.stats()).toMatchObject({ depth: 1, inFlight: 1 });
      expect(await outbox.complete(current, 'current')).toBe(true);
    });

    it('a worker whose lease lapsed may still finish the entry while nobody has taken it', async () => {
      const clock = fakeClock();
      const { outbox } = backend.namespace(clock).open();
      await outbox.enqueue('ev:1', 'addMessage', {});
      const entry = reserved(await outbox.reserve('slow', LEASE));
      clock.advance(LEASE * 2);
      expect(await outbox.complete(entry, 'late')).toBe(true);
      expect(await outbox.reserve('other', LEASE)).toBeUndefined();
    });

    it('an entry can be finished only once', async () => {
      const { outbox } = backend.namespace(fakeClock()).open();
      await outbox.enqueue('ev:1', 'addMessage', {});
      const entry = reserved(await outbox.reserve('w', LEASE));
      expect(await outbox.complete(entry)).toBe(true);
      expect(await outbox.complete(entry)).toBe(false);
      expect(await outbox.fail(entry, 'late')).toBe(false);
    });

    it('stats report the depth, the age of the oldest entry and the entries in flight', async () => {
      const clock = fakeClock();
      const { outbox } = backend.namespace(clock).open();
      expect(await outbox.stats()).toEqual({ depth: 0, oldestAgeMs: 0, inFlight: 0 });
      await outbox.enqueue('ev:1', 'addMessage', {});
      clock.advance(4_000);
      await outbox.enqueue('ev:2', 'addMessage', {});
      await outbox.enqueue('ev:3', 'addMessage', {});
      await outbox.reserve('w', LEASE);
      clock.advance(1_000);
      expect(await outbox.stats()).toEqual({ depth: 3, oldestAgeMs: 5_000, inFlight: 1 });
      expect(await outbox.stats(clock.now() + LEASE)).toEqual({
        depth: 3,
        oldestAgeMs: 5_000 + LEASE,
        inFlight: 0,
      });
    });

    it('an entry enqueued with leaseTo comes back already leased to that worker', async () => {
      const clock = fakeClock();
      const ns = backend.namespace(clock);
      const outcome = await ns.open(0).outbox.enqueue('view:V1', 'createTicket', AWKWARD_PAYLOAD, {
        leaseTo: { workerId: 'web-1', leaseMs: LEASE },
      });
      if (!outcome.enqueued) throw new Error('expected a new entry');
      expect(outcome.reserved).toMatchObject({
        id: outcome.id,
        deliveryKey: 'view:V1',
        kind: 'createTicket',
        payload: AWKWARD_PAYLOAD,
        attempts: 0,
        createdAt: clock.now(),
        nextAttemptAt: clock.now(),
        workerId: 'web-1',
        leaseExpiresAt: clock.now() + LEASE,
        leaseToken: expect.any(String),
      });
      expect(await ns.open(1).outbox.reserve('other', LEASE)).toBeUndefined();
      expect(await ns.open(0).outbox.stats()).toMatchObject({ depth: 1, inFlight: 1 });
    });

    it('the worker an entry was enqueued to can complete it', async () => {
      const ns = backend.namespace(fakeClock());
      const outcome = await ns.open(0).outbox.enqueue(
        'view:V1',
        'createTicket',
        {},
        {
          leaseTo: { workerId: 'web-1', leaseMs: LEASE },
        },
      );
      const entry = outcome.enqueued ? reserved(outcome.reserved) : reserved(undefined);
      expect(await ns.open(0).outbox.complete(entry, { ticketId: 'IT-1' })).toBe(true);
      expect(await ns.open(1).outbox.enqueue('view:V1', 'createTicket', {})).toMatchObject({
        enqueued: false,
        state: 'done',
        result: { ticketId: 'IT-1' },
      });
    });

    it('an entry enqueued with leaseTo goes to another worker once that lease lapses', async () => {
      const clock = fakeClock();
      const ns = backend.namespace(clock);
      const outcome = await ns.open(0).outbox.enqueue(
        'view:V1',
        'createTicket',
        {},
        {
          leaseTo: { workerId: 'crashed', leaseMs: LEASE },
        },
      );
      clock.advance(LEASE);
      expect(await ns.open(1).outbox.reserve('survivor', LEASE)).toMatchObject({
        id: outcome.id,
        workerId: 'survivor',
        attempts: 0,
      });
    });

    it('an enqueue refuses a leaseTo without a worker or a lease time', async () => {
      const { outbox } = backend.namespace(fakeClock()).open();
      await expect(
        outbox.enqueue('ev:1', 'addMessage', {}, { leaseTo: { workerId: '', leaseMs: LEASE } }),
      ).rejects.toThrow(/workerId/);
      await expect(
        outbox.enqueue('ev:1', 'addMessage', {}, { leaseTo: { workerId: 'w', leaseMs: 0 } }),
      ).rejects.toThrow(/leaseMs/);
      expect((await outbox.stats()).depth).toBe(0);
    });

    describe('dead letters', () => {
      /** An outbox with one dead letter, failed a second after it was enqueued. */
      async function withDeadLetter(clock = fakeClock(), options: { deadLetterCap?: number } = {}) {
        const ns = backend.namespace(clock, options);
        const { outbox } = ns.open(0);
        const { id } = await outbox.enqueue('view:V1', 'createTicket', AWKWARD_PAYLOAD);
        const entry = reserved(await outbox.reserve('w', LEASE));
        await outbox.retryAt(entry, clock.now(), 'HTTP 503');
        clock.advance(1_000);
        await outbox.fail(reserved(await outbox.reserve('w', LEASE)), 'HTTP 422');
        return { ns, outbox, id, clock };
      }

      it('a dead letter can be read by its id', async () => {
        const { outbox, id, clock } = await withDeadLetter();
        expect(await outbox.deadLetter(id)).toEqual({
          id,
          deliveryKey: 'view:V1',
          kind: 'createTicket',
          payload: AWKWARD_PAYLOAD,
          attempts: 2,
          createdAt: clock.now() - 1_000,
          failedAt: clock.now(),
          error: 'HTTP 422',
        });
      });

      it('an id that is not a dead letter reads as nothing, a queued entry’s included', async () => {
        const { outbox } = backend.namespace(fakeClock()).open();
        const { id } = await outbox.enqueue('ev:1', 'addMessage', {});
        expect(await outbox.deadLetter(id)).toBeUndefined();
        expect(await outbox.deadLetter('000000000999')).toBeUndefined();
      });

      it('a retried dead letter is due at once with no attempts, created anew', async () => {
        const { ns, id, clock } = await withDeadLetter();
        clock.advance(5_000);
        expect(await ns.open(0).outbox.retryDeadLetter(id)).toBe('requeued');
        expect(await ns.open(1).outbox.reserve('w', LEASE)).toMatchObject({
          id,
          deliveryKey: 'view:V1',
          kind: 'createTicket',
          payload: AWKWARD_PAYLOAD,
          attempts: 0,
          createdAt: clock.now(),
          nextAttemptAt: clock.now(),
        });
      });

      it('a retried dead letter leaves the dead-letter list and its delivery key is pending', async () => {
        const { outbox, id } = await withDeadLetter();
        await outbox.retryDeadLetter(id);
        expect(await outbox.deadLetters()).toEqual([]);
        expect(await outbox.deadLetter(id)).toBeUndefined();
        expect(await outbox.enqueue('view:V1', 'createTicket', {})).toEqual({
          enqueued: false,
          id,
          state: 'pending',
        });
        expect((await outbox.stats()).depth).toBe(1);
      });

      it('a retried dead letter counts its queue age from the retry', async () => {
        const { outbox, id, clock } = await withDeadLetter();
        clock.advance(60_000);
        await outbox.retryDeadLetter(id);
        clock.advance(2_000);
        expect(await outbox.stats()).toEqual({ depth: 1, oldestAgeMs: 2_000, inFlight: 0 });
      });

      it('a retried dead letter that fails again is a dead letter again', async () => {
        const { outbox, id, clock } = await withDeadLetter();
        await outbox.retryDeadLetter(id);
        await outbox.fail(reserved(await outbox.reserve('w', LEASE)), 'HTTP 422 again');
        expect(await outbox.deadLetters()).toEqual([
          expect.objectContaining({
            id,
            attempts: 1,
            failedAt: clock.now(),
            error: 'HTTP 422 again',
          }),
        ]);
      });

      it('a dead letter retried twice is queued once', async () => {
        const { outbox, id } = await withDeadLetter();
        expect(await outbox.retryDeadLetter(id)).toBe('requeued');
        expect(await outbox.retryDeadLetter(id)).toBe('not-found');
        expect((await outbox.stats()).depth).toBe(1);
      });

      it('retrying an id that is not a dead letter changes nothing', async () => {
        const { outbox } = backend.namespace(fakeClock()).open();
        const { id } = await outbox.enqueue('ev:1', 'addMessage', {});
        expect(await outbox.retryDeadLetter(id)).toBe('not-found');
        expect(await outbox.retryDeadLetter('000000000999')).toBe('not-found');
        expect(await outbox.stats()).toMatchObject({ depth: 1 });
      });

      it('a dead letter whose delivery key was queued anew is not retried', async () => {
        const clock = fakeClock();
        const { outbox } = backend.namespace(clock).open();
        const { id } = await outbox.enqueue('ev:1', 'addMessage', {}, { rememberMs: 60_000 });
        await outbox.fail(reserved(await outbox.reserve('w', LEASE)), 'HTTP 422');
        clock.advance(60_000);
        const again = await outbox.enqueue('ev:1', 'addMessage', {});
        expect(await outbox.retryDeadLetter(id)).toBe('superseded');
        expect(await outbox.deadLetter(id)).toMatchObject({ id });
        expect(await outbox.enqueue('ev:1', 'addMessage', {})).toMatchObject({
          enqueued: false,
          id: again.id,
        });
        expect((await outbox.stats()).depth).toBe(1);
      });

      it('a dead letter whose delivery key was forgotten is retried', async () => {
        const clock = fakeClock();
        const { outbox } = backend.namespace(clock).open();
        const { id } = await outbox.enqueue('ev:1', 'addMessage', {}, { rememberMs: 60_000 });
        await outbox.fail(reserved(await outbox.reserve('w', LEASE)), 'HTTP 422');
        clock.advance(60_000);
        expect(await outbox.retryDeadLetter(id)).toBe('requeued');
        expect(await outbox.enqueue('ev:1', 'addMessage', {})).toEqual({
          enqueued: false,
          id,
          state: 'pending',
        });
      });

      it('dropping a dead letter deletes it and leaves its delivery key failed', async () => {
        const { outbox, id } = await withDeadLetter();
        expect(await outbox.dropDeadLetter(id)).toBe(true);
        expect(await outbox.deadLetters()).toEqual([]);
        expect(await outbox.deadLetter(id)).toBeUndefined();
        expect(await outbox.retryDeadLetter(id)).toBe('not-found');
        expect(await outbox.enqueue('view:V1', 'createTicket', {})).toMatchObject({
          enqueued: false,
          state: 'failed',
        });
      });

      it('dropping an id that is not a dead letter changes nothing', async () => {
        const { outbox } = backend.namespace(fakeClock()).open();
        const { id } = await outbox.enqueue('ev:1', 'addMessage', {});
        expect(await outbox.dropDeadLetter(id)).toBe(false);
        expect(await outbox.dropDeadLetter('000000000999')).toBe(false);
        expect((await outbox.reserve('w', LEASE))?.id).toBe(id);
      });

      it('a dead letter pushed out by the cap can no longer be read or retried', async () => {
        const { outbox, id } = await withDeadLetter(fakeClock(), { deadLetterCap: 1 });
        await outbox.enqueue('ev:2', 'addMessage', {});
        await outbox.fail(reserved(await outbox.reserve('w', LEASE)), 'HTTP 404');
        expect(await outbox.deadLetter(id)).toBeUndefined();
        expect(await outbox.retryDeadLetter(id)).toBe('not-found');
        expect((await outbox.deadLetters()).map((letter) => letter.error)).toEqual(['HTTP 404']);
      });

      it('watchers hear of a retried dead letter', async () => {
        const { ns, id } = await withDeadLetter();
        const [watcher] = await watching(ns.open(1).outbox);
        await ns.open(0).outbox.retryDeadLetter(id);
        await watcher?.heard(1);
        await watcher?.stop();
      });
    });

    it('watchers on every replica hear of a new entry that is due at once', async () => {
      const ns = backend.namespace(fakeClock());
      const [first, second] = await watching(ns.open(0).outbox, ns.open(1).outbox);
      await ns.open(0).outbox.enqueue('ev:1', 'addMessage', {});
      await first?.heard(1);
      await second?.heard(1);
      await Promise.all([first?.stop(), second?.stop()]);
    });

    it('watchers do not hear of an entry due later, a leased one or a known delivery key', async () => {
      const clock = fakeClock();
      const ns = backend.namespace(clock);
      const { outbox } = ns.open(0);
      await outbox.enqueue('ev:known', 'addMessage', {});
      const [watcher] = await watching(ns.open(1).outbox);
      await outbox.enqueue('ev:later', 'addMessage', {}, { runAt: clock.now() + 1_000 });
      await outbox.enqueue(
        'view:V1',
        'createTicket',
        {},
        {
          leaseTo: { workerId: 'web-1', leaseMs: LEASE },
        },
      );
      await outbox.enqueue('ev:known', 'addMessage', {});
      // Announcements arrive in order, so once this one is heard none of the above can follow.
      await outbox.enqueue('ev:now', 'addMessage', {});
      await watcher?.heard(1);
      await watcher?.stop();
    });

    it('a stopped watch hears nothing more while another goes on', async () => {
      const ns = backend.namespace(fakeClock());
      const { outbox } = ns.open(0);
      const [stopped, going] = await watching(outbox, outbox);
      await stopped?.stop();
      await outbox.enqueue('ev:1', 'addMessage', {});
      await going?.heard(1);
      expect(stopped?.count()).toBe(0);
      await going?.stop();
    });

    if (backend.durable) {
      it('entries survive a new store instance on the same backend', async () => {
        const clock = fakeClock();
        const ns = backend.namespace(clock);
        const { id } = await ns.open(0).outbox.enqueue('ev:1', 'addMessage', { text: 'kept' });
        const restarted = ns.open(1).outbox;
        expect((await restarted.stats()).depth).toBe(1);
        expect(await restarted.reserve('w', LEASE)).toMatchObject({
          id,
          payload: { text: 'kept' },
        });
        expect(await restarted.enqueue('ev:1', 'addMessage', {})).toMatchObject({
          enqueued: false,
          id,
        });
      });
    }
  });
}

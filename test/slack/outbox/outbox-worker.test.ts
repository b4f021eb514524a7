import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { ServerError, ValidationError } from '../../../src/servicedesk/index.ts';
import { ChangeRefusedError } from '../../../src/slack/errors.ts';
import type { IntentHandler } from '../../../src/slack/outbox/outbox-worker.ts';
import { OutboxWorker } from '../../../src/slack/outbox/outbox-worker.ts';
import { createMemoryStores } from '../../../src/store/index.ts';

const silent = pino({ level: 'silent' });
const apiInit = (status: number, body: unknown) => ({
  operation: 'createTicket' as const,
  method: 'POST',
  path: '/api/v1/tickets/',
  status,
  headers: {},
  body,
});

function setup(handler: Partial<IntentHandler>, clock = { now: 1_000_000 }) {
  const stores = createMemoryStores({ now: () => clock.now });
  const told: string[] = [];
  const reported: unknown[] = [];
  const full: IntentHandler = {
    run: async () => ({ ok: true }),
    failed: async (_e, error) => {
      told.push(`failed:${(error as Error).name}`);
    },
    delayed: async () => {
      told.push('delayed');
    },
    ...handler,
  };
  const worker = new OutboxWorker({
    outbox: stores.outbox,
    handlers: { test: full },
    logger: silent,
    report: (error) => reported.push(error),
    now: () => clock.now,
    random: () => 0.5,
    backoffBaseMs: 1_000,
    maxAgeMs: 60_000,
  });
  return { stores, worker, told, reported, clock };
}

describe('outbox worker', () => {
  it('completes an entry with the handler’s result and remembers it against the delivery key', async () => {
    const { stores, worker } = setup({ run: async () => ({ ticketId: 'IT-1' }) });
    await stores.outbox.enqueue('k1', 'test', {});
    expect(await worker.runOnce()).toBe(true);
    const again = await stores.outbox.enqueue('k1', 'test', {});
    expect(again).toMatchObject({ enqueued: false, state: 'done', result: { ticketId: 'IT-1' } });
  });

  it('retries a platform outage later and tells the person once', async () => {
    const { stores, worker, told, clock } = setup({
      run: async () => {
        throw new ServerError(apiInit(503, { detail: 'down' }));
      },
    });
    await stores.outbox.enqueue('k1', 'test', {});
    await worker.runOnce();
    expect(await worker.runOnce()).toBe(false); // not due yet: backing off
    clock.now += 10_000;
    await worker.runOnce();
    expect(told).toEqual(['delayed']);
    expect((await stores.outbox.stats(clock.now)).depth).toBe(1);
  });

  it('fails a refused write for good and tells the person why', async () => {
    const { stores, worker, told } = setup({
      run: async () => {
        throw new ValidationError(
          apiInit(422, {
            detail: [{ loc: ['body', 'title'], msg: 'Field required', type: 'missing' }],
          }),
        );
      },
    });
    await stores.outbox.enqueue('k1', 'test', {});
    await worker.runOnce();
    expect(told).toEqual(['failed:ValidationError']);
    expect((await stores.outbox.deadLetters())[0]?.deliveryKey).toBe('k1');
  });

  it('tells the person of a change the app refused and finishes the entry without a dead letter', async () => {
    const { stores, worker, told, clock } = setup({
      run: async () => {
        throw new ChangeRefusedError('IT-7', 'not_visible');
      },
    });
    await stores.outbox.enqueue('action:T1:U2:mark_resolved:1.1', 'test', {});
    await worker.runOnce();
    expect(told).toEqual(['failed:ChangeRefusedError']);
    expect(await stores.outbox.deadLetters()).toEqual([]);
    expect((await stores.outbox.stats(clock.now)).depth).toBe(0);
    // The same delivery again is not run again.
    const again = await stores.outbox.enqueue('action:T1:U2:mark_resolved:1.1', 'test', {});
    expect(again).toMatchObject({ enqueued: false, state: 'done' });
  });

  it('gives up on a transient failure once the entry is older than the maximum age', async () => {
    const { stores, worker, told, clock } = setup({
      run: async () => {
        throw new ServerError(apiInit(500, {}));
      },
    });
    await stores.outbox.enqueue('k1', 'test', {});
    clock.now += 61_000;
    await worker.runOnce();
    expect(told).toEqual(['failed:ServerError']);
  });

  it('reports an unexpected error as a bug but keeps the entry for another attempt', async () => {
    const { stores, worker, reported, clock } = setup({
      run: async () => {
        throw new TypeError('bug');
      },
    });
    await stores.outbox.enqueue('k1', 'test', {});
    await worker.runOnce();
    expect(reported).toHaveLength(1);
    expect((await stores.outbox.stats(clock.now)).depth).toBe(1);
  });

  it('runs a submitted entry at once and lets the submitter see its outcome', async () => {
    const { worker } = setup({ run: async () => ({ ticketId: 'IT-9' }) });
    const { outcome, settled } = await worker.submit('k1', 'test', {}, 1_000);
    expect(outcome).toMatchObject({ enqueued: true });
    expect(settled).toEqual({ state: 'done', result: { ticketId: 'IT-9' } });
  });

  it('runs a submitted entry ahead of a backlog, with its loops not started', async () => {
    const ran: unknown[] = [];
    const { stores, worker, clock } = setup({
      run: async (entry) => {
        ran.push(entry.payload);
        return null;
      },
    });
    for (const n of [1, 2, 3]) await stores.outbox.enqueue(`queued:${n}`, 'test', { n });
    const { settled } = await worker.submit('mine', 'test', { mine: true }, 1_000);
    expect(settled?.state).toBe('done');
    expect(ran).toEqual([{ mine: true }]);
    expect((await stores.outbox.stats(clock.now)).depth).toBe(3);
  });

  it('answers a submission of a known delivery key with its outcome and runs nothing', async () => {
    let runs = 0;
    const { worker } = setup({
      run: async () => {
        runs += 1;
        return { ticketId: 'IT-1' };
      },
    });
    await worker.submit('k1', 'test', {}, 1_000);
    const again = await worker.submit('k1', 'test', {}, 1_000);
    expect(again).toEqual({
      outcome: {
        enqueued: false,
        id: expect.any(String),
        state: 'done',
        result: { ticketId: 'IT-1' },
      },
    });
    expect(runs).toBe(1);
  });

  it('finishes a submitted entry that outlasts the wait, and stop waits for it', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { stores, worker } = setup({
      run: async () => {
        await gate;
        return { ticketId: 'IT-2' };
      },
    });
    const { settled } = await worker.submit('k1', 'test', {}, 10);
    expect(settled).toBeUndefined();
    const stopped = worker.stop();
    release();
    await stopped;
    expect(await stores.outbox.enqueue('k1', 'test', {})).toMatchObject({
      state: 'done',
      result: { ticketId: 'IT-2' },
    });
  });

  it('tells a handler that its submitter is waiting, so it does not also notify', async () => {
    const contexts: boolean[] = [];
    const { worker } = setup({
      run: async () => {
        throw new ValidationError(apiInit(422, { detail: [] }));
      },
      failed: async (_e, _err, context) => {
        contexts.push(context.awaited);
      },
    });
    const { settled } = await worker.submit('k1', 'test', {}, 1_000);
    expect(settled?.state).toBe('failed');
    expect(contexts).toEqual([true]);
  });

  it('gathers entries announced close together and starts them after the window, not one by one', async () => {
    const stores = createMemoryStores();
    const started: number[] = [];
    const worker = new OutboxWorker({
      outbox: stores.outbox,
      handlers: {
        test: {
          run: async () => {
            started.push(Date.now());
            return null;
          },
          failed: async () => undefined,
        },
      },
      logger: silent,
      report: () => undefined,
      idleMs: 60_000,
      gatherMs: 200,
    });
    worker.start();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const announced = Date.now();
    for (const n of [1, 2, 3]) await stores.outbox.enqueue(`k${n}`, 'test', {});
    for (let i = 0; i < 200 && started.length < 3; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await worker.stop();
    expect(started).toHaveLength(3);
    // Timers may fire a millisecond early; none of the three started inside the window.
    expect(Math.min(...started) - announced).toBeGreaterThanOrEqual(195);
  });

  it('wakes when the outbox announces a new entry, without waiting for its next poll', async () => {
    const stores = createMemoryStores();
    const worker = new OutboxWorker({
      outbox: stores.outbox,
      handlers: { test: { run: async () => ({ ok: 1 }), failed: async () => undefined } },
      logger: silent,
      report: () => undefined,
      // Far longer than the test waits: only the announcement can explain the entry running.
      idleMs: 60_000,
    });
    worker.start();
    // The loops' first, empty looks at the outbox come and go before the entry exists.
    await new Promise((resolve) => setTimeout(resolve, 20));
    await stores.outbox.enqueue('k1', 'test', {});
    for (let i = 0; i < 200 && (await stores.outbox.stats()).depth > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await worker.stop();
    expect(await stores.outbox.enqueue('k1', 'test', {})).toMatchObject({ state: 'done' });
  });
});

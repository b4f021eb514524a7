import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { ServerError, ValidationError } from '../../../src/servicedesk/index.ts';
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

  it('lets a waiting request see the outcome of its entry', async () => {
    const { stores, worker } = setup({ run: async () => ({ ticketId: 'IT-9' }) });
    await stores.outbox.enqueue('k1', 'test', {});
    const waiting = worker.waitFor('k1', 1_000);
    await worker.runOnce();
    expect(await waiting).toEqual({ state: 'done', result: { ticketId: 'IT-9' } });
  });

  it('tells a waiting handler that someone is waiting, so it does not also notify', async () => {
    const contexts: boolean[] = [];
    const { stores, worker } = setup({
      run: async () => {
        throw new ValidationError(apiInit(422, { detail: [] }));
      },
      failed: async (_e, _err, context) => {
        contexts.push(context.awaited);
      },
    });
    await stores.outbox.enqueue('k1', 'test', {});
    const waiting = worker.waitFor('k1', 1_000);
    await worker.runOnce();
    await waiting;
    expect(contexts).toEqual([true]);
  });

  it('processes entries in the background once started and stops cleanly', async () => {
    const { stores, worker } = setup({ run: async () => ({ ok: 1 }) });
    worker.start();
    await stores.outbox.enqueue('k1', 'test', {});
    worker.wake();
    const settled = await worker.waitFor('k1', 2_000);
    await worker.stop();
    expect(settled?.state).toBe('done');
  });
});

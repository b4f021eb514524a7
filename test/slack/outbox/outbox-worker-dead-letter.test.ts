/** A dead letter retried from the shell (`npm run outbox -- retry`) runs like a new entry. */
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { ServerError, ValidationError } from '../../../src/servicedesk/index.ts';
import { OutboxWorker } from '../../../src/slack/outbox/outbox-worker.ts';
import { createMemoryStores } from '../../../src/store/index.ts';

const apiInit = (status: number, body: unknown) => ({
  operation: 'createTicket' as const,
  method: 'POST',
  path: '/api/v1/tickets/',
  status,
  headers: {},
  body,
});

describe('outbox worker with a retried dead letter', () => {
  it('retries it with the full retry time and tells the person again when it fails again', async () => {
    const clock = { now: 1_000_000 };
    const stores = createMemoryStores({ now: () => clock.now });
    let failure: Error = new ServerError(apiInit(503, { detail: 'down' }));
    const told: string[] = [];
    const worker = new OutboxWorker({
      outbox: stores.outbox,
      handlers: {
        test: {
          run: async () => {
            throw failure;
          },
          failed: async (entry) => {
            told.push(`failed after ${entry.attempts + 1}`);
          },
          delayed: async () => {
            told.push('delayed');
          },
        },
      },
      logger: pino({ level: 'silent' }),
      report: () => undefined,
      now: () => clock.now,
      random: () => 0.5,
      maxAgeMs: 60_000,
    });
    const { id } = await stores.outbox.enqueue('view:V1', 'test', { title: 'VPN' });
    await worker.runOnce();
    clock.now += 60_000;
    await worker.runOnce();
    expect(told).toEqual(['delayed', 'failed after 2']);

    // Days later the platform answers again and someone retries the entry from the shell.
    clock.now += 3 * 86_400_000;
    expect(await stores.outbox.retryDeadLetter(id)).toBe('requeued');
    await worker.runOnce();
    expect(await stores.outbox.deadLetters()).toEqual([]);
    failure = new ValidationError(
      apiInit(422, {
        detail: [{ loc: ['body', 'title'], msg: 'Field required', type: 'missing' }],
      }),
    );
    clock.now += 10_000;
    expect(await worker.runOnce()).toBe(true);
    expect(told).toEqual(['delayed', 'failed after 2', 'delayed', 'failed after 2']);
    expect(await stores.outbox.deadLetter(id)).toMatchObject({ id, attempts: 2 });
  });
});

/** An error that says when to come back is not retried before then. */
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { OutboxWorker } from '../../../src/slack/outbox/outbox-worker.ts';
import { createMemoryStores } from '../../../src/store/index.ts';

class NoRoomUntil extends Error {
  readonly code = 'mirror_budget_exhausted';
  readonly retryAt: number;
  constructor(retryAt: number) {
    super('no budget');
    this.retryAt = retryAt;
  }
}

describe('outbox worker retry hints', () => {
  it('retries an entry no sooner than the retryAt its error names', async () => {
    const clock = { now: 1_000_000 };
    const stores = createMemoryStores({ now: () => clock.now });
    const worker = new OutboxWorker({
      outbox: stores.outbox,
      handlers: {
        test: {
          run: async () => {
            throw new NoRoomUntil(clock.now + 45_000);
          },
          failed: async () => undefined,
        },
      },
      logger: pino({ level: 'silent' }),
      report: () => undefined,
      now: () => clock.now,
      random: () => 0.5,
      backoffBaseMs: 1_000,
    });
    await stores.outbox.enqueue('k1', 'test', {});
    expect(await worker.runOnce()).toBe(true);
    clock.now += 44_999;
    expect(await worker.runOnce()).toBe(false);
    clock.now += 1_000;
    expect(await worker.runOnce()).toBe(true);
  });
});

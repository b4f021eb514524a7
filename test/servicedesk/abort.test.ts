import { afterEach, describe, expect, it, vi } from 'vitest';
import { AbortError } from '../../src/servicedesk/index.ts';
import { envelope, type Harness, harness, rejectionOf } from './fixtures.ts';

describe('abort signals', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('sends nothing when the signal is already aborted', async () => {
    const acquire = vi.fn(async () => {});
    h = harness({ acquire });
    const reason = new Error('shutting down');
    const error = await rejectionOf(h.client.listDesks({ signal: AbortSignal.abort(reason) }));
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).cause).toBe(reason);
    expect(acquire).not.toHaveBeenCalled();
    expect(h.calls()).toHaveLength(0);
  });

  it('aborts a wait between retries', async () => {
    const controller = new AbortController();
    h = harness({
      sleep: async (_ms, signal) => {
        controller.abort(new Error('user left'));
        signal?.throwIfAborted();
      },
    });
    h.pool.intercept({ path: '/api/v1/desks/', method: 'GET' }).reply(503, { detail: 'busy' });
    const error = await rejectionOf(h.client.listDesks({ signal: controller.signal }));
    expect(error).toBeInstanceOf(AbortError);
    expect(String((error as AbortError).cause)).toContain('user left');
    expect(h.calls()).toHaveLength(1);
  });

  it('aborts a request in flight', async () => {
    const controller = new AbortController();
    h = harness({
      acquire: async () => {
        setImmediate(() => controller.abort());
      },
    });
    h.pool
      .intercept({ path: '/api/v1/desks/', method: 'GET' })
      .reply(200, envelope([]))
      .delay(60_000);
    const error = await rejectionOf(h.client.listDesks({ signal: controller.signal }));
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).operation).toBe('listDesks');
  });

  it('aborts while the acquire hook waits', async () => {
    const controller = new AbortController();
    h = harness({
      acquire: ({ signal }) =>
        new Promise((_resolve, reject) => {
          signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
          setImmediate(() => controller.abort());
        }),
    });
    const error = await rejectionOf(h.client.listDesks({ signal: controller.signal }));
    expect(error).toBeInstanceOf(AbortError);
    expect(h.calls()).toHaveLength(0);
  });
});

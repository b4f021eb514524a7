import { afterEach, describe, expect, it } from 'vitest';
import {
  ConnectionError,
  hashIdempotencyKey,
  NotFoundError,
  RateLimitError,
  ResponseValidationError,
  ServerError,
  UnexpectedStatusError,
} from '../../src/servicedesk/index.ts';
import { envelope, type Harness, harness, rejectionOf, T0, ticket } from './fixtures.ts';

const resetError = () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });

describe('retries', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('reuses the idempotency key on every retry', async () => {
    h = harness();
    const key = hashIdempotencyKey('A0APP:T0TEAM:Ev0EVENT');
    const post = { path: '/api/v1/tickets/', method: 'POST' };
    h.pool.intercept(post).reply(503, { detail: 'busy' });
    h.pool.intercept(post).replyWithError(resetError());
    h.pool.intercept(post).reply(201, ticket());
    const created = await h.client.createTicket({ title: 'VPN is down' }, { idempotencyKey: key });
    expect(created.id).toBe('IT-42');
    const keys = h.calls().map((call) => call.headers?.['x-idempotency-key']);
    expect(keys).toEqual([key, key, key]);
  });

  it('retries an add-message POST that carries a key', async () => {
    h = harness();
    const post = { path: '/api/v1/tickets/IT-42/messages/', method: 'POST' };
    h.pool.intercept(post).reply(500, { detail: 'oops' });
    h.pool.intercept(post).reply(201, {
      id: 'm1',
      ticket_id: 'IT-42',
      body: 'hello',
      created_at: '2026-01-01T00:00:00Z',
      internal: false,
      author: { type: 'requester', name: 'Ann', email: 'ann@example.com' },
    });
    const message = await h.client.addMessage(
      'IT-42',
      { body: 'hello' },
      { idempotencyKey: 'k-1' },
    );
    expect(message.id).toBe('m1');
    expect(h.calls()).toHaveLength(2);
  });

  it('does not retry a POST without a key', async () => {
    h = harness();
    h.pool.intercept({ path: '/api/v1/tickets/', method: 'POST' }).reply(503, { detail: 'busy' });
    const error = await rejectionOf(h.client.createTicket({ title: 'x' }));
    expect(error).toBeInstanceOf(ServerError);
    expect(h.calls()).toHaveLength(1);
    expect(h.sleeps).toEqual([]);
  });

  it('does not retry a POST without a key after a connection error', async () => {
    h = harness();
    h.pool
      .intercept({ path: '/api/v1/tickets/IT-1/messages/', method: 'POST' })
      .replyWithError(resetError());
    const error = await rejectionOf(h.client.addMessage('IT-1', { body: 'x' }));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(h.calls()).toHaveLength(1);
  });

  it('honours X-RateLimit-Reset on 429', async () => {
    h = harness();
    const reset = String(T0 / 1000 + 7);
    const get = { path: '/api/v1/tickets/IT-42/', method: 'GET' };
    h.pool.intercept(get).reply(
      429,
      { detail: 'Too many requests' },
      {
        headers: {
          'x-ratelimit-limit': '100',
          'x-ratelimit-remaining': '0',
          'x-ratelimit-reset': reset,
        },
      },
    );
    h.pool.intercept(get).reply(200, ticket());
    await h.client.getTicket('IT-42');
    expect(h.sleeps).toEqual([7000]);
  });

  it('honours Retry-After in seconds', async () => {
    h = harness();
    const get = { path: '/api/v1/desks/', method: 'GET' };
    h.pool.intercept(get).reply(429, { detail: 'slow' }, { headers: { 'retry-after': '2' } });
    h.pool.intercept(get).reply(200, envelope([]));
    await h.client.listDesks();
    expect(h.sleeps).toEqual([2000]);
  });

  it('honours Retry-After as an HTTP date', async () => {
    h = harness();
    const get = { path: '/api/v1/desks/', method: 'GET' };
    const at = new Date(T0 + 5000).toUTCString();
    h.pool.intercept(get).reply(503, { detail: 'maintenance' }, { headers: { 'retry-after': at } });
    h.pool.intercept(get).reply(200, envelope([]));
    await h.client.listDesks();
    expect(h.sleeps).toEqual([5000]);
  });

  it('prefers Retry-After to X-RateLimit-Reset', async () => {
    h = harness();
    const get = { path: '/api/v1/desks/', method: 'GET' };
    h.pool.intercept(get).reply(
      429,
      { detail: 'slow' },
      {
        headers: { 'retry-after': '1', 'x-ratelimit-reset': String(T0 / 1000 + 50) },
      },
    );
    h.pool.intercept(get).reply(200, envelope([]));
    await h.client.listDesks();
    expect(h.sleeps).toEqual([1000]);
  });

  it('ignores X-RateLimit-Reset on a 5xx and backs off instead', async () => {
    h = harness({ retry: { baseDelayMs: 100 } });
    const get = { path: '/api/v1/desks/', method: 'GET' };
    h.pool.intercept(get).reply(
      500,
      { detail: 'oops' },
      {
        headers: {
          'x-ratelimit-limit': '100',
          'x-ratelimit-remaining': '50',
          'x-ratelimit-reset': String(T0 / 1000 + 40),
        },
      },
    );
    h.pool.intercept(get).reply(200, envelope([]));
    await h.client.listDesks();
    expect(h.sleeps).toEqual([50]);
  });

  it('caps a server-requested wait at maxRetryAfterMs', async () => {
    h = harness({ retry: { maxRetryAfterMs: 1500 } });
    const get = { path: '/api/v1/desks/', method: 'GET' };
    h.pool.intercept(get).reply(429, { detail: 'slow' }, { headers: { 'retry-after': '20' } });
    h.pool.intercept(get).reply(200, envelope([]));
    await h.client.listDesks();
    expect(h.sleeps).toEqual([1500]);
  });

  it('backs off exponentially with full jitter when the server names no wait', async () => {
    h = harness({
      retry: { maxAttempts: 5, baseDelayMs: 100, maxDelayMs: 300 },
      random: () => 0.5,
    });
    const get = { path: '/api/v1/desks/', method: 'GET' };
    h.pool.intercept(get).reply(502, { detail: 'bad gateway' }).times(4);
    h.pool.intercept(get).reply(200, envelope([]));
    await h.client.listDesks();
    // random() * min(maxDelay, base * 2^n): 0.5 * 100, 200, 300 (capped), 300 (capped).
    expect(h.sleeps).toEqual([50, 100, 150, 150]);
  });

  it('stops after maxAttempts and throws the last error', async () => {
    h = harness({ retry: { maxAttempts: 3 } });
    const get = { path: '/api/v1/desks/', method: 'GET' };
    h.pool.intercept(get).reply(500, { detail: 'first' }).times(2);
    h.pool.intercept(get).reply(503, { detail: 'last' });
    const error = (await rejectionOf(h.client.listDesks())) as ServerError;
    expect(error.status).toBe(503);
    expect(h.calls()).toHaveLength(3);
    expect(h.sleeps).toHaveLength(2);
  });

  it('gives up at the deadline', async () => {
    h = harness({ retry: { maxAttempts: 10, deadlineMs: 10_000 } });
    const get = { path: '/api/v1/desks/', method: 'GET' };
    h.pool
      .intercept(get)
      .reply(503, { detail: 'busy' }, { headers: { 'retry-after': '4' } })
      .persist();
    const error = await rejectionOf(h.client.listDesks());
    expect(error).toBeInstanceOf(ServerError);
    // 4 s + 4 s fit in 10 s; a third 4 s wait would cross the deadline, so no third sleep.
    expect(h.sleeps).toEqual([4000, 4000]);
    expect(h.calls()).toHaveLength(3);
  });

  it('gives up at once when the first wait would cross the deadline', async () => {
    h = harness({ retry: { deadlineMs: 5_000 } });
    h.pool
      .intercept({ path: '/api/v1/desks/', method: 'GET' })
      .reply(429, { detail: 'slow' }, { headers: { 'retry-after': '30' } });
    const error = await rejectionOf(h.client.listDesks());
    expect(error).toBeInstanceOf(RateLimitError);
    expect(h.sleeps).toEqual([]);
    expect(h.calls()).toHaveLength(1);
  });

  it('retries a connection error on a GET', async () => {
    h = harness();
    const get = { path: '/api/v1/tickets/IT-42/', method: 'GET' };
    h.pool.intercept(get).replyWithError(resetError());
    h.pool.intercept(get).reply(200, ticket());
    await h.client.getTicket('IT-42');
    expect(h.calls()).toHaveLength(2);
  });

  it('retries a 408', async () => {
    h = harness();
    const get = { path: '/api/v1/desks/', method: 'GET' };
    h.pool.intercept(get).reply(408, { detail: 'timeout' });
    h.pool.intercept(get).reply(200, envelope([]));
    await h.client.listDesks();
    expect(h.calls()).toHaveLength(2);
  });

  it('retries a PATCH, which sets absolute values', async () => {
    h = harness();
    const patch = { path: '/api/v1/tickets/IT-42/', method: 'PATCH' };
    h.pool.intercept(patch).reply(502, { detail: 'bad gateway' });
    h.pool.intercept(patch).reply(200, ticket({ status: 'resolved' }));
    const updated = await h.client.updateTicket('IT-42', { status: 'resolved' });
    expect(updated.status).toBe('resolved');
    expect(h.calls()).toHaveLength(2);
  });

  it('does not retry a 404', async () => {
    h = harness();
    h.pool
      .intercept({ path: '/api/v1/tickets/IT-9/', method: 'GET' })
      .reply(404, { detail: 'nope' });
    expect(await rejectionOf(h.client.getTicket('IT-9'))).toBeInstanceOf(NotFoundError);
    expect(h.calls()).toHaveLength(1);
  });

  it('does not retry a 409', async () => {
    h = harness();
    h.pool.intercept({ path: '/api/v1/desks/', method: 'GET' }).reply(409, { detail: 'conflict' });
    expect(await rejectionOf(h.client.listDesks())).toBeInstanceOf(UnexpectedStatusError);
    expect(h.calls()).toHaveLength(1);
  });

  it('does not retry a response that breaks the schema', async () => {
    h = harness();
    h.pool.intercept({ path: '/api/v1/tickets/IT-42/', method: 'GET' }).reply(200, { id: 'IT-42' });
    expect(await rejectionOf(h.client.getTicket('IT-42'))).toBeInstanceOf(ResponseValidationError);
    expect(h.calls()).toHaveLength(1);
  });

  it('logs each retry as a warning with the wait', async () => {
    const warnings: object[] = [];
    h = harness({ logger: { debug() {}, warn: (obj) => warnings.push(obj) } });
    const get = { path: '/api/v1/desks/', method: 'GET' };
    h.pool.intercept(get).reply(429, { detail: 'slow' }, { headers: { 'retry-after': '1' } });
    h.pool.intercept(get).reply(200, envelope([]));
    await h.client.listDesks();
    expect(warnings).toEqual([
      expect.objectContaining({ operation: 'listDesks', attempt: 1, delayMs: 1000, status: 429 }),
    ]);
  });
});

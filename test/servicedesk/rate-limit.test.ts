import { afterEach, describe, expect, it } from 'vitest';
import type { RateLimitState } from '../../src/servicedesk/index.ts';
import { parseRateLimit, parseRetryAfterMs } from '../../src/servicedesk/rate-limit.ts';
import { envelope, type Harness, harness, rejectionOf, T0 } from './fixtures.ts';

const headers = (remaining: number) => ({
  'x-ratelimit-limit': '100',
  'x-ratelimit-remaining': String(remaining),
  'x-ratelimit-reset': String(T0 / 1000 + 60),
});

describe('rate-limit state', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('exposes the last X-RateLimit-* state as client.rateLimit', async () => {
    h = harness();
    expect(h.client.rateLimit).toBeUndefined();
    const get = { path: '/api/v1/desks/', method: 'GET' };
    h.pool.intercept(get).reply(200, envelope([]), { headers: headers(99) });
    h.pool.intercept(get).reply(200, envelope([]), { headers: headers(98) });
    await h.client.listDesks();
    await h.client.listDesks();
    expect(h.client.rateLimit).toEqual({
      limit: 100,
      remaining: 98,
      resetAt: T0 + 60_000,
      observedAt: T0,
    });
  });

  it('calls onRateLimit after every response that carries the headers, errors included', async () => {
    const seen: [RateLimitState, { status: number; operation: string }][] = [];
    h = harness({ onRateLimit: (state, response) => seen.push([state, response]) });
    h.pool.intercept({ path: '/api/v1/desks/', method: 'GET' }).reply(200, envelope([]), {
      headers: headers(5),
    });
    h.pool
      .intercept({ path: '/api/v1/tickets/IT-1/', method: 'GET' })
      .reply(404, { detail: 'nope' }, { headers: headers(4) });
    h.pool.intercept({ path: '/api/v1/employees/', method: 'GET' }).reply(200, envelope([]));
    await h.client.listDesks();
    await rejectionOf(h.client.getTicket('IT-1'));
    await h.client.listEmployees();
    expect(seen.map(([state, response]) => [state.remaining, response])).toEqual([
      [5, { status: 200, operation: 'listDesks' }],
      [4, { status: 404, operation: 'getTicket' }],
    ]);
  });

  it('keeps serving the request when the onRateLimit listener throws', async () => {
    const warnings: object[] = [];
    h = harness({
      onRateLimit: () => {
        throw new Error('listener bug');
      },
      logger: { debug() {}, warn: (obj) => warnings.push(obj) },
    });
    h.pool.intercept({ path: '/api/v1/desks/', method: 'GET' }).reply(200, envelope([]), {
      headers: headers(1),
    });
    await expect(h.client.listDesks()).resolves.toEqual(envelope([]));
    expect(warnings).toHaveLength(1);
  });

  it('ignores an incomplete set of X-RateLimit-* headers', () => {
    expect(parseRateLimit({ 'x-ratelimit-remaining': '3' }, T0)).toBeUndefined();
    expect(
      parseRateLimit(
        { 'x-ratelimit-limit': 'many', 'x-ratelimit-remaining': '3', 'x-ratelimit-reset': '1' },
        T0,
      ),
    ).toBeUndefined();
  });

  it('reads Retry-After as seconds or as an HTTP date, never negative', () => {
    expect(parseRetryAfterMs({ 'retry-after': '12' }, T0)).toBe(12_000);
    expect(parseRetryAfterMs({ 'retry-after': '0.5' }, T0)).toBe(500);
    expect(parseRetryAfterMs({ 'retry-after': new Date(T0 + 3000).toUTCString() }, T0)).toBe(3000);
    expect(parseRetryAfterMs({ 'retry-after': new Date(T0 - 3000).toUTCString() }, T0)).toBe(0);
    expect(parseRetryAfterMs({ 'retry-after': 'soon' }, T0)).toBeUndefined();
    expect(parseRetryAfterMs({}, T0)).toBeUndefined();
  });
});

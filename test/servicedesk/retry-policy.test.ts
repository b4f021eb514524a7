import { describe, expect, it } from 'vitest';
import {
  apiErrorFromResponse,
  ConnectionError,
  DEFAULT_RETRY_OPTIONS,
  isRetryableError,
  RetryPolicy,
  TimeoutError,
} from '../../src/servicedesk/index.ts';

const transport = { operation: 'listDesks' as const, method: 'GET', path: '/api/v1/desks/' };
const http = (status: number, retryAfterMs?: number) =>
  apiErrorFromResponse({ ...transport, status, headers: {}, body: '', retryAfterMs });

const failed = (error: unknown, overrides: Partial<Parameters<RetryPolicy['decide']>[0]> = {}) => ({
  error,
  attempt: 1,
  method: 'GET',
  hasIdempotencyKey: false,
  now: 0,
  deadline: 30_000,
  ...overrides,
});

describe('retry policy', () => {
  it('defaults to 4 attempts within 30 seconds', () => {
    expect(DEFAULT_RETRY_OPTIONS.maxAttempts).toBe(4);
    expect(DEFAULT_RETRY_OPTIONS.deadlineMs).toBe(30_000);
  });

  it('treats connection errors, timeouts, 408, 429 and 5xx as retryable', () => {
    expect(isRetryableError(new ConnectionError({ ...transport, causeCode: 'ECONNRESET' }))).toBe(
      true,
    );
    expect(isRetryableError(new TimeoutError(transport))).toBe(true);
    for (const status of [408, 429, 500, 502, 503, 504]) {
      expect(isRetryableError(http(status)), String(status)).toBe(true);
    }
  });

  it('treats other statuses and foreign errors as final', () => {
    for (const status of [400, 401, 403, 404, 409, 422]) {
      expect(isRetryableError(http(status)), String(status)).toBe(false);
    }
    expect(isRetryableError(new Error('boom'))).toBe(false);
  });

  it('does not retry a transport failure no retry can fix', () => {
    const closed = new ConnectionError({ ...transport, causeCode: 'UND_ERR_DESTROYED' });
    expect(isRetryableError(closed)).toBe(false);
  });

  it('computes full-jitter backoff as random() * min(maxDelay, base * 2^n)', () => {
    const policy = new RetryPolicy({ baseDelayMs: 200, maxDelayMs: 1000 }, () => 0.25);
    expect([0, 1, 2, 3, 4].map((n) => policy.backoffMs(n))).toEqual([50, 100, 200, 250, 250]);
  });

  it('waits no time when random() gives 0', () => {
    const policy = new RetryPolicy({}, () => 0);
    expect(policy.decide(failed(http(500)))).toEqual({ retry: true, delayMs: 0, basis: 'backoff' });
  });

  it('takes the server wait and caps it', () => {
    const policy = new RetryPolicy({ maxRetryAfterMs: 5000 });
    expect(policy.decide(failed(http(429, 2000)))).toEqual({
      retry: true,
      delayMs: 2000,
      basis: 'server',
    });
    expect(policy.decide(failed(http(429, 90_000)))).toEqual({
      retry: true,
      delayMs: 5000,
      basis: 'server',
    });
  });

  it('refuses a POST without an idempotency key and allows one with a key', () => {
    const policy = new RetryPolicy();
    expect(policy.decide(failed(http(503), { method: 'POST' }))).toEqual({
      retry: false,
      reason: 'post_without_key',
    });
    expect(
      policy.decide(failed(http(503), { method: 'POST', hasIdempotencyKey: true })).retry,
    ).toBe(true);
  });

  it('stops at maxAttempts', () => {
    const policy = new RetryPolicy({ maxAttempts: 2 });
    expect(policy.decide(failed(http(500), { attempt: 1 })).retry).toBe(true);
    expect(policy.decide(failed(http(500), { attempt: 2 }))).toEqual({
      retry: false,
      reason: 'max_attempts',
    });
  });

  it('gives up rather than sleep past the deadline', () => {
    const policy = new RetryPolicy();
    expect(policy.decide(failed(http(429, 3000), { now: 27_000, deadline: 30_000 })).retry).toBe(
      true,
    );
    expect(policy.decide(failed(http(429, 3001), { now: 27_000, deadline: 30_000 }))).toEqual({
      retry: false,
      reason: 'deadline',
    });
  });

  it('refuses nonsensical settings', () => {
    expect(() => new RetryPolicy({ maxAttempts: 0 })).toThrow(/maxAttempts/);
    expect(() => new RetryPolicy({ maxAttempts: 1.5 })).toThrow(/maxAttempts/);
    expect(() => new RetryPolicy({ deadlineMs: -1 })).toThrow(/deadlineMs/);
    expect(() => new RetryPolicy({ baseDelayMs: Number.NaN })).toThrow(/baseDelayMs/);
  });
});

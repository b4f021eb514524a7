/** Reading the platform's rate-limit headers: X-RateLimit-* and Retry-After. */
import type { IncomingHttpHeaders } from 'node:http';

/** The rate-limit window the platform last reported. */
export interface RateLimitState {
  /** Maximum requests allowed in the window (X-RateLimit-Limit). */
  limit: number;
  /** Requests left in the window (X-RateLimit-Remaining). */
  remaining: number;
  /** When the window resets, in ms since the epoch (X-RateLimit-Reset is Unix seconds). */
  resetAt: number;
  /** When the client saw these headers, in ms since the epoch. */
  observedAt: number;
}

function single(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function finiteNumber(raw: string | undefined): number | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = Number(raw);
  return Number.isFinite(value) ? value : undefined;
}

/** Whether a response carries any X-RateLimit-* header. */
export function hasRateLimitHeaders(headers: IncomingHttpHeaders): boolean {
  return (
    headers['x-ratelimit-limit'] !== undefined ||
    headers['x-ratelimit-remaining'] !== undefined ||
    headers['x-ratelimit-reset'] !== undefined
  );
}

/**
 * The rate-limit state in a response's headers, or undefined unless all three X-RateLimit-*
 * headers are present and numeric: a partial state would mislead a shared budget.
 */
export function parseRateLimit(
  headers: IncomingHttpHeaders,
  observedAt: number,
): RateLimitState | undefined {
  const limit = finiteNumber(single(headers, 'x-ratelimit-limit'));
  const remaining = finiteNumber(single(headers, 'x-ratelimit-remaining'));
  const reset = finiteNumber(single(headers, 'x-ratelimit-reset'));
  if (limit === undefined || remaining === undefined || reset === undefined) return undefined;
  return { limit, remaining: Math.max(0, remaining), resetAt: reset * 1000, observedAt };
}

/**
 * The wait a Retry-After header asks for, in ms: either delta seconds or an HTTP date.
 * Undefined when absent or unparseable; never negative.
 */
export function parseRetryAfterMs(headers: IncomingHttpHeaders, now: number): number | undefined {
  const raw = single(headers, 'retry-after')?.trim();
  if (!raw) return undefined;
  if (/^\d+(\.\d+)?$/.test(raw)) return Math.round(Number(raw) * 1000);
  const date = Date.parse(raw);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** The wait until X-RateLimit-Reset, in ms; undefined when absent; never negative. */
export function parseRateLimitResetMs(
  headers: IncomingHttpHeaders,
  now: number,
): number | undefined {
  const reset = finiteNumber(single(headers, 'x-ratelimit-reset'));
  if (reset === undefined) return undefined;
  return Math.max(0, reset * 1000 - now);
}

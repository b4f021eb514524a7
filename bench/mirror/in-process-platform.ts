/**
 * The emulator's model behind an undici-shaped dispatcher, so the real ServiceDeskClient (with
 * its hooks, retries and validation) talks to the platform without sockets, on the simulated
 * clock. Every request is counted and passes the emulator's own rate limiter (the platform's
 * 100 a minute and 1,000 an hour, fixed windows), which answers 429 with the same headers as
 * the HTTP server, and the emulator's own operation handlers answer (`answerOperation`), so
 * every operation is served exactly as the HTTP server serves it.
 */
import type { Dispatcher } from 'undici';
import { EmulatorError, type EmulatorModel } from '../../tools/emulator/index.ts';
import { RateLimiter } from '../../tools/emulator/rate-limiter.ts';
import { createRouteMatcher, type RouteMatch } from '../../tools/emulator/route-matcher.ts';
import { answerOperation } from '../../tools/emulator/server.ts';

/** One request the platform received. */
export interface PlatformRequest {
  at: number;
  operation: string;
  status: number;
  /** Items a list returned (0: a look that found nothing). */
  items?: number;
  /** The ticket a per-ticket request was about. */
  ticketId?: string;
}

/** The in-process platform and what it counted. */
export class InProcessPlatform {
  readonly requests: PlatformRequest[] = [];
  readonly #model: EmulatorModel;
  readonly #limiter: RateLimiter;
  readonly #now: () => number;
  readonly #tenant: string;
  readonly #match = createRouteMatcher('a');

  constructor(options: {
    model: EmulatorModel;
    now: () => number;
    tenant: string;
    perMinute: number;
    perHour: number;
  }) {
    this.#model = options.model;
    this.#now = options.now;
    this.#tenant = options.tenant;
    this.#limiter = new RateLimiter(
      { perMinute: options.perMinute, perHour: options.perHour },
      options.now,
    );
  }

  /** A dispatcher for `new ServiceDeskClient({ dispatcher })`. */
  dispatcher(): Dispatcher {
    const request = async (opts: Dispatcher.RequestOptions) => this.#answer(opts);
    return { request } as unknown as Dispatcher;
  }

  #answer(opts: Dispatcher.RequestOptions): Dispatcher.ResponseData {
    const url = new URL(String(opts.path), 'http://platform.invalid');
    const route = this.#match(String(opts.method), url.pathname);
    const operation = route.kind === 'operation' ? route.operation : 'unknown';
    const rate = this.#limiter.take('bench');
    let status = 200;
    let body: unknown;
    if (!rate.allowed) {
      status = 429;
      body = { detail: 'Rate limit exceeded; retry after the reset' };
    } else {
      try {
        [status, body] = this.#handle(route, url.searchParams, opts.body);
      } catch (error) {
        if (!(error instanceof EmulatorError)) throw error;
        status = error.status;
        body = { detail: error.detail };
      }
    }
    const items = (body as { items?: unknown[] } | undefined)?.items?.length;
    this.requests.push({
      at: this.#now(),
      operation,
      status,
      ...(status === 200 && items !== undefined ? { items } : {}),
      ...(route.kind === 'operation' && route.ticketId ? { ticketId: route.ticketId } : {}),
    });
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'x-ratelimit-limit': String(rate.limit),
      'x-ratelimit-remaining': String(rate.remaining),
      'x-ratelimit-reset': String(rate.resetSeconds),
    };
    if (rate.retryAfterSeconds !== undefined) {
      headers['retry-after'] = String(rate.retryAfterSeconds);
    }
    const text = JSON.stringify(body);
    return {
      statusCode: status,
      headers,
      body: { text: async () => text },
    } as unknown as Dispatcher.ResponseData;
  }

  // The emulator's own handlers answer, as its HTTP server would after the key and the limit.
  #handle(route: RouteMatch, query: URLSearchParams, rawBody: unknown): [number, unknown] {
    if (route.kind !== 'operation') return [404, { detail: 'Not Found' }];
    const { status, body } = answerOperation(this.#model, {
      tenant: this.#tenant,
      ticketId: route.ticketId ?? '',
      query,
      body: rawBody === undefined || rawBody === null ? undefined : JSON.parse(String(rawBody)),
      idempotencyKey: undefined,
      operation: route.operation,
    });
    return [status, body];
  }
}

/**
 * The emulator's model behind an undici-shaped dispatcher, so the real ServiceDeskClient (with
 * its hooks, retries and validation) talks to the platform without sockets, on the simulated
 * clock. Every request is counted and passes the emulator's own rate limiter (the platform's
 * 100 a minute and 1,000 an hour, fixed windows), which answers 429 with the same headers as
 * the HTTP server. Only the operations the mirror, its change feed and the app's replies use
 * are served, each as the HTTP server serves it (List tickets reads `updated_after` only when
 * the model has the capability, as an unknown parameter is otherwise ignored).
 */
import type { Dispatcher } from 'undici';
import { addMessageInputSchema, TICKET_STATUSES } from '../../src/contract/schemas.ts';
import { EmulatorError, type EmulatorModel } from '../../src/emulator/index.ts';
import { RateLimiter } from '../../src/emulator/rate-limiter.ts';
import { createRouteMatcher, type RouteMatch } from '../../src/emulator/route-matcher.ts';
import { QueryReader } from '../../src/emulator/validation.ts';

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

  #handle(route: RouteMatch, query: URLSearchParams, rawBody: unknown): [number, unknown] {
    if (route.kind !== 'operation') return [404, { detail: 'Not Found' }];
    const model = this.#model;
    const tenant = this.#tenant;
    const id = route.ticketId ?? '';
    const reader = new QueryReader(query);
    switch (route.operation) {
      case 'listTickets': {
        const page = reader.page();
        const deskId = reader.text('desk_id');
        const createdAfterMs = reader.dateTime('created_after');
        const updatedAfterMs = model.capabilities.updatedAfter
          ? reader.dateTime('updated_after')
          : undefined;
        const status = reader.oneOf('status', TICKET_STATUSES);
        const requesterEmail = reader.text('requester_email');
        reader.done();
        return [
          200,
          model.listTickets(tenant, {
            ...page,
            deskId,
            createdAfterMs,
            updatedAfterMs,
            status,
            requesterEmail,
          }),
        ];
      }
      case 'listDesks':
        reader.done();
        return [200, model.listDesks(tenant)];
      case 'getTicket':
        return [200, model.getTicket(tenant, id)];
      case 'listActivity': {
        const range = reader.offset();
        reader.done();
        return [200, model.pageActivity(tenant, id, range)];
      }
      case 'listMessages': {
        const page = reader.page();
        reader.done();
        return [200, model.pageMessages(tenant, id, page)];
      }
      case 'addMessage': {
        const input = addMessageInputSchema.parse(JSON.parse(String(rawBody)));
        return [201, model.addMessage(tenant, id, input)];
      }
      default:
        return [404, { detail: `the benchmark does not serve ${route.operation}` }];
    }
  }
}

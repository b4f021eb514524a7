/**
 * The typed service-desk API client: one method per operation of the route table, with
 * authentication, retries, rate-limit tracking, response validation and pagination.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { Agent, type Dispatcher } from 'undici';
import type { z } from 'zod';
import { type Now, type Sleep, sleep } from '../clock.ts';
import {
  normaliseBaseUrl,
  type OperationName,
  ROUTES,
  type Route,
  routePath,
  type Variant,
} from '../contract/routes.ts';
import {
  type Activity,
  type AddMessageInput,
  type Application,
  type Asset,
  activitySchema,
  applicationSchema,
  assetSchema,
  type CatalogItem,
  type CreateTicketInput,
  type CustomField,
  catalogItemSchema,
  customFieldSchema,
  type Desk,
  deskSchema,
  type Employee,
  type Envelope,
  employeeSchema,
  envelopeSchema,
  type Message,
  messageSchema,
  requestSchema,
  type ServiceRequest,
  type Ticket,
  ticketSchema,
  type UpdateTicketInput,
} from '../contract/schemas.ts';
import { normaliseTicketId } from '../contract/ticket-id.ts';
import {
  AbortError,
  apiErrorFromResponse,
  ConnectionError,
  InvalidTicketIdError,
  isServiceDeskError,
  ResponseValidationError,
  TimeoutError,
  type TransportErrorInit,
} from './errors.ts';
import { assertIdempotencyKey } from './idempotency.ts';
import {
  type IterateOptions,
  type Priority,
  paginateByOffset,
  paginateByPage,
} from './pagination.ts';
import {
  hasRateLimitHeaders,
  parseRateLimit,
  parseRateLimitResetMs,
  parseRetryAfterMs,
  type RateLimitState,
} from './rate-limit.ts';
import { Redactor } from './redact.ts';
import { type RetryOptions, RetryPolicy } from './retry-policy.ts';

/** Socket timeouts, in ms. */
export interface TimeoutOptions {
  /** Establishing the TCP/TLS connection. Default 5 000 (only for the client's own Agent). */
  connectMs?: number;
  /** From sending the request to receiving all response headers. Default 15 000. */
  headersMs?: number;
  /** Longest silence while receiving the response body. Default 15 000. */
  bodyMs?: number;
}

/** What the acquire hook is told before each HTTP attempt. */
export interface AcquireTicket {
  operation: OperationName;
  method: string;
  priority: Priority;
  signal?: AbortSignal;
}

/** Called before every HTTP attempt (e.g. to take from a shared rate budget); may throw to refuse. */
export type AcquireHook = (ticket: AcquireTicket) => Promise<void>;

/** Called after every response that carries the X-RateLimit-* headers. */
export type RateLimitListener = (
  state: RateLimitState,
  response: { status: number; operation: OperationName },
) => void;

/** What the response listener is told after every HTTP attempt. */
export interface ResponseInfo {
  operation: OperationName;
  method: string;
  /** The HTTP status; undefined when no answer came (refused connection, timeout). */
  status: number | undefined;
  durationMs: number;
}

/** Called after every HTTP attempt, answered or not (metrics, readiness). */
export type ResponseListener = (info: ResponseInfo) => void;

/** A pino-compatible logger; it is never given the access key. */
export interface ServiceDeskLogger {
  debug(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

/** Options of `new ServiceDeskClient(...)`. */
export interface ServiceDeskClientOptions {
  /** The tenant's base URL (variant A) or the shared host (variant B). */
  baseUrl: string;
  /** The access key, sent as `Authorization: AccessKey <key>`. */
  apiKey: string;
  /** Addressing variant. Default 'a'. */
  variant?: Variant;
  /** The undici dispatcher to send through. Default: an Agent of the client's own. */
  dispatcher?: Dispatcher;
  timeouts?: TimeoutOptions;
  retry?: RetryOptions;
  acquire?: AcquireHook;
  onRateLimit?: RateLimitListener;
  onResponse?: ResponseListener;
  logger?: ServiceDeskLogger;
  userAgent?: string;
  /** For tests: the source of backoff jitter, in [0, 1). */
  random?: () => number;
  /** For tests: how to wait between attempts; must reject when the signal aborts. */
  sleep?: Sleep;
  /** For tests: the clock, in ms since the epoch. */
  now?: Now;
}

/** Options of a single call. */
export interface CallOptions {
  signal?: AbortSignal;
  /** Default 'interactive'. */
  priority?: Priority;
  /**
   * Sent as X-Idempotency-Key on createTicket and addMessage (the operations the platform
   * de-duplicates) and ignored elsewhere. Without it a POST is sent once and never retried.
   */
  idempotencyKey?: string;
}

/** Query of listTickets. */
export interface ListTicketsQuery {
  desk_id?: string;
  page?: number;
  page_size?: number;
  created_after?: string | Date;
  /**
   * One status, or several (sent comma-separated: "More List tickets filters"). A platform
   * without the filter ignores it: check each ticket returned.
   */
  status?: string | readonly string[];
  requester_email?: string;
  /**
   * Only tickets assigned to this email (any case); `''` only unassigned ones. A platform
   * without the filter ignores it: check each ticket returned.
   */
  assignee_email?: string;
}

/** Query of page-based lists. */
export interface PageQuery {
  page?: number;
  page_size?: number;
}

/** Query of offset-based lists. */
export interface OffsetQuery {
  limit?: number;
  offset?: number;
}

/** Query of listEmployees. */
export interface ListEmployeesQuery extends OffsetQuery {
  email?: string;
}

/** Query of listCustomFields. */
export interface ListCustomFieldsQuery extends OffsetQuery {
  /** One desk's fields (its slug); without it, every desk's. */
  desk_id?: string;
}

/** Query of listAssets. */
export interface ListAssetsQuery extends OffsetQuery {
  assigned_to_email?: string;
  /** false skips the count (`total_count` is then null). */
  with_total?: boolean;
}

type QueryValue = string | number | boolean | Date | null | undefined;
type Query = Record<string, QueryValue>;

interface CallSpec {
  ticketId?: string;
  query?: Query | undefined;
  body?: unknown;
}

interface Resolved {
  operation: OperationName;
  route: Route;
  /** Path without the query string: what errors and logs show. */
  path: string;
  /** Path with the query string: what is sent. */
  target: string;
  headers: Record<string, string>;
  body: string | undefined;
  priority: Priority;
  signal: AbortSignal | undefined;
  hasIdempotencyKey: boolean;
}

const DEFAULT_TIMEOUTS: Required<TimeoutOptions> = {
  connectMs: 5_000,
  headersMs: 15_000,
  bodyMs: 15_000,
};

const TIMEOUT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
]);

const ticketEnvelope = envelopeSchema(ticketSchema);
const activityEnvelope = envelopeSchema(activitySchema);
const messageEnvelope = envelopeSchema(messageSchema);
const deskEnvelope = envelopeSchema(deskSchema);
const employeeEnvelope = envelopeSchema(employeeSchema);
const assetEnvelope = envelopeSchema(assetSchema);
const applicationEnvelope = envelopeSchema(applicationSchema);
const catalogItemEnvelope = envelopeSchema(catalogItemSchema);
const requestEnvelope = envelopeSchema(requestSchema);
const customFieldEnvelope = envelopeSchema(customFieldSchema);

const silentLogger: ServiceDeskLogger = { debug() {}, warn() {} };

/** A client of the service-desk platform API. */
export class ServiceDeskClient {
  readonly variant: Variant;
  /** The normalised base URL. */
  readonly baseUrl: string;
  readonly #origin: string;
  readonly #basePath: string;
  // Private fields: util.inspect and JSON.stringify of the client never show the key.
  readonly #authorization: string;
  readonly #redactor: Redactor;
  readonly #dispatcher: Dispatcher;
  readonly #ownsDispatcher: boolean;
  readonly #timeouts: Required<TimeoutOptions>;
  readonly #policy: RetryPolicy;
  readonly #acquire: AcquireHook | undefined;
  readonly #onRateLimit: RateLimitListener | undefined;
  readonly #onResponse: ResponseListener | undefined;
  readonly #logger: ServiceDeskLogger;
  readonly #userAgent: string;
  readonly #sleep: Sleep;
  readonly #now: () => number;
  #rateLimit: RateLimitState | undefined;

  constructor(options: ServiceDeskClientOptions) {
    const { apiKey } = options;
    // The message must not quote the key: it may be a real key with a stray newline.
    if (typeof apiKey !== 'string' || !/^[\x21-\x7e]+$/.test(apiKey)) {
      throw new TypeError('apiKey must be a non-empty string of visible ASCII characters');
    }
    const variant = options.variant ?? 'a';
    if (variant !== 'a' && variant !== 'b') {
      throw new TypeError(`variant must be 'a' or 'b', got ${JSON.stringify(variant)}`);
    }
    this.variant = variant;
    this.baseUrl = normaliseBaseUrl(options.baseUrl);
    const url = new URL(this.baseUrl);
    this.#origin = url.origin;
    this.#basePath = url.pathname === '/' ? '' : url.pathname;
    this.#authorization = `AccessKey ${apiKey}`;
    this.#redactor = new Redactor(apiKey);
    this.#timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
    this.#policy = new RetryPolicy(options.retry, options.random);
    this.#acquire = options.acquire;
    this.#onRateLimit = options.onRateLimit;
    this.#onResponse = options.onResponse;
    this.#logger = options.logger ?? silentLogger;
    this.#userAgent = options.userAgent ?? 'servicedesk-slack';
    this.#sleep = options.sleep ?? sleep;
    this.#now = options.now ?? Date.now;
    if (options.dispatcher) {
      this.#dispatcher = options.dispatcher;
      this.#ownsDispatcher = false;
    } else {
      // Keep-alive is undici's default; the timeouts bound every stage of a request.
      this.#dispatcher = new Agent({
        connect: { timeout: this.#timeouts.connectMs },
        headersTimeout: this.#timeouts.headersMs,
        bodyTimeout: this.#timeouts.bodyMs,
        keepAliveTimeout: 10_000,
        keepAliveMaxTimeout: 60_000,
      });
      this.#ownsDispatcher = true;
    }
  }

  /** The rate-limit state of the last response that carried X-RateLimit-* headers. */
  get rateLimit(): RateLimitState | undefined {
    return this.#rateLimit;
  }

  /** Closes the client's own Agent; an injected dispatcher is left to its owner. */
  async close(): Promise<void> {
    if (this.#ownsDispatcher) await this.#dispatcher.close();
  }

  /** One page of tickets. */
  listTickets(query: ListTicketsQuery = {}, opts?: CallOptions): Promise<Envelope<Ticket>> {
    const { status, ...rest } = query;
    const statusText =
      typeof status === 'string' || status === undefined ? status : status.join(',');
    return this.#call(
      'listTickets',
      ticketEnvelope,
      { query: { ...rest, ...(statusText === undefined ? {} : { status: statusText }) } },
      opts,
    );
  }

  /** Every ticket matching the query, page by page. */
  iterateTickets(
    query: Omit<ListTicketsQuery, 'page' | 'page_size'> = {},
    iterOpts: IterateOptions = {},
  ): AsyncIterable<Ticket> {
    return paginateByPage(
      'listTickets',
      (page, pageSize) =>
        this.listTickets({ ...query, page, page_size: pageSize }, callOpts(iterOpts)),
      iterOpts,
    );
  }

  /** One ticket by display ID (any case). */
  getTicket(id: string, opts?: CallOptions): Promise<Ticket> {
    return this.#call('getTicket', ticketSchema, { ticketId: id }, opts);
  }

  /** Creates a ticket; pass `idempotencyKey` so retries cannot create a second one. */
  createTicket(input: CreateTicketInput, opts?: CallOptions): Promise<Ticket> {
    return this.#call('createTicket', ticketSchema, { body: input }, opts);
  }

  /** Changes status, priority, assignee or team (absolute values, so safe to retry). */
  updateTicket(id: string, input: UpdateTicketInput, opts?: CallOptions): Promise<Ticket> {
    return this.#call('updateTicket', ticketSchema, { ticketId: id, body: input }, opts);
  }

  /** One page of a ticket's activity history. */
  listActivity(
    id: string,
    query: OffsetQuery = {},
    opts?: CallOptions,
  ): Promise<Envelope<Activity>> {
    return this.#call(
      'listActivity',
      activityEnvelope,
      { ticketId: id, query: { ...query } },
      opts,
    );
  }

  /** A ticket's whole activity history. */
  iterateActivity(id: string, iterOpts: IterateOptions = {}): AsyncIterable<Activity> {
    return paginateByOffset(
      'listActivity',
      (limit, offset) => this.listActivity(id, { limit, offset }, callOpts(iterOpts)),
      iterOpts,
    );
  }

  /** Adds a message to a ticket; pass `idempotencyKey` so retries cannot add it twice. */
  addMessage(id: string, input: AddMessageInput, opts?: CallOptions): Promise<Message> {
    return this.#call('addMessage', messageSchema, { ticketId: id, body: input }, opts);
  }

  /** One page of a ticket's messages, oldest first. */
  listMessages(id: string, query: PageQuery = {}, opts?: CallOptions): Promise<Envelope<Message>> {
    return this.#call('listMessages', messageEnvelope, { ticketId: id, query: { ...query } }, opts);
  }

  /** Every message of a ticket, oldest first. */
  iterateMessages(id: string, iterOpts: IterateOptions = {}): AsyncIterable<Message> {
    return paginateByPage(
      'listMessages',
      (page, pageSize) => this.listMessages(id, { page, page_size: pageSize }, callOpts(iterOpts)),
      iterOpts,
    );
  }

  /** The desks (and subdesks) of the tenant. */
  listDesks(opts?: CallOptions): Promise<Envelope<Desk>> {
    return this.#call('listDesks', deskEnvelope, {}, opts);
  }

  /** One page of employees. */
  listEmployees(query: ListEmployeesQuery = {}, opts?: CallOptions): Promise<Envelope<Employee>> {
    return this.#call('listEmployees', employeeEnvelope, { query: { ...query } }, opts);
  }

  /** Every employee matching the query. */
  iterateEmployees(
    query: Omit<ListEmployeesQuery, 'limit' | 'offset'> = {},
    iterOpts: IterateOptions = {},
  ): AsyncIterable<Employee> {
    return paginateByOffset(
      'listEmployees',
      (limit, offset) => this.listEmployees({ ...query, limit, offset }, callOpts(iterOpts)),
      iterOpts,
    );
  }

  /** One page of assets. */
  listAssets(query: ListAssetsQuery = {}, opts?: CallOptions): Promise<Envelope<Asset>> {
    return this.#call('listAssets', assetEnvelope, { query: { ...query } }, opts);
  }

  /** Every asset matching the query; skips the count, which the iterator does not need. */
  iterateAssets(
    query: Omit<ListAssetsQuery, 'limit' | 'offset' | 'with_total'> = {},
    iterOpts: IterateOptions = {},
  ): AsyncIterable<Asset> {
    return paginateByOffset(
      'listAssets',
      (limit, offset) =>
        this.listAssets({ ...query, limit, offset, with_total: false }, callOpts(iterOpts)),
      iterOpts,
    );
  }

  /** One page of applications. */
  listApplications(query: OffsetQuery = {}, opts?: CallOptions): Promise<Envelope<Application>> {
    return this.#call('listApplications', applicationEnvelope, { query: { ...query } }, opts);
  }

  /** Every application. */
  iterateApplications(iterOpts: IterateOptions = {}): AsyncIterable<Application> {
    return paginateByOffset(
      'listApplications',
      (limit, offset) => this.listApplications({ limit, offset }, callOpts(iterOpts)),
      iterOpts,
    );
  }

  /** One page of service-catalog items. */
  listCatalogItems(query: OffsetQuery = {}, opts?: CallOptions): Promise<Envelope<CatalogItem>> {
    return this.#call('listCatalogItems', catalogItemEnvelope, { query: { ...query } }, opts);
  }

  /** Every service-catalog item. */
  iterateCatalogItems(iterOpts: IterateOptions = {}): AsyncIterable<CatalogItem> {
    return paginateByOffset(
      'listCatalogItems',
      (limit, offset) => this.listCatalogItems({ limit, offset }, callOpts(iterOpts)),
      iterOpts,
    );
  }

  /** One page of custom field definitions (one desk's with `desk_id`). */
  listCustomFields(
    query: ListCustomFieldsQuery = {},
    opts?: CallOptions,
  ): Promise<Envelope<CustomField>> {
    return this.#call('listCustomFields', customFieldEnvelope, { query: { ...query } }, opts);
  }

  /** Every custom field definition matching the query. */
  iterateCustomFields(
    query: Omit<ListCustomFieldsQuery, 'limit' | 'offset'> = {},
    iterOpts: IterateOptions = {},
  ): AsyncIterable<CustomField> {
    return paginateByOffset(
      'listCustomFields',
      (limit, offset) => this.listCustomFields({ ...query, limit, offset }, callOpts(iterOpts)),
      iterOpts,
    );
  }

  /** One page of AI-agent requests. */
  listRequests(query: PageQuery = {}, opts?: CallOptions): Promise<Envelope<ServiceRequest>> {
    return this.#call('listRequests', requestEnvelope, { query: { ...query } }, opts);
  }

  /** Every AI-agent request. */
  iterateRequests(iterOpts: IterateOptions = {}): AsyncIterable<ServiceRequest> {
    return paginateByPage(
      'listRequests',
      (page, pageSize) => this.listRequests({ page, page_size: pageSize }, callOpts(iterOpts)),
      iterOpts,
    );
  }

  /** One logical operation: every attempt, wait and the final outcome. */
  async #call<S extends z.ZodType>(
    operation: OperationName,
    schema: S,
    spec: CallSpec,
    opts: CallOptions = {},
  ): Promise<z.output<S>> {
    const signal = opts.signal;
    if (signal?.aborted) throw new AbortError(operation, signal.reason);
    // Everything that can be refused locally is refused before the first acquire.
    const resolved = this.#resolve(operation, spec, opts);
    const deadline = this.#now() + this.#policy.options.deadlineMs;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.#acquire?.({
          operation,
          method: resolved.route.method,
          priority: resolved.priority,
          ...(signal ? { signal } : {}),
        });
        return await this.#attempt(resolved, schema, attempt);
      } catch (error) {
        if (signal?.aborted) throw new AbortError(operation, signal.reason);
        // Errors of the acquire hook (a refused budget) are the caller's to handle.
        if (!isServiceDeskError(error)) throw error;
        const decision = this.#policy.decide({
          error,
          attempt,
          method: resolved.route.method,
          hasIdempotencyKey: resolved.hasIdempotencyKey,
          now: this.#now(),
          deadline,
        });
        if (!decision.retry) {
          if (attempt > 1 || decision.reason !== 'not_retryable') {
            this.#logger.debug(
              {
                operation,
                path: resolved.path,
                attempt,
                reason: decision.reason,
                code: error.code,
              },
              'service-desk request not retried',
            );
          }
          throw error;
        }
        this.#logger.warn(
          {
            operation,
            method: resolved.route.method,
            path: resolved.path,
            attempt,
            delayMs: decision.delayMs,
            basis: decision.basis,
            code: error.code,
            status: (error as { status?: number }).status,
          },
          'service-desk request failed; retrying',
        );
        try {
          await this.#sleep(decision.delayMs, signal);
        } catch (sleepError) {
          if (signal?.aborted) throw new AbortError(operation, signal.reason);
          throw sleepError;
        }
      }
    }
  }

  #resolve(operation: OperationName, spec: CallSpec, opts: CallOptions): Resolved {
    const route: Route = ROUTES[operation];
    let ticketId: string | undefined;
    if (spec.ticketId !== undefined) {
      const raw: unknown = spec.ticketId;
      ticketId = typeof raw === 'string' ? normaliseTicketId(raw) : undefined;
      // The ID is quoted back to the caller; a pasted key must not be.
      if (ticketId === undefined) throw new InvalidTicketIdError(this.#redactor.text(String(raw)));
    }
    const path = this.#basePath + routePath(this.variant, operation, ticketId);
    const search = serialiseQuery(spec.query);
    const headers: Record<string, string> = {
      authorization: this.#authorization,
      accept: 'application/json',
      'user-agent': this.#userAgent,
    };
    let body: string | undefined;
    if (spec.body !== undefined) {
      body = JSON.stringify(spec.body);
      headers['content-type'] = 'application/json';
    }
    // The same key on every attempt is what lets the platform recognise a retry.
    let hasIdempotencyKey = false;
    if (route.idempotent && opts.idempotencyKey !== undefined) {
      assertIdempotencyKey(opts.idempotencyKey);
      headers['x-idempotency-key'] = opts.idempotencyKey;
      hasIdempotencyKey = true;
    }
    return {
      operation,
      route,
      path,
      target: search ? `${path}?${search}` : path,
      headers,
      body,
      priority: opts.priority ?? 'interactive',
      signal: opts.signal,
      hasIdempotencyKey,
    };
  }

  async #attempt<S extends z.ZodType>(
    resolved: Resolved,
    schema: S,
    attempt: number,
  ): Promise<z.output<S>> {
    const { operation, route, path } = resolved;
    const init: TransportErrorInit = { operation, method: route.method, path };
    const started = this.#now();
    let response: Dispatcher.ResponseData;
    try {
      response = await this.#dispatcher.request({
        origin: this.#origin,
        path: resolved.target,
        method: route.method,
        headers: resolved.headers,
        body: resolved.body ?? null,
        signal: resolved.signal ?? null,
        headersTimeout: this.#timeouts.headersMs,
        bodyTimeout: this.#timeouts.bodyMs,
      });
    } catch (error) {
      this.#observeResponse(operation, route.method, undefined, started);
      throw this.#transportError(error, init);
    }
    const { statusCode: status, headers } = response;
    this.#observeResponse(operation, route.method, status, started);
    this.#observeRateLimit(headers, status, operation);
    // Reading the whole body, even of an error, is what returns the socket to the pool.
    let text: string;
    try {
      text = await response.body.text();
    } catch (error) {
      throw this.#transportError(error, init);
    }
    const requestId = single(headers, 'x-request-id');
    this.#logger.debug(
      {
        operation,
        method: route.method,
        path,
        status,
        attempt,
        durationMs: this.#now() - started,
        ...(requestId ? { requestId } : {}),
      },
      'service-desk response',
    );
    if (status >= 200 && status <= 299) return parseSuccess(operation, schema, status, text);
    const now = this.#now();
    const retryAfterMs =
      parseRetryAfterMs(headers, now) ??
      // Every response carries X-RateLimit-Reset, but it only says when to retry on a 429.
      (status === 429 ? parseRateLimitResetMs(headers, now) : undefined);
    throw apiErrorFromResponse({
      operation,
      method: route.method,
      path: this.#redactor.text(path),
      status,
      headers: this.#redactor.deep(headers),
      body: this.#redactor.deep(parseErrorBody(text)),
      retryAfterMs,
    });
  }

  #observeResponse(
    operation: OperationName,
    method: string,
    status: number | undefined,
    started: number,
  ): void {
    try {
      this.#onResponse?.({ operation, method, status, durationMs: this.#now() - started });
    } catch (error) {
      // An observer's bug must not fail a request.
      this.#logger.warn(
        { operation, err: this.#redactor.error(error) },
        'onResponse listener threw; ignored',
      );
    }
  }

  #observeRateLimit(headers: IncomingHttpHeaders, status: number, operation: OperationName): void {
    if (!hasRateLimitHeaders(headers)) return;
    const state = parseRateLimit(headers, this.#now());
    if (!state) return;
    this.#rateLimit = state;
    try {
      this.#onRateLimit?.(state, { status, operation });
    } catch (error) {
      // An observer's bug must not fail a request that succeeded.
      this.#logger.warn(
        { operation, err: this.#redactor.error(error) },
        'onRateLimit listener threw; ignored',
      );
    }
  }

  #transportError(error: unknown, init: TransportErrorInit): ConnectionError {
    const raw = (error as { code?: unknown } | null)?.code;
    const causeCode = typeof raw === 'string' ? raw : undefined;
    const withCode = { ...init, causeCode };
    // A foreign error may carry request options; only a redacted copy is kept.
    const cause = this.#redactor.error(error);
    if (causeCode && TIMEOUT_CODES.has(causeCode)) return new TimeoutError(withCode, { cause });
    return new ConnectionError(withCode, undefined, { cause });
  }
}

function callOpts(iterOpts: IterateOptions): CallOptions {
  return {
    ...(iterOpts.signal ? { signal: iterOpts.signal } : {}),
    ...(iterOpts.priority ? { priority: iterOpts.priority } : {}),
  };
}

function single(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function serialiseQuery(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (value instanceof Date) {
      if (Number.isNaN(value.getTime())) throw new TypeError(`${name} is an invalid Date`);
      params.append(name, value.toISOString());
    } else {
      params.append(name, String(value));
    }
  }
  return params.toString();
}

function parseErrorBody(text: string): unknown {
  if (text === '') return '';
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function parseSuccess<S extends z.ZodType>(
  operation: OperationName,
  schema: S,
  status: number,
  text: string,
): z.output<S> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ResponseValidationError({
      operation,
      field: '',
      detail: 'not JSON',
      status,
    });
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new ResponseValidationError({
    operation,
    field: issue ? issue.path.map(String).join('.') : '',
    detail: issue ? issue.message.replace(/^Invalid input: /, '') : 'does not match the schema',
    status,
    issues: parsed.error.issues,
  });
}

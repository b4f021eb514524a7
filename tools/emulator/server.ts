/**
 * The emulator's HTTP side: routing, authentication, rate limits, faults, bodies and the
 * mapping of every operation onto the model.
 *
 * The order of checks follows a FastAPI service: the path and method are matched first (404,
 * 405, without needing a key), then the key (401), the rate limit (429), the key's role (403),
 * the body and query (422), and last the handler's own rules (404 for a ticket, 400).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sleep } from '../../src/clock.ts';
import type { OperationName, Route, Variant } from '../../src/contract/routes.ts';
import { ROUTES } from '../../src/contract/routes.ts';
import {
  addMessageInputSchema,
  createTicketInputSchema,
  TICKET_STATUSES,
  updateTicketInputSchema,
} from '../../src/contract/schemas.ts';
import { ticketPage } from './dashboard.ts';
import {
  EmulatorError,
  EmulatorNotFoundError,
  EmulatorValidationError,
  ForbiddenError,
  MethodNotAllowedError,
  PayloadTooLargeError,
  RateLimitedError,
  UnauthorizedError,
} from './errors.ts';
import type { FaultInjector } from './faults.ts';
import type { AccessKey } from './keys.ts';
import type { EmulatorModel, IdempotentResponse } from './model.ts';
import type { RateDecision, RateLimiter } from './rate-limiter.ts';
import { createRouteMatcher } from './route-matcher.ts';
import { issue, parseBody, parseJsonBody, QueryReader } from './validation.ts';

/** Largest request body accepted (chosen; the specification does not say). */
export const MAX_BODY_BYTES = 1_048_576;

/** Longest X-Idempotency-Key accepted (chosen). */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/** What the request handler needs. */
export interface ServerDeps {
  model: EmulatorModel;
  variant: Variant;
  keys: readonly AccessKey[];
  limiter: RateLimiter;
  faults: FaultInjector;
  /** Aborted when the emulator closes, so requests waiting out a latency stop waiting. */
  closing: AbortSignal;
}

/** A response before it is written. */
interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** What a handler knows about its request once it passed the checks. */
/** One authenticated request to an operation, as the handlers read it. */
export interface OperationContext {
  tenant: string;
  ticketId: string;
  query: URLSearchParams;
  body: unknown;
  idempotencyKey: string | undefined;
  operation: OperationName;
}

type Context = OperationContext;
type Handler = (model: EmulatorModel, ctx: Context) => Reply;

/**
 * Answers one operation as the HTTP server answers it, after authentication and the rate
 * limit (which the caller applies); throws an `EmulatorError` for an error answer. The mirror
 * benchmark serves the client in process with it, on a simulated clock.
 */
export function answerOperation(
  model: EmulatorModel,
  ctx: OperationContext,
): { status: number; body: unknown } {
  const { status, body } = HANDLERS[ctx.operation](model, ctx);
  return { status, body };
}

const DASHBOARD_PATH = /^\/dashboard\/([^/]+)\/tickets\/([^/]+)\/?$/;

/** Builds the node:http request listener. */
export function createRequestHandler(
  deps: ServerDeps,
): (req: IncomingMessage, res: ServerResponse) => void {
  const match = createRouteMatcher(deps.variant);
  const keys = new Map(deps.keys.map((key) => [key.key, key]));
  return (req, res) => {
    handle(deps, match, keys, req, res).catch((error: unknown) => {
      if (deps.closing.aborted) return;
      console.error('emulator: unexpected error', error);
      if (!res.headersSent) send(res, { status: 500, body: { detail: 'Internal Server Error' } });
    });
  };
}

async function handle(
  deps: ServerDeps,
  match: ReturnType<typeof createRouteMatcher>,
  keys: ReadonlyMap<string, AccessKey>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const credentials = parseAuthorization(req.headers.authorization);
  deps.model.countRequest(credentials.key);
  const latency = deps.faults.settings.latencyMs;
  if (latency > 0) await sleep(latency, deps.closing);

  // Drawn before anything reads or changes state, so a faulted write never half-applies.
  const fault = deps.faults.draw();
  if (fault === 'drop_connection') {
    req.socket.destroy();
    return;
  }
  if (fault !== 'none') {
    const status = fault === 'status_500' ? 500 : 503;
    send(res, {
      status,
      body: { detail: status === 500 ? 'Internal Server Error' : 'Service Unavailable' },
    });
    return;
  }

  const url = new URL(req.url ?? '/', 'http://emulator.invalid');
  const dashboard = DASHBOARD_PATH.exec(url.pathname);
  if (dashboard && req.method === 'GET') {
    sendDashboard(deps.model, res, dashboard[1] ?? '', dashboard[2] ?? '');
    return;
  }

  let rate: RateDecision | undefined;
  try {
    const route = match(req.method ?? 'GET', url.pathname);
    // Without the capability the custom-fields (or catalog) path is as unknown as any other.
    const absent =
      route.kind === 'operation' &&
      ((route.operation === 'listCustomFields' && !deps.model.capabilities.customFields) ||
        (route.operation === 'listCatalogItems' && !deps.model.capabilities.catalog));
    if (route.kind === 'not_found' || absent) throw new EmulatorNotFoundError('Not Found');
    if (route.kind === 'method_not_allowed') throw new MethodNotAllowedError(route.allow);

    const key = authenticate(credentials, keys);
    if (deps.variant === 'a') checkHost(deps.model, req.headers.host, key);
    rate = deps.limiter.take(key.key);
    if (!rate.allowed) throw new RateLimitedError('Rate limit exceeded; retry after the reset');
    const operation = ROUTES[route.operation];
    if (operation.method !== 'GET' && key.role !== 'rw') {
      throw new ForbiddenError('This access key is read-only; the action needs a Read + Write key');
    }

    const body = operation.method === 'GET' ? undefined : parseJsonBody(await readBody(req));
    const ctx: Context = {
      tenant: key.tenant,
      ticketId: route.ticketId ?? '',
      query: url.searchParams,
      body,
      idempotencyKey: idempotencyKey(req, route.operation),
      operation: route.operation,
    };
    const reply = HANDLERS[route.operation](deps.model, ctx);
    if (operation.method !== 'GET' && reply.status < 300 && deps.faults.takeLostWriteResponse()) {
      req.socket.destroy();
      return;
    }
    send(res, withRateHeaders(reply, rate));
  } catch (error) {
    if (!(error instanceof EmulatorError)) throw error;
    send(res, withRateHeaders(errorReply(error), rate));
  }
}

// --- the checks ------------------------------------------------------------------------------

interface Credentials {
  /** The key when the AccessKey scheme was used. */
  key: string | undefined;
  problem: string | undefined;
}

// RFC 9110: the scheme name is case-insensitive; the spec's scheme is AccessKey, never Bearer.
function parseAuthorization(header: string | undefined): Credentials {
  if (header === undefined || header.trim() === '') {
    return { key: undefined, problem: "Missing Authorization header; send 'AccessKey <key>'" };
  }
  const match = /^(\S+)\s+(\S+)\s*$/.exec(header.trim());
  if (match?.[1]?.toLowerCase() !== 'accesskey') {
    return { key: undefined, problem: "Unsupported authorization scheme; send 'AccessKey <key>'" };
  }
  return { key: match[2], problem: undefined };
}

function authenticate(credentials: Credentials, keys: ReadonlyMap<string, AccessKey>): AccessKey {
  if (credentials.problem !== undefined) throw new UnauthorizedError(credentials.problem);
  const key = credentials.key === undefined ? undefined : keys.get(credentials.key);
  // Never echo the key: it is a password.
  if (!key) throw new UnauthorizedError('Invalid access key');
  return key;
}

/**
 * Variant A addresses a tenant by host. On loopback `acme.localhost` may not resolve, so the
 * key decides; but a Host that names another known tenant is refused, as the real host would.
 */
function checkHost(model: EmulatorModel, host: string | undefined, key: AccessKey): void {
  const label = (host ?? '').split(':')[0]?.split('.')[0]?.toLowerCase() ?? '';
  if (label !== key.tenant && model.hasTenant(label)) {
    throw new UnauthorizedError('This access key does not belong to this organization');
  }
}

function idempotencyKey(req: IncomingMessage, operation: OperationName): string | undefined {
  const route: Route = ROUTES[operation];
  const raw = req.headers['x-idempotency-key'];
  if (!route.idempotent || raw === undefined) return undefined;
  const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
  if (value === undefined || value.length === 0 || value.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw new EmulatorValidationError([
      issue(
        ['header', 'x-idempotency-key'],
        `Value should have 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`,
        'string_too_long',
        value,
      ),
    ]);
  }
  return value;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES)
      throw new PayloadTooLargeError(`Request body is larger than ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

// --- the operations --------------------------------------------------------------------------

const ok = (body: unknown): Reply => ({ status: 200, body });

const HANDLERS: Readonly<Record<OperationName, Handler>> = {
  listTickets: (model, ctx) => {
    const query = new QueryReader(ctx.query);
    const page = query.page();
    const deskId = query.text('desk_id');
    const createdAfterMs = query.dateTime('created_after');
    // Without the capability the parameter is unknown, and unknown parameters are ignored: even
    // a malformed value is no 422, as the contract promises a client probing for it.
    const updatedAfterMs = model.capabilities.updatedAfter
      ? query.dateTime('updated_after')
      : undefined;
    // With the capability `status` may name several (comma-separated); without it, only one
    // is understood and several are ignored, as an unknown value would be by such a platform.
    const rawStatus = query.text('status');
    const several = rawStatus?.includes(',') ?? false;
    const status = several ? undefined : query.oneOf('status', TICKET_STATUSES);
    const statuses =
      several && model.capabilities.ticketFilters
        ? query.oneOfList('status', TICKET_STATUSES)
        : undefined;
    const requesterEmail = query.text('requester_email');
    const assigneeEmail = model.capabilities.ticketFilters
      ? query.text('assignee_email')?.trim()
      : undefined;
    query.done();
    return ok(
      model.listTickets(ctx.tenant, {
        ...page,
        deskId,
        createdAfterMs,
        updatedAfterMs,
        status,
        requesterEmail,
        ...(statuses ? { statuses } : {}),
        ...(assigneeEmail !== undefined ? { assigneeEmail } : {}),
      }),
    );
  },
  getTicket: (model, ctx) => ok(model.getTicket(ctx.tenant, ctx.ticketId)),
  createTicket: (model, ctx) => {
    const input = parseBody(createTicketInputSchema, ctx.body);
    model.checkCustomFields(ctx.tenant, input);
    return idempotent(model, ctx, () => ({
      status: 201,
      body: model.createTicket(ctx.tenant, input),
    }));
  },
  updateTicket: (model, ctx) => {
    const { actor_email: actorEmail, ...change } = parseBody(updateTicketInputSchema, ctx.body);
    return ok(
      model.updateTicket(
        ctx.tenant,
        ctx.ticketId,
        change,
        actorEmail?.trim().toLowerCase() || 'api',
      ),
    );
  },
  listActivity: (model, ctx) => {
    const range = readQuery(ctx, (query) => query.offset());
    return ok(model.pageActivity(ctx.tenant, ctx.ticketId, range));
  },
  addMessage: (model, ctx) => {
    const input = parseBody(addMessageInputSchema, ctx.body);
    return idempotent(model, ctx, () => ({
      status: 201,
      body: model.addMessage(ctx.tenant, ctx.ticketId, input),
    }));
  },
  listMessages: (model, ctx) => {
    const page = readQuery(ctx, (query) => query.page());
    return ok(model.pageMessages(ctx.tenant, ctx.ticketId, page));
  },
  listDesks: (model, ctx) => ok(model.listDesks(ctx.tenant)),
  listEmployees: (model, ctx) => {
    const range = readQuery(ctx, (query) => ({ ...query.offset(), email: query.text('email') }));
    return ok(model.listEmployees(ctx.tenant, range));
  },
  listAssets: (model, ctx) => {
    const range = readQuery(ctx, (query) => ({
      ...query.offset(),
      withTotal: query.bool('with_total', true),
      assignedToEmail: query.text('assigned_to_email'),
    }));
    return ok(model.listAssets(ctx.tenant, range));
  },
  listApplications: (model, ctx) =>
    ok(
      model.listApplications(
        ctx.tenant,
        readQuery(ctx, (query) => query.offset()),
      ),
    ),
  listCatalogItems: (model, ctx) =>
    ok(
      model.listCatalogItems(
        ctx.tenant,
        readQuery(ctx, (query) => query.offset()),
      ),
    ),
  listCustomFields: (model, ctx) =>
    ok(
      model.listCustomFields(
        ctx.tenant,
        readQuery(ctx, (query) => ({ ...query.offset(), deskId: query.text('desk_id') })),
      ),
    ),
  listRequests: (model, ctx) =>
    ok(
      model.pageRequests(
        ctx.tenant,
        readQuery(ctx, (query) => query.page()),
      ),
    ),
};

function readQuery<T>(ctx: Context, read: (query: QueryReader) => T): T {
  const query = new QueryReader(ctx.query);
  const value = read(query);
  query.done();
  return value;
}

// The fingerprint is the operation, the ticket and the body's JSON with sorted keys, so the
// same request formatted differently still counts as the same request.
function idempotent(model: EmulatorModel, ctx: Context, action: () => IdempotentResponse): Reply {
  const ticket = ctx.ticketId.toUpperCase();
  const fingerprint = `${ctx.operation} ${ticket} ${canonicalJson(ctx.body)}`;
  const outcome = model.runIdempotent(ctx.tenant, ctx.idempotencyKey, fingerprint, action);
  return {
    status: outcome.status,
    body: outcome.body,
    headers: outcome.replayed ? { 'Idempotent-Replayed': 'true' } : {},
  };
}

/** JSON with object keys sorted at every level. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

// --- writing responses -----------------------------------------------------------------------

function errorReply(error: EmulatorError): Reply {
  const headers: Record<string, string> = {};
  if (error instanceof MethodNotAllowedError) headers.Allow = error.allow.join(', ');
  if (error instanceof UnauthorizedError) headers['WWW-Authenticate'] = 'AccessKey';
  if (error instanceof PayloadTooLargeError) headers.Connection = 'close';
  return { status: error.status, body: { detail: error.detail }, headers };
}

function withRateHeaders(reply: Reply, rate: RateDecision | undefined): Reply {
  if (!rate) return reply;
  const headers: Record<string, string> = {
    ...reply.headers,
    'X-RateLimit-Limit': String(rate.limit),
    'X-RateLimit-Remaining': String(rate.remaining),
    'X-RateLimit-Reset': String(rate.resetSeconds),
  };
  if (rate.retryAfterSeconds !== undefined) headers['Retry-After'] = String(rate.retryAfterSeconds);
  return { ...reply, headers };
}

function send(res: ServerResponse, reply: Reply): void {
  const text = JSON.stringify(reply.body);
  res.writeHead(reply.status, {
    ...reply.headers,
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

function sendDashboard(
  model: EmulatorModel,
  res: ServerResponse,
  tenantSegment: string,
  idSegment: string,
): void {
  let tenant: string;
  let id: string;
  try {
    tenant = decodeURIComponent(tenantSegment);
    id = decodeURIComponent(idSegment);
  } catch {
    send(res, { status: 404, body: { detail: 'Not Found' } });
    return;
  }
  const ticket = model.hasTenant(tenant) ? model.findTicket(tenant, id) : undefined;
  if (!ticket) {
    send(res, { status: 404, body: { detail: 'Not Found' } });
    return;
  }
  const html = ticketPage(ticket, model.listMessages(tenant, ticket.id));
  res.writeHead(200, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(html),
  });
  res.end(html);
}

import { afterEach, describe, expect, it } from 'vitest';
import {
  AbortError,
  type ApiError,
  AuthenticationError,
  apiErrorFromResponse,
  BadRequestError,
  ConnectionError,
  InvalidTicketIdError,
  isServiceDeskError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ResponseValidationError,
  ServerError,
  ServiceDeskError,
  TimeoutError,
  UnexpectedStatusError,
  ValidationError,
} from '../../src/servicedesk/index.ts';
import { type Harness, harness, rejectionOf } from './fixtures.ts';

const init = {
  operation: 'getTicket' as const,
  method: 'GET',
  path: '/api/v1/tickets/IT-1/',
  headers: {},
  body: { detail: 'x' },
};

describe('errors', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('maps each HTTP status to its error class in one function', () => {
    const cases: [number, new (...args: never[]) => ApiError, string][] = [
      [400, BadRequestError, 'servicedesk_bad_request'],
      [401, AuthenticationError, 'servicedesk_authentication'],
      [403, PermissionDeniedError, 'servicedesk_permission_denied'],
      [404, NotFoundError, 'servicedesk_not_found'],
      [422, ValidationError, 'servicedesk_validation'],
      [429, RateLimitError, 'servicedesk_rate_limited'],
      [500, ServerError, 'servicedesk_server_error'],
      [503, ServerError, 'servicedesk_server_error'],
      [408, UnexpectedStatusError, 'servicedesk_unexpected_status'],
      [409, UnexpectedStatusError, 'servicedesk_unexpected_status'],
      [302, UnexpectedStatusError, 'servicedesk_unexpected_status'],
    ];
    for (const [status, cls, code] of cases) {
      const error = apiErrorFromResponse({ ...init, status });
      expect(error, String(status)).toBeInstanceOf(cls);
      expect(error.code, String(status)).toBe(code);
      expect(error.status).toBe(status);
    }
  });

  it('raises the mapped class from a real response', async () => {
    h = harness({ retry: { maxAttempts: 1 } });
    h.pool.intercept({ path: '/api/v1/tickets/IT-1/', method: 'GET' }).reply(403, { detail: 'no' });
    const error = await rejectionOf(h.client.getTicket('IT-1'));
    expect(error).toBeInstanceOf(PermissionDeniedError);
  });

  it('keeps status, headers, body, method, path and request id on an HTTP error', async () => {
    h = harness();
    h.pool
      .intercept({ path: '/api/v1/tickets/?desk_id=it', method: 'GET' })
      .reply(404, { detail: 'Desk not found' }, { headers: { 'x-request-id': 'req-123' } });
    const error = await rejectionOf(h.client.listTickets({ desk_id: 'it' }));
    expect(error).toBeInstanceOf(NotFoundError);
    const notFound = error as NotFoundError;
    expect(notFound.status).toBe(404);
    expect(notFound.headers['x-request-id']).toBe('req-123');
    expect(notFound.body).toEqual({ detail: 'Desk not found' });
    expect(notFound.method).toBe('GET');
    expect(notFound.path).toBe('/api/v1/tickets/');
    expect(notFound.requestId).toBe('req-123');
    expect(notFound.operation).toBe('listTickets');
    expect(notFound.message).toBe('listTickets GET /api/v1/tickets/: 404 Desk not found');
  });

  it('keeps a body that is not JSON as text', async () => {
    h = harness({ retry: { maxAttempts: 1 } });
    h.pool
      .intercept({ path: '/api/v1/desks/', method: 'GET' })
      .reply(502, '<html>Bad gateway</html>');
    const error = (await rejectionOf(h.client.listDesks())) as ServerError;
    expect(error).toBeInstanceOf(ServerError);
    expect(error.body).toBe('<html>Bad gateway</html>');
    expect(error.requestId).toBeUndefined();
  });

  it('parses the issues of a 422 and maps them to field names', async () => {
    h = harness();
    h.pool.intercept({ path: '/api/v1/tickets/', method: 'POST' }).reply(422, {
      detail: [
        { loc: ['body', 'title'], msg: 'Field required', type: 'missing' },
        { loc: ['body', 'custom_fields', 'laptop', 0], msg: 'bad', type: 'value_error' },
        { loc: ['query', 'page_size'], msg: 'too big', type: 'less_than_equal' },
      ],
    });
    const error = (await rejectionOf(h.client.createTicket({ title: '' }))) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.issues).toHaveLength(3);
    expect(error.issues[0]).toEqual({
      loc: ['body', 'title'],
      msg: 'Field required',
      type: 'missing',
    });
    expect(error.fieldErrors()).toEqual({ title: 'Field required', '0': 'bad' });
    expect(error.fieldErrors('query')).toEqual({ page_size: 'too big' });
    expect(error.message).toContain('body.title: Field required');
  });

  it('keeps a 422 whose detail is not a list, with no issues', () => {
    const error = apiErrorFromResponse({ ...init, status: 422, body: { detail: 'nope' } });
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([]);
    expect((error as ValidationError).fieldErrors()).toEqual({});
  });

  it('skips malformed 422 entries and keeps the valid ones', () => {
    const error = apiErrorFromResponse({
      ...init,
      status: 422,
      body: { detail: [{ nonsense: true }, { loc: ['body', 'body'], msg: 'empty', type: 't' }] },
    }) as ValidationError;
    expect(error.fieldErrors()).toEqual({ body: 'empty' });
  });

  it('gives every error class a string code and the ServiceDeskError base', () => {
    const transport = { operation: 'listDesks' as const, method: 'GET', path: '/api/v1/desks/' };
    const errors: ServiceDeskError[] = [
      apiErrorFromResponse({ ...init, status: 500 }),
      new ConnectionError(transport),
      new TimeoutError(transport),
      new ResponseValidationError({
        operation: 'getTicket',
        field: 'id',
        detail: 'x',
        status: 200,
      }),
      new InvalidTicketIdError('nope'),
      new AbortError('listDesks', new Error('stop')),
    ];
    expect(errors.map((error) => error.code)).toEqual([
      'servicedesk_server_error',
      'servicedesk_connection',
      'servicedesk_timeout',
      'servicedesk_response_validation',
      'servicedesk_invalid_ticket_id',
      'servicedesk_aborted',
    ]);
    for (const error of errors) {
      expect(error).toBeInstanceOf(ServiceDeskError);
      expect(isServiceDeskError(error)).toBe(true);
    }
    expect(isServiceDeskError(new Error('x'))).toBe(false);
  });

  it('makes TimeoutError a kind of ConnectionError', () => {
    const error = new TimeoutError({ operation: 'listDesks', method: 'GET', path: '/x/' });
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.name).toBe('TimeoutError');
  });

  it('names the abort error AbortError and keeps the reason as its cause', () => {
    const reason = new Error('user left');
    const error = new AbortError('getTicket', reason);
    expect(error.name).toBe('AbortError');
    expect(error.cause).toBe(reason);
  });

  it('keeps the Retry-After wait on a 429', async () => {
    h = harness({ retry: { maxAttempts: 1 } });
    h.pool
      .intercept({ path: '/api/v1/desks/', method: 'GET' })
      .reply(429, { detail: 'slow down' }, { headers: { 'retry-after': '3' } });
    const error = (await rejectionOf(h.client.listDesks())) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.retryAfterMs).toBe(3000);
  });
});

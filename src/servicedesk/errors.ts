/**
 * Every error the service-desk client raises: one class per case, each with a string `code`
 * so callers (and logs) can branch on a stable value rather than on class identity, which
 * breaks across duplicated module copies.
 */

import type { IncomingHttpHeaders } from 'node:http';
import { z } from 'zod';
import { CodedError } from '../coded-error.ts';
import type { OperationName } from '../contract/routes.ts';
import { type ValidationIssue, validationIssueSchema } from '../contract/schemas.ts';

/** The string codes of the client's errors, one per class below. */
export const SERVICE_DESK_ERROR_CODES = {
  badRequest: 'servicedesk_bad_request',
  authentication: 'servicedesk_authentication',
  permissionDenied: 'servicedesk_permission_denied',
  notFound: 'servicedesk_not_found',
  validation: 'servicedesk_validation',
  rateLimited: 'servicedesk_rate_limited',
  serverError: 'servicedesk_server_error',
  unexpectedStatus: 'servicedesk_unexpected_status',
  connection: 'servicedesk_connection',
  timeout: 'servicedesk_timeout',
  responseValidation: 'servicedesk_response_validation',
  invalidTicketId: 'servicedesk_invalid_ticket_id',
  aborted: 'servicedesk_aborted',
} as const;

/** A code of the client's errors. */
export type ServiceDeskErrorCode =
  (typeof SERVICE_DESK_ERROR_CODES)[keyof typeof SERVICE_DESK_ERROR_CODES];

/** Base class of every error the client raises. */
export class ServiceDeskError extends CodedError<ServiceDeskErrorCode> {}

/** Whether a value is one of the client's errors (by code, so it survives duplicate copies). */
export function isServiceDeskError(value: unknown): value is ServiceDeskError {
  if (!(value instanceof Error)) return false;
  const code: unknown = (value as { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('servicedesk_');
}

/** What the client knows about a response that was not a success. */
export interface ApiErrorInit {
  operation: OperationName;
  method: string;
  /** Request path without the query string. */
  path: string;
  status: number;
  headers: IncomingHttpHeaders;
  /** Parsed JSON when the body was JSON, else its text. */
  body: unknown;
  /** Wait the server asked for, from Retry-After (and X-RateLimit-Reset on a 429). */
  retryAfterMs?: number | undefined;
}

/** An HTTP response with a non-success status. */
export class ApiError extends ServiceDeskError {
  readonly operation: OperationName;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: unknown;
  /** The platform's `x-request-id`, for support tickets. */
  readonly requestId: string | undefined;
  /** Wait the server asked for before a retry, when it said. */
  readonly retryAfterMs: number | undefined;

  constructor(code: ServiceDeskErrorCode, init: ApiErrorInit, message?: string) {
    super(code, message ?? apiErrorMessage(init));
    this.operation = init.operation;
    this.method = init.method;
    this.path = init.path;
    this.status = init.status;
    this.headers = init.headers;
    this.body = init.body;
    this.requestId = headerValue(init.headers, 'x-request-id');
    this.retryAfterMs = init.retryAfterMs;
  }
}

/** 400: the request is malformed or breaks a business rule (e.g. changing a closed ticket). */
export class BadRequestError extends ApiError {
  constructor(init: ApiErrorInit) {
    super(SERVICE_DESK_ERROR_CODES.badRequest, init);
  }
}

/** 401: missing or invalid access key. */
export class AuthenticationError extends ApiError {
  constructor(init: ApiErrorInit) {
    super(SERVICE_DESK_ERROR_CODES.authentication, init);
  }
}

/** 403: the key is valid but its role does not allow the action (a Read key on a write). */
export class PermissionDeniedError extends ApiError {
  constructor(init: ApiErrorInit) {
    super(SERVICE_DESK_ERROR_CODES.permissionDenied, init);
  }
}

/** 404: the resource does not exist or the key's tenant cannot see it. */
export class NotFoundError extends ApiError {
  constructor(init: ApiErrorInit) {
    super(SERVICE_DESK_ERROR_CODES.notFound, init);
  }
}

/** 422: validation failed; `issues` holds one entry per invalid field. */
export class ValidationError extends ApiError {
  readonly issues: ValidationIssue[];

  constructor(init: ApiErrorInit) {
    const issues = parseValidationIssues(init.body);
    super(SERVICE_DESK_ERROR_CODES.validation, init, validationMessage(init, issues));
    this.issues = issues;
  }

  /**
   * Messages keyed by field name (the last element of `loc`), for the issues located in
   * `location` (`body` by default), so a form can show each message next to its field.
   * The first message of a field wins.
   */
  fieldErrors(location: string = 'body'): Record<string, string> {
    const fields: Record<string, string> = {};
    for (const issue of this.issues) {
      if (issue.loc[0] !== location) continue;
      const field = String(issue.loc[issue.loc.length - 1]);
      if (!(field in fields)) fields[field] = issue.msg;
    }
    return fields;
  }
}

/** 429: too many requests; `retryAfterMs` is the wait the server asked for, when it said. */
export class RateLimitError extends ApiError {
  constructor(init: ApiErrorInit) {
    super(SERVICE_DESK_ERROR_CODES.rateLimited, init);
  }
}

/** 5xx: the platform failed. */
export class ServerError extends ApiError {
  constructor(init: ApiErrorInit) {
    super(SERVICE_DESK_ERROR_CODES.serverError, init);
  }
}

/** Any other non-success status (e.g. 408, 409, 3xx). */
export class UnexpectedStatusError extends ApiError {
  constructor(init: ApiErrorInit) {
    super(SERVICE_DESK_ERROR_CODES.unexpectedStatus, init);
  }
}

/** The one place that decides which class an HTTP status becomes. */
export function apiErrorFromResponse(init: ApiErrorInit): ApiError {
  const { status } = init;
  if (status === 400) return new BadRequestError(init);
  if (status === 401) return new AuthenticationError(init);
  if (status === 403) return new PermissionDeniedError(init);
  if (status === 404) return new NotFoundError(init);
  if (status === 422) return new ValidationError(init);
  if (status === 429) return new RateLimitError(init);
  if (status >= 500 && status <= 599) return new ServerError(init);
  return new UnexpectedStatusError(init);
}

/** What the client knows about a request that got no usable response. */
export interface TransportErrorInit {
  operation: OperationName;
  method: string;
  path: string;
  /** The underlying error's code (`ECONNREFUSED`, `UND_ERR_SOCKET`...), when it had one. */
  causeCode?: string | undefined;
}

/** The request got no response: the connection failed, was reset or was refused. */
export class ConnectionError extends ServiceDeskError {
  readonly operation: OperationName;
  readonly method: string;
  readonly path: string;
  readonly causeCode: string | undefined;

  constructor(
    init: TransportErrorInit,
    message?: string,
    options?: ErrorOptions,
    code: ServiceDeskErrorCode = SERVICE_DESK_ERROR_CODES.connection,
  ) {
    super(
      code,
      message ??
        `${init.operation} ${init.method} ${init.path}: connection failed${init.causeCode ? ` (${init.causeCode})` : ''}`,
      options,
    );
    this.operation = init.operation;
    this.method = init.method;
    this.path = init.path;
    this.causeCode = init.causeCode;
  }
}

/** The connection, the response headers or the response body took longer than allowed. */
export class TimeoutError extends ConnectionError {
  constructor(init: TransportErrorInit, options?: ErrorOptions) {
    super(
      init,
      `${init.operation} ${init.method} ${init.path}: timed out${init.causeCode ? ` (${init.causeCode})` : ''}`,
      options,
      SERVICE_DESK_ERROR_CODES.timeout,
    );
  }
}

/** A success response whose body does not match the schema of the operation. */
export class ResponseValidationError extends ServiceDeskError {
  readonly operation: OperationName;
  /** Dotted path of the first failing field (`items.0.status`), empty for the whole body. */
  readonly field: string;
  readonly status: number;
  readonly issues: readonly z.core.$ZodIssue[];

  constructor(init: {
    operation: OperationName;
    field: string;
    detail: string;
    status: number;
    issues?: readonly z.core.$ZodIssue[];
  }) {
    const where = init.field ? `response field ${init.field}` : 'response body';
    super(
      SERVICE_DESK_ERROR_CODES.responseValidation,
      `${init.operation}: ${where}: ${init.detail}`,
    );
    this.operation = init.operation;
    this.field = init.field;
    this.status = init.status;
    this.issues = init.issues ?? [];
  }
}

/** A string passed as a ticket ID is not `PREFIX-NUMBER`; raised before any request. */
export class InvalidTicketIdError extends ServiceDeskError {
  readonly ticketId: string;

  constructor(ticketId: string) {
    super(
      SERVICE_DESK_ERROR_CODES.invalidTicketId,
      `Not a ticket ID: ${JSON.stringify(ticketId.slice(0, 64))} (expected PREFIX-NUMBER, e.g. IT-42)`,
    );
    this.ticketId = ticketId;
  }
}

/**
 * The caller's AbortSignal fired. Named `AbortError` so code that checks
 * `err.name === 'AbortError'` keeps working; the signal's reason is the `cause`.
 */
export class AbortError extends ServiceDeskError {
  readonly operation: OperationName | undefined;

  constructor(operation: OperationName | undefined, reason: unknown) {
    super(SERVICE_DESK_ERROR_CODES.aborted, `${operation ?? 'request'}: aborted`, {
      cause: reason,
    });
    this.operation = operation;
  }
}

/**
 * A foreign error's stand-in, for logs and causes: the same name, code and (redacted) message
 * and stack, but none of its other fields, which may hold request options. Its code is the
 * foreign error's own, when it had one.
 */
export class RedactedError extends Error {
  declare readonly code?: string;

  constructor(init: { name: string; message: string; stack?: string; code?: unknown }) {
    super(init.message);
    this.name = init.name;
    if (typeof init.code === 'string') Object.assign(this, { code: init.code });
    if (init.stack !== undefined) this.stack = init.stack;
  }
}

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function detailText(body: unknown): string | undefined {
  if (typeof body === 'string') return body.slice(0, 200) || undefined;
  if (body && typeof body === 'object' && 'detail' in body) {
    const { detail } = body as { detail: unknown };
    if (typeof detail === 'string') return detail.slice(0, 200);
  }
  return undefined;
}

function apiErrorMessage(init: ApiErrorInit): string {
  const detail = detailText(init.body);
  return `${init.operation} ${init.method} ${init.path}: ${init.status}${detail ? ` ${detail}` : ''}`;
}

const validationBodySchema = z.object({ detail: z.array(z.unknown()) });

function parseValidationIssues(body: unknown): ValidationIssue[] {
  const parsed = validationBodySchema.safeParse(body);
  if (!parsed.success) return [];
  // One malformed entry must not hide the others.
  const issues: ValidationIssue[] = [];
  for (const entry of parsed.data.detail) {
    const issue = validationIssueSchema.safeParse(entry);
    if (issue.success) issues.push(issue.data);
  }
  return issues;
}

function validationMessage(init: ApiErrorInit, issues: ValidationIssue[]): string {
  if (issues.length === 0) return apiErrorMessage(init);
  const list = issues
    .slice(0, 5)
    .map((issue) => `${issue.loc.join('.')}: ${issue.msg}`)
    .join('; ');
  return `${init.operation} ${init.method} ${init.path}: 422 ${list}`;
}

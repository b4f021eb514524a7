/** The service-desk API client: its public surface. */

export {
  normaliseBaseUrl,
  type OperationName,
  ROUTES,
  routePath,
  type Variant,
} from '../contract/routes.ts';
export * from '../contract/schemas.ts';
export * from '../contract/service-levels.ts';
export { isTicketId, normaliseTicketId, ticketIdFromText } from '../contract/ticket-id.ts';
export type {
  AcquireHook,
  AcquireTicket,
  CallOptions,
  ListAssetsQuery,
  ListCustomFieldsQuery,
  ListEmployeesQuery,
  ListTicketsQuery,
  OffsetQuery,
  PageQuery,
  RateLimitListener,
  ResponseInfo,
  ResponseListener,
  ServiceDeskClientOptions,
  ServiceDeskLogger,
  TimeoutOptions,
} from './client.ts';
export { ServiceDeskClient } from './client.ts';
export {
  AbortError,
  ApiError,
  type ApiErrorInit,
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
  type ServiceDeskErrorCode,
  TimeoutError,
  type TransportErrorInit,
  UnexpectedStatusError,
  ValidationError,
} from './errors.ts';
export { hashIdempotencyKey } from './idempotency.ts';
export { DEFAULT_ITERATE_PAGE_SIZE, type IterateOptions, type Priority } from './pagination.ts';
export type { RateLimitState } from './rate-limit.ts';
export {
  DEFAULT_RETRY_OPTIONS,
  isRetryableError,
  type RetryDecision,
  type RetryOptions,
  RetryPolicy,
} from './retry-policy.ts';

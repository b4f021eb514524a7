/**
 * Errors of the emulator. Each class is one case of the platform's error table (docs/platform-contract.md, "Behaviour") and
 * knows its HTTP status and `detail`, so the server maps any of them to a response in one place.
 */
import { CodedError } from '../../src/coded-error.ts';
import type { ValidationIssue } from '../../src/contract/schemas.ts';

/** The `detail` of an error body: a message, or one entry per invalid field for a 422. */
export type ErrorDetail = string | ValidationIssue[];

/** The string codes of the emulator's errors, one per class below. */
export const EMULATOR_ERROR_CODES = {
  emulatorError: 'emulator_error',
  businessRule: 'business_rule',
  unauthorized: 'unauthorized',
  forbidden: 'forbidden',
  notFound: 'not_found',
  methodNotAllowed: 'method_not_allowed',
  payloadTooLarge: 'payload_too_large',
  validation: 'validation',
  rateLimited: 'rate_limited',
  config: 'config',
} as const;

/** A code of the emulator's errors. */
export type EmulatorErrorCode = (typeof EMULATOR_ERROR_CODES)[keyof typeof EMULATOR_ERROR_CODES];

/** Base of every error the emulator answers with; `code` names the case for tests and logs. */
export class EmulatorError extends CodedError<EmulatorErrorCode> {
  readonly status: number = 500;

  constructor(message: string, options?: ErrorOptions) {
    super(EMULATOR_ERROR_CODES.emulatorError, message, options);
  }

  /** The JSON `detail` of the response body. */
  get detail(): ErrorDetail {
    return this.message;
  }
}

/** 400: the request breaks a business rule (a closed ticket, a reused idempotency key). */
export class BusinessRuleError extends EmulatorError {
  override readonly code = EMULATOR_ERROR_CODES.businessRule;
  override readonly status = 400;
}

/** 401: no key, an unknown key, another scheme, or a key of another organization's host. */
export class UnauthorizedError extends EmulatorError {
  override readonly code = EMULATOR_ERROR_CODES.unauthorized;
  override readonly status = 401;
}

/** 403: a valid key whose role does not allow the action (a Read key on a write). */
export class ForbiddenError extends EmulatorError {
  override readonly code = EMULATOR_ERROR_CODES.forbidden;
  override readonly status = 403;
}

/** 404: the resource does not exist or the key's tenant cannot see it. */
export class EmulatorNotFoundError extends EmulatorError {
  override readonly code = EMULATOR_ERROR_CODES.notFound;
  override readonly status = 404;
}

/** 405: a known path with a method it does not serve. */
export class MethodNotAllowedError extends EmulatorError {
  override readonly code = EMULATOR_ERROR_CODES.methodNotAllowed;
  override readonly status = 405;
  readonly allow: readonly string[];

  constructor(allow: readonly string[]) {
    super('Method Not Allowed');
    this.allow = allow;
  }
}

/** 413: a body larger than the emulator accepts. */
export class PayloadTooLargeError extends EmulatorError {
  override readonly code = EMULATOR_ERROR_CODES.payloadTooLarge;
  override readonly status = 413;
}

/** 422: validation failed; FastAPI-style, one issue per invalid field. */
export class EmulatorValidationError extends EmulatorError {
  override readonly code = EMULATOR_ERROR_CODES.validation;
  override readonly status = 422;
  readonly issues: ValidationIssue[];

  constructor(issues: ValidationIssue[]) {
    super(issues.map((issue) => `${issue.loc.join('.')}: ${issue.msg}`).join('; '));
    this.issues = issues;
  }

  override get detail(): ErrorDetail {
    return this.issues;
  }
}

/** 429: the key is over its minute or hour budget. */
export class RateLimitedError extends EmulatorError {
  override readonly code = EMULATOR_ERROR_CODES.rateLimited;
  override readonly status = 429;
}

/** A bad emulator setting (a CLI flag, EMULATOR_KEYS): the process refuses to start. */
export class EmulatorConfigError extends CodedError<EmulatorErrorCode> {
  constructor(message: string, options?: ErrorOptions) {
    super(EMULATOR_ERROR_CODES.config, message, options);
  }
}

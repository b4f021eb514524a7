/**
 * Errors of the emulator. Each class is one case of the platform's error table (docs/platform-contract.md, "Behaviour") and
 * knows its HTTP status and `detail`, so the server maps any of them to a response in one place.
 */
import { CodedError } from '../../src/coded-error.ts';
import type { ValidationIssue } from '../../src/contract/schemas.ts';

/** The `detail` of an error body: a message, or one entry per invalid field for a 422. */
export type ErrorDetail = string | ValidationIssue[];

/** Base of every error the emulator answers with; `code` names the case for tests and logs. */
export class EmulatorError extends CodedError {
  readonly status: number = 500;

  constructor(message: string, options?: ErrorOptions) {
    super('emulator_error', message, options);
  }

  /** The JSON `detail` of the response body. */
  get detail(): ErrorDetail {
    return this.message;
  }
}

/** 400: the request breaks a business rule (a closed ticket, a reused idempotency key). */
export class BusinessRuleError extends EmulatorError {
  override readonly code = 'business_rule';
  override readonly status = 400;
}

/** 401: no key, an unknown key, another scheme, or a key of another organization's host. */
export class UnauthorizedError extends EmulatorError {
  override readonly code = 'unauthorized';
  override readonly status = 401;
}

/** 403: a valid key whose role does not allow the action (a Read key on a write). */
export class ForbiddenError extends EmulatorError {
  override readonly code = 'forbidden';
  override readonly status = 403;
}

/** 404: the resource does not exist or the key's tenant cannot see it. */
export class NotFoundError extends EmulatorError {
  override readonly code = 'not_found';
  override readonly status = 404;
}

/** 405: a known path with a method it does not serve. */
export class MethodNotAllowedError extends EmulatorError {
  override readonly code = 'method_not_allowed';
  override readonly status = 405;
  readonly allow: readonly string[];

  constructor(allow: readonly string[]) {
    super('Method Not Allowed');
    this.allow = allow;
  }
}

/** 413: a body larger than the emulator accepts. */
export class PayloadTooLargeError extends EmulatorError {
  override readonly code = 'payload_too_large';
  override readonly status = 413;
}

/** 422: validation failed; FastAPI-style, one issue per invalid field. */
export class ValidationError extends EmulatorError {
  override readonly code = 'validation';
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
  override readonly code = 'rate_limited';
  override readonly status = 429;
}

/** A bad emulator setting (a CLI flag, EMULATOR_KEYS): the process refuses to start. */
export class ConfigError extends CodedError {
  constructor(message: string, options?: ErrorOptions) {
    super('config', message, options);
  }
}

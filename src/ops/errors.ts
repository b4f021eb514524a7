/** Errors of the operations component (readiness, doctor, shutdown), each with a string code. */
import { CodedError } from '../coded-error.ts';

/** A health or doctor check that did not answer in time. */
export class CheckTimeoutError extends CodedError {
  /** The check that timed out. */
  readonly check: string;

  constructor(check: string, timeoutMs: number) {
    super('check_timeout', `${check} did not answer within ${timeoutMs} ms`);
    this.check = check;
  }
}

/** manifest.yml could not be read or does not list the bot scopes. */
export class ManifestError extends CodedError {
  constructor(detail: string, options?: { cause?: unknown }) {
    super('manifest_invalid', `manifest.yml: ${detail}`, options);
  }
}

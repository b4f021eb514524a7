/** Errors of the operations component (readiness, doctor, shutdown), each with a string code. */

/** A health or doctor check that did not answer in time. */
export class CheckTimeoutError extends Error {
  /** Machine-readable code. */
  readonly code = 'check_timeout';
  /** The check that timed out. */
  readonly check: string;

  constructor(check: string, timeoutMs: number) {
    super(`${check} did not answer within ${timeoutMs} ms`);
    this.name = 'CheckTimeoutError';
    this.check = check;
  }
}

/** manifest.yml could not be read or does not list the bot scopes. */
export class ManifestError extends Error {
  /** Machine-readable code. */
  readonly code = 'manifest_invalid';

  constructor(detail: string, options?: { cause?: unknown }) {
    super(`manifest.yml: ${detail}`, options);
    this.name = 'ManifestError';
  }
}

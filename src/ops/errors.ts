/** Errors of the operations component (readiness, doctor, shutdown), each with a string code. */
import { CodedError } from '../coded-error.ts';

/** manifest.yml could not be read or does not list the bot scopes. */
export class ManifestError extends CodedError {
  constructor(detail: string, options?: { cause?: unknown }) {
    super('manifest_invalid', `manifest.yml: ${detail}`, options);
  }
}

/** Errors of the operations component (readiness, doctor, shutdown), each with a string code. */
import { CodedError } from '../coded-error.ts';

/** The string codes of the operations component's errors, one per class below. */
export const OPS_ERROR_CODES = {
  manifestInvalid: 'manifest_invalid',
  manifestOptionInvalid: 'manifest_option_invalid',
  noInstallation: 'no_installation',
} as const;

/** A code of the operations component's errors. */
export type OpsErrorCode = (typeof OPS_ERROR_CODES)[keyof typeof OPS_ERROR_CODES];

/** manifest.yml could not be read or does not list the bot scopes. */
export class ManifestInvalidError extends CodedError<OpsErrorCode> {
  constructor(detail: string, options?: { cause?: unknown }) {
    super(OPS_ERROR_CODES.manifestInvalid, `manifest.yml: ${detail}`, options);
  }
}

/** An option of `npm run manifest` that cannot go in the manifest as given. */
export class ManifestOptionInvalidError extends CodedError<OpsErrorCode> {
  /** The option at fault (`--url`, `--dashboard-host`). */
  readonly option: string;

  constructor(option: string, detail: string) {
    super(OPS_ERROR_CODES.manifestOptionInvalid, `${option} ${detail}`);
    this.option = option;
  }
}

/** Installed by OAuth, and no workspace has installed the app yet (readiness, doctor). */
export class NoInstallationError extends CodedError<OpsErrorCode> {
  constructor() {
    super(
      OPS_ERROR_CODES.noInstallation,
      'no workspace has installed the app yet: open /slack/install on the app’s public URL',
    );
  }
}

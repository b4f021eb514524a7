/** Errors of the sandbox: its configuration, the app manifest it reads, and what the page asks. */
import { CodedError } from '../../src/coded-error.ts';

/** The string codes of the sandbox's errors, one per class below. */
export const SANDBOX_ERROR_CODES = {
  sandboxConfigInvalid: 'sandbox_config_invalid',
  manifestUnreadable: 'manifest_unreadable',
  invalidAction: 'invalid_action',
  unknownIdentity: 'unknown_identity',
  bodyTooLarge: 'body_too_large',
  invalidJson: 'invalid_json',
  installFailed: 'install_failed',
} as const;

/** A code of the sandbox's errors. */
export type SandboxErrorCode = (typeof SANDBOX_ERROR_CODES)[keyof typeof SANDBOX_ERROR_CODES];

/** The base of every sandbox error. */
export class SandboxError extends CodedError<SandboxErrorCode> {}

/** The environment does not describe a sandbox that can start (PORT out of range...). */
export class SandboxConfigError extends SandboxError {
  constructor(message: string) {
    super(SANDBOX_ERROR_CODES.sandboxConfigInvalid, message);
  }
}

/** manifest.yml could not be read or lacks what the simulator shows (commands, shortcuts). */
export class ManifestUnreadableError extends SandboxError {
  constructor(message: string, options?: ErrorOptions) {
    super(SANDBOX_ERROR_CODES.manifestUnreadable, message, options);
  }
}

/** The page sent an action the simulator does not understand. */
export class InvalidActionError extends SandboxError {
  constructor(message: string) {
    super(SANDBOX_ERROR_CODES.invalidAction, message);
  }
}

/** The page named a person the simulator does not let a visitor be. */
export class UnknownIdentityError extends SandboxError {
  constructor(userId: string) {
    super(SANDBOX_ERROR_CODES.unknownIdentity, `the sandbox has no visitor identity ${userId}`);
  }
}

/** The page sent an action larger than the simulator reads. */
export class ActionTooLargeError extends SandboxError {
  constructor() {
    super(SANDBOX_ERROR_CODES.bodyTooLarge, 'the action is too large');
  }
}

/** The page sent an action that is not JSON. */
export class ActionNotJsonError extends SandboxError {
  constructor(options?: ErrorOptions) {
    super(SANDBOX_ERROR_CODES.invalidJson, 'the action is not valid JSON', options);
  }
}

/** Installing the app into one of the organization's workspaces, at start, did not succeed. */
export class SandboxInstallError extends SandboxError {
  constructor(team: string, step: string, status: number) {
    super(
      SANDBOX_ERROR_CODES.installFailed,
      `installing the app into workspace ${team} failed: ${step} answered ${status}`,
    );
  }
}

/** Errors of the sandbox: its configuration, the app manifest it reads, and what the page asks. */
import { CodedError } from '../../src/coded-error.ts';

/** The base of every sandbox error. */
export class SandboxError extends CodedError {}

/** The environment does not describe a sandbox that can start (PORT out of range...). */
export class SandboxConfigError extends SandboxError {
  constructor(message: string) {
    super('sandbox_config_invalid', message);
  }
}

/** manifest.yml could not be read or lacks what the simulator shows (commands, shortcuts). */
export class ManifestError extends SandboxError {
  constructor(message: string, options?: ErrorOptions) {
    super('manifest_unreadable', message, options);
  }
}

/** The page sent an action the simulator does not understand. */
export class InvalidActionError extends SandboxError {
  constructor(message: string) {
    super('invalid_action', message);
  }
}

/** The page named a person the simulator does not let a visitor be. */
export class UnknownIdentityError extends SandboxError {
  constructor(userId: string) {
    super('unknown_identity', `the sandbox has no visitor identity ${userId}`);
  }
}

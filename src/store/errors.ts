/** The errors the stores raise, one class per case, each with a string `code`. */
import { CodedError } from '../coded-error.ts';

/** Codes of every store error, one per class below. */
export const STORE_ERROR_CODES = {
  unavailable: 'STORE_UNAVAILABLE',
  commandFailed: 'STORE_COMMAND_FAILED',
  dataInvalid: 'STORE_DATA_INVALID',
  invalidArgument: 'STORE_INVALID_ARGUMENT',
  contended: 'STORE_CONTENDED',
  threadLinkedElsewhere: 'STORE_THREAD_LINKED_ELSEWHERE',
  transactionAborted: 'STORE_TRANSACTION_ABORTED',
  scriptNotRegistered: 'STORE_SCRIPT_NOT_REGISTERED',
  scriptKeyCount: 'STORE_SCRIPT_KEY_COUNT',
  installationNotFound: 'STORE_INSTALLATION_NOT_FOUND',
  oauthStateInvalid: 'STORE_OAUTH_STATE_INVALID',
} as const;

/** A code of the store's errors. */
export type StoreErrorCode = (typeof STORE_ERROR_CODES)[keyof typeof STORE_ERROR_CODES];

/** The base of every store error, so callers can catch the component's errors at once. */
export class StoreError extends CodedError<StoreErrorCode> {}

/**
 * Redis could not be reached (connection refused or closed, retries exhausted). The intent is
 * not durable: a listener must not ack, so Slack redelivers.
 */
export class StoreUnavailableError extends StoreError {
  override readonly name = 'StoreUnavailableError';
  readonly operation: string;

  constructor(operation: string, options?: ErrorOptions) {
    super(
      STORE_ERROR_CODES.unavailable,
      `store unavailable during ${operation}${causeSuffix(options)}`,
      options,
    );
    this.operation = operation;
  }
}

/** Redis answered with an error (script error, out of memory, wrong type under a key). */
export class StoreCommandError extends StoreError {
  override readonly name = 'StoreCommandError';
  readonly operation: string;

  constructor(operation: string, options?: ErrorOptions) {
    super(
      STORE_ERROR_CODES.commandFailed,
      `store command failed during ${operation}${causeSuffix(options)}`,
      options,
    );
    this.operation = operation;
  }
}

/** Something read back from the store did not have the shape the store wrote. */
export class StoreDataError extends StoreError {
  override readonly name = 'StoreDataError';

  constructor(message: string, options?: ErrorOptions) {
    super(STORE_ERROR_CODES.dataInvalid, message, options);
  }
}

/** A caller passed something the store cannot hold (an empty key, a negative lease). */
export class InvalidStoreArgumentError extends StoreError {
  override readonly name = 'InvalidStoreArgumentError';

  constructor(message: string, options?: ErrorOptions) {
    super(STORE_ERROR_CODES.invalidArgument, message, options);
  }
}

/** Other processes kept changing what an operation read before it could write; try again. */
export class StoreContentionError extends StoreError {
  override readonly name = 'StoreContentionError';
  readonly operation: string;

  constructor(operation: string, rounds: number) {
    super(
      STORE_ERROR_CODES.contended,
      `${operation} lost to other writers ${rounds} times in a row`,
    );
    this.operation = operation;
  }
}

/**
 * A thread asked to be linked to one ticket already belongs to another, and the caller did not
 * say it means to move it: the thread stays where it is, so the other ticket keeps its replies.
 */
export class ThreadLinkedElsewhereError extends StoreError {
  override readonly name = 'ThreadLinkedElsewhereError';
  /** The ticket the thread belongs to. */
  readonly linkedTo: string;

  constructor(linkedTo: string, asked: string) {
    super(
      STORE_ERROR_CODES.threadLinkedElsewhere,
      `the thread belongs to ${linkedTo}, so it was not linked to ${asked}`,
    );
    this.linkedTo = linkedTo;
  }
}

/** A MULTI came back from Redis with no replies: nothing of it was written. */
export class TransactionAbortedError extends StoreError {
  override readonly name = 'TransactionAbortedError';

  constructor() {
    super(STORE_ERROR_CODES.transactionAborted, 'transaction aborted');
  }
}

/** ioredis did not add the method of a script just defined: the client is not one the store knows. */
export class ScriptNotRegisteredError extends StoreError {
  override readonly name = 'ScriptNotRegisteredError';

  constructor(script: string) {
    super(STORE_ERROR_CODES.scriptNotRegistered, `ioredis did not register the script ${script}`);
  }
}

/** A script was called with another number of keys than it declares: a bug of its caller. */
export class ScriptKeyCountError extends StoreError {
  override readonly name = 'ScriptKeyCountError';

  constructor(script: string, declared: number, given: number) {
    super(
      STORE_ERROR_CODES.scriptKeyCount,
      `script ${script} takes ${declared} keys, got ${given}`,
    );
  }
}

/** No installation answers the query: the workspace never installed the app, or uninstalled it. */
export class InstallationNotFoundError extends StoreError {
  override readonly name = 'InstallationNotFoundError';

  constructor(place: string) {
    super(STORE_ERROR_CODES.installationNotFound, `no Slack installation for ${place}`);
  }
}

/** An install link's state is unknown, used already, expired or not signed with the secret. */
export class InvalidOAuthStateError extends StoreError {
  override readonly name = 'InvalidOAuthStateError';

  constructor(why: string) {
    super(STORE_ERROR_CODES.oauthStateInvalid, `the install link's state is not valid: ${why}`);
  }
}

/**
 * Wraps a failure from the Redis client: a reply error means Redis refused the command, any
 * other error means it could not be reached. Store errors pass through unchanged.
 */
export function toStoreError(operation: string, error: unknown): StoreError {
  if (error instanceof StoreError) return error;
  if (error instanceof Error && error.name === 'ReplyError') {
    return new StoreCommandError(operation, { cause: error });
  }
  return new StoreUnavailableError(operation, { cause: error });
}

function causeSuffix(options: ErrorOptions | undefined): string {
  const cause = options?.cause;
  return cause instanceof Error ? `: ${cause.message}` : '';
}

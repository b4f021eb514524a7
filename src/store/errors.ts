/** The errors the stores raise, one class per case, each with a string `code`. */
import { CodedError } from '../coded-error.ts';

/** Codes of every store error. */
export type StoreErrorCode =
  | 'STORE_UNAVAILABLE'
  | 'STORE_COMMAND_FAILED'
  | 'STORE_DATA_INVALID'
  | 'STORE_INVALID_ARGUMENT'
  | 'STORE_CONTENDED'
  | 'STORE_THREAD_LINKED_ELSEWHERE';

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
      'STORE_UNAVAILABLE',
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
      'STORE_COMMAND_FAILED',
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
    super('STORE_DATA_INVALID', message, options);
  }
}

/** A caller passed something the store cannot hold (an empty key, a negative lease). */
export class InvalidStoreArgumentError extends StoreError {
  override readonly name = 'InvalidStoreArgumentError';

  constructor(message: string, options?: ErrorOptions) {
    super('STORE_INVALID_ARGUMENT', message, options);
  }
}

/** Other processes kept changing what an operation read before it could write; try again. */
export class StoreContentionError extends StoreError {
  override readonly name = 'StoreContentionError';
  readonly operation: string;

  constructor(operation: string, rounds: number) {
    super('STORE_CONTENDED', `${operation} lost to other writers ${rounds} times in a row`);
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
      'STORE_THREAD_LINKED_ELSEWHERE',
      `the thread belongs to ${linkedTo}, so it was not linked to ${asked}`,
    );
    this.linkedTo = linkedTo;
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

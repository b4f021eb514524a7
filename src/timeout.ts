/**
 * Bounding a wait: a hung dependency must not hang a probe, the doctor, or a person waiting on
 * a modal. The one timeout helper of the project.
 */
import { CodedError } from './coded-error.ts';

/** A bounded wait ran out before the work answered. */
export class TimedOutError extends CodedError {
  /** What was waited for. */
  readonly what: string;

  constructor(what: string, timeoutMs: number) {
    super('timed_out', `${what} did not answer within ${timeoutMs} ms`);
    this.what = what;
  }
}

/** Races the work against a timer (which never keeps the process alive): `TimedOutError` first. */
export async function withTimeout<T>(
  what: string,
  timeoutMs: number,
  work: Promise<T>,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new TimedOutError(what, timeoutMs)), timeoutMs);
    timer.unref();
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The work's value, or `fallback` when it fails or takes longer than `timeoutMs`. */
export function withinOr<T>(timeoutMs: number, work: Promise<T>, fallback: T): Promise<T> {
  return withTimeout('work', timeoutMs, work).catch(() => fallback);
}

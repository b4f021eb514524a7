/** Bounding a check's wait, so a hung dependency cannot hang a probe or the doctor. */
import { CheckTimeoutError } from './errors.ts';

/** Races a promise against a timer; the timer never keeps the process alive. */
export async function withTimeout<T>(
  check: string,
  timeoutMs: number,
  work: Promise<T>,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new CheckTimeoutError(check, timeoutMs)), timeoutMs);
    timer.unref();
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Waiting, boundedly, for something asynchronous the app does after it has acked. */
import { setTimeout as sleep } from 'node:timers/promises';

/** Resolves once the check passes; throws after `timeoutMs` (2 s by default). */
export async function eventually(check: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await sleep(10);
  }
}

/**
 * A Slack request's intent made durable before the ack: one entry per delivery key, so a
 * retried event, a double click or a second replica adds nothing. The outbox announces the
 * entry to the workers.
 */
import type { EnqueueOutcome, JsonValue } from '../store/types.ts';
import type { SlackDeps } from './deps.ts';

/** Stores the intent under its delivery key; a key already known is logged and answered with its outcome. */
export async function enqueueIntent(
  deps: Pick<SlackDeps, 'stores' | 'logger'>,
  key: string,
  kind: string,
  payload: object,
): Promise<EnqueueOutcome> {
  const outcome = await deps.stores.outbox.enqueue(key, kind, payload as JsonValue);
  if (!outcome.enqueued)
    deps.logger.debug({ delivery_key: key, state: outcome.state }, 'duplicate suppressed');
  return outcome;
}

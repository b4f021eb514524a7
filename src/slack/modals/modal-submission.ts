/**
 * A modal's submission as an intent: run in this process at once, ahead of any queued work,
 * and waited for briefly, so the modal can still show the outcome (a platform 422 on its
 * field). A submission refused earlier may be corrected and sent again: other values make a
 * new request, keyed by the modal and a hash of the values.
 */
import { createHash } from 'node:crypto';
import type { EnqueueOutcome, JsonValue } from '../../store/types.ts';
import type { SlackDeps } from '../deps.ts';
import type { IntentDefinition } from '../outbox/intent-definition.ts';
import type { Settlement } from '../outbox/outbox-worker.ts';

/** Submits the modal's intent under `baseKey` (or, after a refusal, under a key of `values`). */
export async function submitModalIntent<P>(
  deps: Pick<SlackDeps, 'worker' | 'settings'>,
  baseKey: string,
  intent: IntentDefinition<P>,
  payload: P,
  values: unknown,
): Promise<{ outcome: EnqueueOutcome; settled?: Settlement }> {
  // Checked before it is stored, as every queued payload is (see enqueueIntent).
  const checked = intent.schema.parse(payload) as JsonValue;
  const submit = (key: string) =>
    deps.worker.submit(key, intent.kind, checked, deps.settings.submitWaitMs);
  const first = await submit(baseKey);
  if (first.outcome.enqueued || first.outcome.state !== 'failed') return first;
  const hash = createHash('sha256').update(JSON.stringify(values)).digest('hex').slice(0, 16);
  return submit(`${baseKey}:${hash}`);
}

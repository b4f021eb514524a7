/**
 * A queued write, defined once: its kind, the schema of its payload, how it runs and what the
 * person is told when it fails for good or is delayed. Listeners enqueue through the definition
 * with a typed payload (checked before it is stored: nothing is queued that cannot run), and
 * the outbox worker gets the list of definitions; the payload is parsed in one place.
 */
import type { z } from 'zod';
import type { EnqueueOutcome, JsonValue, ReservedEntry } from '../../store/types.ts';
import type { IntentDeps, SlackDeps } from '../deps.ts';
import { InvalidIntentError } from '../errors.ts';
import type { FailureContext, IntentHandler } from './outbox-worker.ts';

/** What an intent does with its parsed payload. */
export interface IntentRunner<P> {
  /** Does the write; the result is remembered against the delivery key for 24 h. */
  run(payload: P, entry: ReservedEntry): Promise<JsonValue>;
  /** Tells the person the write failed for good, with what they wrote. */
  failed(payload: P, error: unknown, context: FailureContext): Promise<void>;
  /** Tells the person, once, that the write is delayed and will be retried. */
  delayed?(payload: P, error: unknown, context: FailureContext): Promise<void>;
  /** What the entry is about (ticket_id, channel, thread_ts), for every log line of it. */
  logFields?(payload: P, result?: JsonValue): Record<string, unknown>;
}

/** One kind of queued write. */
export interface IntentDefinition<P> {
  /** The outbox kind its entries carry. */
  readonly kind: string;
  /** The payload's schema: checked when it is queued and parsed when it runs. */
  readonly schema: z.ZodType<P>;
  /** Builds the runner with the app's dependencies. */
  runner(deps: IntentDeps): IntentRunner<P>;
}

/** Defines an intent (an identity function that ties the payload type to its schema). */
export function defineIntent<P>(definition: IntentDefinition<P>): IntentDefinition<P> {
  return definition;
}

/** Any intent definition, as a list the worker takes. */
// biome-ignore lint/suspicious/noExplicitAny: the list holds definitions of every payload type.
export type AnyIntentDefinition = IntentDefinition<any>;

/** Parses an entry's payload; one that does not parse was written by another version. */
function parseEntry<P>(definition: IntentDefinition<P>, entry: ReservedEntry): P {
  const parsed = definition.schema.safeParse(entry.payload);
  if (!parsed.success)
    throw new InvalidIntentError(entry.kind, parsed.error.issues[0]?.message ?? 'invalid');
  return parsed.data;
}

/** The worker's handler of one definition. */
export function intentHandler<P>(definition: IntentDefinition<P>, deps: IntentDeps): IntentHandler {
  const runner = definition.runner(deps);
  const { delayed, logFields } = runner;
  return {
    run: (entry) => runner.run(parseEntry(definition, entry), entry),
    failed: (entry, error, context) => runner.failed(parseEntry(definition, entry), error, context),
    ...(delayed
      ? {
          delayed: (entry, error, context) =>
            delayed.call(runner, parseEntry(definition, entry), error, context),
        }
      : {}),
    ...(logFields
      ? {
          logFields: (entry, result) =>
            logFields.call(runner, parseEntry(definition, entry), result),
        }
      : {}),
  };
}

/** The worker's handlers of every definition, by kind. */
export function intentHandlers(
  definitions: readonly AnyIntentDefinition[],
  deps: IntentDeps,
): Record<string, IntentHandler> {
  return Object.fromEntries(definitions.map((d) => [d.kind, intentHandler(d, deps)]));
}

/**
 * Stores the intent under its delivery key, its payload checked against the definition first;
 * a key already known is logged and answered with its outcome.
 */
export async function enqueueIntent<P>(
  deps: Pick<SlackDeps, 'stores' | 'logger'>,
  key: string,
  definition: IntentDefinition<P>,
  payload: P,
): Promise<EnqueueOutcome> {
  const checked = definition.schema.parse(payload) as JsonValue;
  const outcome = await deps.stores.outbox.enqueue(key, definition.kind, checked);
  if (!outcome.enqueued)
    deps.logger.debug({ delivery_key: key, state: outcome.state }, 'duplicate suppressed');
  return outcome;
}

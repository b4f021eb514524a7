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

/** What an intent is made of: its kind, its payload's schema and its runner. */
export interface IntentSpec<P> {
  /** The outbox kind its entries carry. */
  readonly kind: string;
  /** The payload's schema: checked when it is queued and parsed when it runs. */
  readonly schema: z.ZodType<P>;
  /** Builds the runner with the app's dependencies. */
  runner(deps: IntentDeps): IntentRunner<P>;
}

/**
 * A definition of whatever payload, as the worker takes it in a list: its kind, and its handler,
 * which parses the payload itself (so the list needs no payload type).
 */
export interface AnyIntentDefinition {
  /** The outbox kind its entries carry. */
  readonly kind: string;
  /** The worker's handler of its entries, built with the app's dependencies. */
  handler(deps: IntentDeps): IntentHandler;
}

/** One kind of queued write. */
export interface IntentDefinition<P> extends IntentSpec<P>, AnyIntentDefinition {}

/** Defines an intent: ties the payload type to its schema, and builds its worker's handler. */
export function defineIntent<P>(spec: IntentSpec<P>): IntentDefinition<P> {
  return { ...spec, handler: (deps) => intentHandler(spec, deps) };
}

/** Parses an entry's payload; one that does not parse was written by another version. */
function parseEntry<P>(definition: IntentSpec<P>, entry: ReservedEntry): P {
  const parsed = definition.schema.safeParse(entry.payload);
  if (!parsed.success)
    throw new InvalidIntentError(entry.kind, parsed.error.issues[0]?.message ?? 'invalid');
  return parsed.data;
}

/** The worker's handler of one definition. */
export function intentHandler<P>(definition: IntentSpec<P>, deps: IntentDeps): IntentHandler {
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
  return Object.fromEntries(definitions.map((d) => [d.kind, d.handler(deps)]));
}

/**
 * Stores the intent under its delivery key, its payload checked against the definition first;
 * a key already known is logged and answered with its outcome.
 */
export async function enqueueIntent<P>(
  deps: Pick<SlackDeps, 'stores' | 'logger'>,
  key: string,
  definition: IntentSpec<P>,
  payload: P,
): Promise<EnqueueOutcome> {
  const checked = definition.schema.parse(payload) as JsonValue;
  const outcome = await deps.stores.outbox.enqueue(key, definition.kind, checked);
  if (!outcome.enqueued)
    deps.logger.debug({ delivery_key: key, state: outcome.state }, 'duplicate suppressed');
  return outcome;
}

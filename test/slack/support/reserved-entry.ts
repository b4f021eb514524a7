/**
 * An outbox entry as a worker holds it, for a test that runs an intent's handler (or runner)
 * by hand instead of queueing it and reserving it from a store.
 */
import type { z } from 'zod';
import type { JsonValue, ReservedEntry } from '../../../src/store/types.ts';

/** The two things of an intent's definition an entry of it needs: its kind and payload type. */
interface EntryKind<P> {
  readonly kind: string;
  readonly schema: z.ZodType<P>;
}

/**
 * An entry of `intent` carrying `payload`, id `e1`, never tried, leased to worker `w` for a
 * minute from now, with whatever the test sets over it (its delivery key, a shorter lease). The
 * payload goes through JSON, as the outbox stores it.
 */
export function reservedEntry<P>(
  intent: EntryKind<P>,
  payload: P,
  over: Partial<ReservedEntry> = {},
): ReservedEntry {
  const now = Date.now();
  const stored: JsonValue = JSON.parse(JSON.stringify(payload));
  return {
    id: 'e1',
    deliveryKey: `${intent.kind}:e1`,
    kind: intent.kind,
    payload: stored,
    attempts: 0,
    createdAt: now,
    nextAttemptAt: now,
    leaseToken: 't',
    workerId: 'w',
    leaseExpiresAt: now + 60_000,
    ...over,
  };
}

/** The outbox held in this process's memory: the twin of `redis-outbox.ts`. */
import { randomUUID } from 'node:crypto';
import {
  checkedEnqueue,
  requireCount,
  requireDuration,
  requireKey,
  requireLease,
  requireTime,
  reservedAtEnqueue,
} from './argument-checks.ts';
import { decodeJson, encodeJson } from './json-codec.ts';
import type {
  AmendOutcome,
  DeadLetter,
  DeadLetterRetry,
  DeliveryRecord,
  DeliveryState,
  EnqueueOptions,
  EnqueueOutcome,
  JsonValue,
  Now,
  Outbox,
  OutboxEntry,
  OutboxLease,
  OutboxStats,
  ReservedEntry,
} from './types.ts';

interface Stored {
  id: string;
  deliveryKey: string;
  kind: string;
  payload: string;
  attempts: number;
  createdAt: number;
  nextAttemptAt: number;
  lastError?: string;
  rememberMs: number;
  lease?: { token: string; workerId: string; expiresAt: number };
  // Set by `amend`: the newest version of the payload.
  version?: string;
}

// An entry that failed for good, kept as it was with when and why.
interface Dead extends Stored {
  failedAt: number;
  error: string;
}

interface Delivery {
  state: DeliveryState;
  id: string;
  result?: string;
  error?: string;
  // Absent while pending: a key is never forgotten while its entry is still queued.
  expiresAt?: number;
}

// Finished delivery keys stay until overwritten; a sweep every so many finishes bounds them.
const SWEEP_EVERY = 1024;

/** Outbox entries in Maps; each method runs to completion before the next, so each is atomic. */
export class MemoryOutbox implements Outbox {
  readonly #now: Now;
  readonly #deadLetterCap: number;
  readonly #entries = new Map<string, Stored>();
  readonly #deliveries = new Map<string, Delivery>();
  // Oldest first (insertion order), so the cap drops from the front; read newest first.
  readonly #dead = new Map<string, Dead>();
  #seq = 0;
  #finished = 0;
  readonly #watchers = new Set<() => void>();

  constructor(now: Now, deadLetterCap: number) {
    this.#now = now;
    this.#deadLetterCap = requireCount(deadLetterCap, 'deadLetterCap');
  }

  async enqueue(
    deliveryKey: string,
    kind: string,
    payload: JsonValue,
    opts: EnqueueOptions = {},
  ): Promise<EnqueueOutcome> {
    const now = this.#now();
    const { encoded, rememberMs, runAt, lease } = checkedEnqueue(
      deliveryKey,
      kind,
      payload,
      opts,
      now,
    );
    const known = this.#deliveries.get(deliveryKey);
    if (known && (known.expiresAt === undefined || known.expiresAt > now)) {
      const outcome: EnqueueOutcome = { enqueued: false, id: known.id, state: known.state };
      if (known.result !== undefined) outcome.result = decodeJson(known.result, 'outbox result');
      if (known.error !== undefined) outcome.error = known.error;
      return outcome;
    }
    this.#seq += 1;
    const id = String(this.#seq).padStart(12, '0');
    this.#entries.set(id, {
      id,
      deliveryKey,
      kind,
      payload: encoded,
      attempts: 0,
      createdAt: now,
      nextAttemptAt: runAt,
      rememberMs,
      ...(lease
        ? {
            lease: {
              token: lease.leaseToken,
              workerId: lease.workerId,
              expiresAt: lease.leaseExpiresAt,
            },
          }
        : {}),
    });
    this.#deliveries.set(deliveryKey, { state: 'pending', id });
    if (lease) {
      return {
        enqueued: true,
        id,
        reserved: reservedAtEnqueue(id, deliveryKey, kind, encoded, now, runAt, lease),
      };
    }
    // A turn later, like a message from Redis: the enqueuing caller finishes its step first.
    if (runAt <= now) for (const listener of this.#watchers) setImmediate(listener);
    return { enqueued: true, id };
  }

  async amend(
    deliveryKey: string,
    kind: string,
    payload: JsonValue,
    version: string,
  ): Promise<AmendOutcome> {
    requireKey(deliveryKey, 'delivery key');
    requireKey(version, 'version');
    const encoded = encodeJson(payload, 'outbox payload');
    const known = this.#deliveries.get(deliveryKey);
    const entry = known?.state === 'pending' ? this.#entries.get(known.id) : undefined;
    // A lease, lapsed or not, or a counted attempt: a worker took it, and may have acted on it.
    if (!entry || entry.kind !== kind || entry.lease || entry.attempts > 0) return 'taken';
    if (entry.version !== undefined && entry.version >= version) return 'stale';
    entry.payload = encoded;
    entry.version = version;
    return 'amended';
  }

  async delivery(deliveryKey: string): Promise<DeliveryRecord | undefined> {
    requireKey(deliveryKey, 'delivery key');
    const known = this.#deliveries.get(deliveryKey);
    if (!known || (known.expiresAt !== undefined && known.expiresAt <= this.#now()))
      return undefined;
    const record: DeliveryRecord = { state: known.state };
    if (known.result !== undefined) record.result = decodeJson(known.result, 'outbox result');
    if (known.error !== undefined) record.error = known.error;
    return record;
  }

  watch(listener: () => void): () => Promise<void> {
    // A wrapper of its own, so one listener watching twice is two watches.
    const watcher = () => listener();
    this.#watchers.add(watcher);
    return async () => {
      this.#watchers.delete(watcher);
    };
  }

  async reserve(workerId: string, leaseMs: number): Promise<ReservedEntry | undefined> {
    requireKey(workerId, 'workerId');
    requireDuration(leaseMs, 'leaseMs');
    const now = this.#now();
    let next: Stored | undefined;
    for (const entry of this.#entries.values()) {
      if (entry.lease && entry.lease.expiresAt > now) continue;
      if (entry.nextAttemptAt > now) continue;
      if (!next || before(entry, next)) next = entry;
    }
    if (!next) return undefined;
    next.lease = { token: randomUUID(), workerId, expiresAt: now + leaseMs };
    return {
      ...toEntry(next),
      leaseToken: next.lease.token,
      workerId,
      leaseExpiresAt: next.lease.expiresAt,
    };
  }

  async complete(lease: OutboxLease, result?: JsonValue): Promise<boolean> {
    requireLease(lease);
    const encoded = result === undefined ? undefined : encodeJson(result, 'outbox result');
    const entry = this.#held(lease);
    if (!entry) return false;
    const delivery: Delivery = {
      state: 'done',
      id: entry.id,
      expiresAt: this.#now() + entry.rememberMs,
    };
    if (encoded !== undefined) delivery.result = encoded;
    this.#finish(entry, delivery);
    return true;
  }

  async retryAt(lease: OutboxLease, atMs: number, error: string): Promise<boolean> {
    requireLease(lease);
    requireTime(atMs, 'atMs');
    const entry = this.#held(lease);
    if (!entry) return false;
    entry.attempts += 1;
    entry.nextAttemptAt = atMs;
    entry.lastError = error;
    delete entry.lease;
    return true;
  }

  async fail(lease: OutboxLease, error: string): Promise<boolean> {
    requireLease(lease);
    const entry = this.#held(lease);
    if (!entry) return false;
    const now = this.#now();
    const { lease: _held, lastError: _last, ...rest } = entry;
    this.#dead.set(entry.id, { ...rest, attempts: entry.attempts + 1, failedAt: now, error });
    for (const oldest of this.#dead.keys()) {
      if (this.#dead.size <= this.#deadLetterCap) break;
      this.#dead.delete(oldest);
    }
    this.#finish(entry, {
      state: 'failed',
      id: entry.id,
      error,
      expiresAt: now + entry.rememberMs,
    });
    return true;
  }

  async stats(now: number = this.#now()): Promise<OutboxStats> {
    requireTime(now, 'now');
    let oldest: number | undefined;
    let inFlight = 0;
    for (const entry of this.#entries.values()) {
      if (oldest === undefined || entry.createdAt < oldest) oldest = entry.createdAt;
      if (entry.lease && entry.lease.expiresAt > now) inFlight += 1;
    }
    return {
      depth: this.#entries.size,
      oldestAgeMs: oldest === undefined ? 0 : Math.max(0, now - oldest),
      inFlight,
    };
  }

  async deadLetters(limit = 100): Promise<DeadLetter[]> {
    requireCount(limit, 'limit');
    return [...this.#dead.values()].reverse().slice(0, limit).map(toDeadLetter);
  }

  async deadLetter(id: string): Promise<DeadLetter | undefined> {
    requireKey(id, 'entry id');
    const dead = this.#dead.get(id);
    return dead && toDeadLetter(dead);
  }

  async retryDeadLetter(id: string): Promise<DeadLetterRetry> {
    requireKey(id, 'entry id');
    const dead = this.#dead.get(id);
    if (!dead) return 'not-found';
    const now = this.#now();
    const known = this.#deliveries.get(dead.deliveryKey);
    // Queued anew since it died: retrying would do the work twice.
    if (known && known.id !== id && (known.expiresAt === undefined || known.expiresAt > now)) {
      return 'superseded';
    }
    this.#dead.delete(id);
    const { failedAt: _failedAt, error: _error, ...entry } = dead;
    this.#entries.set(id, { ...entry, attempts: 0, createdAt: now, nextAttemptAt: now });
    this.#deliveries.set(dead.deliveryKey, { state: 'pending', id });
    for (const listener of this.#watchers) setImmediate(listener);
    return 'requeued';
  }

  async dropDeadLetter(id: string): Promise<boolean> {
    requireKey(id, 'entry id');
    return this.#dead.delete(id);
  }

  #held(lease: OutboxLease): Stored | undefined {
    const entry = this.#entries.get(lease.id);
    // The token, not the expiry, decides: a holder whose lease lapsed may still finish the
    // entry until another worker reserves it and the token changes.
    return entry?.lease?.token === lease.leaseToken && entry.deliveryKey === lease.deliveryKey
      ? entry
      : undefined;
  }

  #finish(entry: Stored, delivery: Delivery): void {
    this.#entries.delete(entry.id);
    this.#deliveries.set(entry.deliveryKey, delivery);
    this.#finished += 1;
    if (this.#finished % SWEEP_EVERY !== 0) return;
    const now = this.#now();
    for (const [key, known] of this.#deliveries) {
      if (known.expiresAt !== undefined && known.expiresAt <= now) this.#deliveries.delete(key);
    }
  }
}

// Oldest due first; ids grow with every enqueue, so they break ties in arrival order.
function before(a: Stored, b: Stored): boolean {
  return a.nextAttemptAt !== b.nextAttemptAt ? a.nextAttemptAt < b.nextAttemptAt : a.id < b.id;
}

function toDeadLetter(dead: Dead): DeadLetter {
  return {
    id: dead.id,
    deliveryKey: dead.deliveryKey,
    kind: dead.kind,
    payload: decodeJson(dead.payload, 'outbox payload'),
    attempts: dead.attempts,
    createdAt: dead.createdAt,
    failedAt: dead.failedAt,
    error: dead.error,
  };
}

function toEntry(stored: Stored): OutboxEntry {
  const entry: OutboxEntry = {
    id: stored.id,
    deliveryKey: stored.deliveryKey,
    kind: stored.kind,
    payload: decodeJson(stored.payload, 'outbox payload'),
    attempts: stored.attempts,
    createdAt: stored.createdAt,
    nextAttemptAt: stored.nextAttemptAt,
  };
  if (stored.lastError !== undefined) entry.lastError = stored.lastError;
  return entry;
}

/**
 * The store interfaces shared by the Redis and in-memory backends. Both pass the same contract
 * tests, so callers depend on these types only and never on a backend.
 */

/** A value that survives a JSON round trip unchanged. */
export type JsonValue =
  | string
  | number
  | boolean
  | null
  | JsonValue[]
  | { [key: string]: JsonValue };

/** Milliseconds since the epoch; injected so leases and ages are testable without waiting. */
export type Clock = () => number;

/** How long a finished delivery is remembered so a repeat is answered, not redone: 24 h. */
export const DAY_MS = 86_400_000;

/** The answer to a claim: the caller now holds the lease, someone else does, or it is finished. */
export type ClaimOutcome =
  | { state: 'claimed'; token: string }
  | { state: 'busy' }
  | { state: 'done'; result?: JsonValue };

/** What a claim key currently holds. */
export type ClaimRecord = { state: 'leased' } | { state: 'done'; result?: JsonValue };

/**
 * Delivery claims: short leases while work is under way, a remembered result once it is done.
 * A crashed holder's lease expires so a retry can take over; only the holder's token can
 * complete or release a live lease.
 */
export interface ClaimStore {
  /** Takes the lease when the key is free (never claimed, released, or its lease expired). */
  claim(key: string, leaseMs: number): Promise<ClaimOutcome>;
  /**
   * Records the key as done for `ttlMs` (default 24 h). False when someone else holds a live
   * lease or the key is already done: their outcome stands.
   */
  complete(key: string, token: string, result?: JsonValue, ttlMs?: number): Promise<boolean>;
  /** The live record for the key, if any. */
  get(key: string): Promise<ClaimRecord | undefined>;
  /** Gives the lease back early; false (and nothing changes) unless `token` holds it. */
  release(key: string, token: string): Promise<boolean>;
}

/** Options for one outbox entry. */
export interface EnqueueOptions {
  /** When the first attempt is due (default: now). */
  runAt?: number;
  /** How long the delivery key is remembered once the entry completes or fails (default 24 h). */
  rememberMs?: number;
}

/** The state of a delivery key the outbox already knows. */
export type DeliveryState = 'pending' | 'done' | 'failed';

/** The answer to an enqueue: a new entry, or the one (or its outcome) already there. */
export type EnqueueOutcome =
  | { enqueued: true; id: string }
  | { enqueued: false; id: string; state: DeliveryState; result?: JsonValue; error?: string };

/** A durable intent waiting for the worker. */
export interface OutboxEntry {
  id: string;
  deliveryKey: string;
  kind: string;
  payload: JsonValue;
  /** Attempts that failed so far (counted by `retryAt` and `fail`). */
  attempts: number;
  createdAt: number;
  nextAttemptAt: number;
  lastError?: string;
}

/** What names an entry its holder is working on; every operation after `reserve` takes it. */
export interface OutboxLease {
  id: string;
  leaseToken: string;
}

/** An entry leased to one worker; invisible to others until `leaseExpiresAt`. */
export interface ReservedEntry extends OutboxEntry, OutboxLease {
  workerId: string;
  leaseExpiresAt: number;
}

/** An entry that failed for good, kept (capped, newest first) for inspection. */
export interface DeadLetter {
  id: string;
  deliveryKey: string;
  kind: string;
  payload: JsonValue;
  attempts: number;
  createdAt: number;
  failedAt: number;
  error: string;
}

/** Queue health for metrics and alerts. */
export interface OutboxStats {
  /** Entries not yet completed or failed, leased ones included. */
  depth: number;
  /** Age of the oldest such entry, 0 when the queue is empty. */
  oldestAgeMs: number;
  /** Entries under a live lease. */
  inFlight: number;
}

/**
 * The outbox: intents made durable before Slack is acked, retried by a worker until they
 * succeed or fail for good. One delivery key makes at most one entry.
 */
export interface Outbox {
  /** Claims the delivery key and appends the entry in one atomic step. */
  enqueue(
    deliveryKey: string,
    kind: string,
    payload: JsonValue,
    opts?: EnqueueOptions,
  ): Promise<EnqueueOutcome>;
  /** Leases the oldest due entry (expired leases are due again), or undefined when none is. */
  reserve(workerId: string, leaseMs: number): Promise<ReservedEntry | undefined>;
  /** Removes the entry and remembers its result against the delivery key. */
  complete(lease: OutboxLease, result?: JsonValue): Promise<boolean>;
  /** Counts a failed attempt and makes the entry due again at `atMs`. */
  retryAt(lease: OutboxLease, atMs: number, error: string): Promise<boolean>;
  /** Moves the entry to the dead-letter list and marks its delivery key failed. */
  fail(lease: OutboxLease, error: string): Promise<boolean>;
  /** Depth, oldest age and in-flight count as of `now` (default: the store's clock). */
  stats(now?: number): Promise<OutboxStats>;
  /** The most recent dead letters, newest first. */
  deadLetters(limit?: number): Promise<DeadLetter[]>;
}

/** A Slack thread: the channel and the `ts` of its parent message. */
export interface Thread {
  channel: string;
  threadTs: string;
}

/**
 * Links between tickets and Slack threads. A thread belongs to at most one ticket; a ticket
 * may have several threads. Links never expire: a ticket's conversation can resume at any
 * time. Ticket IDs are compared exactly, so callers pass them in canonical form.
 */
export interface ThreadLinks {
  /** Links the thread to the ticket (moving it from any other); false when already linked. */
  link(ticketId: string, thread: Thread): Promise<boolean>;
  /** The ticket a thread belongs to. */
  ticketForThread(channel: string, threadTs: string): Promise<string | undefined>;
  /** The ticket's threads, in the order they were linked. */
  threadsForTicket(ticketId: string): Promise<Thread[]>;
  /** Removes the link; false when the thread was not linked to this ticket. */
  unlink(ticketId: string, thread: Thread): Promise<boolean>;
}

/** The stores one backend provides. */
export interface Stores {
  claims: ClaimStore;
  outbox: Outbox;
  links: ThreadLinks;
}

/** How many dead letters a backend keeps unless told otherwise. */
export const DEFAULT_DEAD_LETTER_CAP = 1000;

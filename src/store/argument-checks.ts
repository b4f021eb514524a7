/** Checks on what callers pass, shared by both backends so they refuse the same things. */
import { randomUUID } from 'node:crypto';
import { InvalidStoreArgumentError } from './errors.ts';
import { decodeJson, encodeJson } from './json-codec.ts';
import {
  DAY_MS,
  type EnqueueOptions,
  type JsonValue,
  type OutboxLease,
  type ReservedEntry,
} from './types.ts';

/** A key or identifier must be a non-empty string. */
export function requireKey(value: string, what: string): string {
  if (typeof value !== 'string' || value.length === 0) {
    throw new InvalidStoreArgumentError(`${what} must be a non-empty string`);
  }
  return value;
}

/** A duration (lease, TTL) must be a positive whole number of milliseconds. */
export function requireDuration(value: number, what: string): number {
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new InvalidStoreArgumentError(`${what} must be a positive whole number of milliseconds`);
  }
  return value;
}

/** A point in time must be a whole number of milliseconds since the epoch. */
export function requireTime(value: number, what: string): number {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new InvalidStoreArgumentError(`${what} must be whole milliseconds since the epoch`);
  }
  return value;
}

/** A count (limit, cap) must be a positive whole number. */
export function requireCount(value: number, what: string): number {
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new InvalidStoreArgumentError(`${what} must be a positive whole number`);
  }
  return value;
}

/** A lease must name its entry and the entry's delivery key. */
export function requireLease(lease: OutboxLease): OutboxLease {
  requireKey(lease.id, 'entry id');
  requireKey(lease.deliveryKey, 'delivery key');
  return lease;
}

/** The lease an enqueue with `leaseTo` gives its new entry. */
export interface EnqueueLease {
  workerId: string;
  leaseToken: string;
  leaseExpiresAt: number;
}

/** An enqueue's arguments, checked and resolved the same way by both outbox backends. */
export function checkedEnqueue(
  deliveryKey: string,
  kind: string,
  payload: JsonValue,
  opts: EnqueueOptions,
  now: number,
): { encoded: string; rememberMs: number; runAt: number; lease: EnqueueLease | undefined } {
  requireKey(deliveryKey, 'delivery key');
  requireKey(kind, 'kind');
  const leaseTo = opts.leaseTo;
  return {
    encoded: encodeJson(payload, 'outbox payload'),
    rememberMs: requireDuration(opts.rememberMs ?? DAY_MS, 'rememberMs'),
    runAt: requireTime(opts.runAt ?? now, 'runAt'),
    lease: leaseTo && {
      workerId: requireKey(leaseTo.workerId, 'workerId'),
      leaseToken: randomUUID(),
      leaseExpiresAt: now + requireDuration(leaseTo.leaseMs, 'leaseMs'),
    },
  };
}

/** The entry an enqueue with `leaseTo` made, as its holder sees it (payload decoded anew). */
export function reservedAtEnqueue(
  id: string,
  deliveryKey: string,
  kind: string,
  encoded: string,
  createdAt: number,
  runAt: number,
  lease: EnqueueLease,
): ReservedEntry {
  return {
    id,
    deliveryKey,
    kind,
    payload: decodeJson(encoded, 'outbox payload'),
    attempts: 0,
    createdAt,
    nextAttemptAt: runAt,
    ...lease,
  };
}

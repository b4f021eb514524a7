/** Checks on what callers pass, shared by both backends so they refuse the same things. */
import { InvalidStoreArgumentError } from './errors.ts';

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

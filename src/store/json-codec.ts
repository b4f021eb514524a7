/**
 * Payloads and results are kept as JSON text in both backends, so the in-memory twin hands
 * back copies exactly as Redis would (undefined fields dropped, no shared references).
 */
import { InvalidStoreArgumentError, StoreDataError } from './errors.ts';
import type { DeadLetter, JsonValue } from './types.ts';

/** JSON text for a value; throws when the value has no JSON form (a cycle, a BigInt). */
export function encodeJson(value: JsonValue, what: string): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new InvalidStoreArgumentError(`${what} cannot be encoded as JSON`, { cause: error });
  }
  // JSON.stringify returns undefined for undefined, functions and symbols.
  if (text === undefined) throw new InvalidStoreArgumentError(`${what} cannot be encoded as JSON`);
  return text;
}

/** The value behind JSON text the store wrote earlier. */
export function decodeJson(text: string, what: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch (error) {
    throw new StoreDataError(`stored ${what} is not valid JSON`, { cause: error });
  }
}

/** A dead letter from its JSON text, checked field by field (Redis builds it in Lua). */
export function decodeDeadLetter(text: string): DeadLetter {
  const value = decodeJson(text, 'dead letter');
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new StoreDataError('stored dead letter is not an object');
  }
  const { id, deliveryKey, kind, payload, attempts, createdAt, failedAt, error } = value;
  if (
    typeof id !== 'string' ||
    typeof deliveryKey !== 'string' ||
    typeof kind !== 'string' ||
    payload === undefined ||
    typeof attempts !== 'number' ||
    typeof createdAt !== 'number' ||
    typeof failedAt !== 'number' ||
    typeof error !== 'string'
  ) {
    throw new StoreDataError('stored dead letter lacks a field');
  }
  return { id, deliveryKey, kind, payload, attempts, createdAt, failedAt, error };
}

/** A 'done' answer, with the decoded result when one was stored. */
export function doneWithResult(
  text: string | undefined,
  what: string,
): { state: 'done'; result?: JsonValue } {
  return text === undefined ? { state: 'done' } : { state: 'done', result: decodeJson(text, what) };
}

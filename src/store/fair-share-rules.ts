/**
 * The token-bucket arithmetic both fair-share backends apply, kept in one place so the Lua
 * script and the in-memory twin cannot drift apart: a bucket refills continuously up to its
 * capacity, a take needs a whole token in every bucket, and a refusal says when the emptiest
 * bucket will hold one again.
 */
import { requireCount, requireDuration, requireKey } from './argument-checks.ts';
import { InvalidStoreArgumentError } from './errors.ts';
import type { FairShareBucket, FairShareGrant } from './types.ts';

/** Most buckets one take may name (the Lua script keeps them as numbered fields). */
export const MAX_BUCKETS = 8;

/** Refuses buckets that cannot describe a fair share. */
export function checkBuckets(buckets: readonly FairShareBucket[]): readonly FairShareBucket[] {
  if (buckets.length === 0 || buckets.length > MAX_BUCKETS) {
    throw new InvalidStoreArgumentError(`a fair share needs 1 to ${MAX_BUCKETS} buckets`);
  }
  for (const bucket of buckets) {
    requireCount(bucket.capacity, 'bucket capacity');
    requireDuration(bucket.refillEveryMs, 'bucket refillEveryMs');
  }
  return buckets;
}

/** Refuses a person key that is empty. */
export function checkPerson(person: string): string {
  return requireKey(person, 'person');
}

/** How long a person's buckets must be kept: until the slowest is full again. */
export function bucketsTtlMs(buckets: readonly FairShareBucket[]): number {
  return Math.max(...buckets.map((b) => b.capacity * b.refillEveryMs));
}

/**
 * Applies one take to the tokens held as of `at` (undefined: never taken, so full). Returns
 * the grant and, when granted, the tokens left; a refusal changes nothing.
 */
export function takeFrom(
  buckets: readonly FairShareBucket[],
  held: { tokens: readonly number[]; at: number } | undefined,
  now: number,
): { grant: FairShareGrant; tokens?: number[] } {
  const elapsed = held ? Math.max(0, now - held.at) : 0;
  const tokens = buckets.map((bucket, i) => {
    const before = held?.tokens[i];
    if (before === undefined) return bucket.capacity;
    return Math.min(bucket.capacity, before + elapsed / bucket.refillEveryMs);
  });
  let retryAt = 0;
  buckets.forEach((bucket, i) => {
    const short = 1 - (tokens[i] ?? 0);
    if (short > 0) retryAt = Math.max(retryAt, now + Math.ceil(short * bucket.refillEveryMs));
  });
  if (retryAt > 0) return { grant: { granted: false, retryAt } };
  return { grant: { granted: true }, tokens: tokens.map((t) => t - 1) };
}

/** The Redis the tests and benches share, and how a stack removes only the keys it wrote there. */
import type { Redis } from 'ioredis';

/** The Redis the tests use: REDIS_URL, else the local one. */
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Deletes every key under the prefix (and nothing else). */
export async function deleteKeys(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  for (let rounds = 0; rounds < 10_000; rounds++) {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
    if (cursor === '0') return;
  }
}

/** The store component: claims, outbox and thread links, in Redis or in memory. */
export * from './errors.ts';
export type { MemoryStoresOptions } from './memory-stores.ts';
export { createMemoryStores } from './memory-stores.ts';
export type { RedisClient } from './redis-script.ts';
export type { RedisStoresOptions } from './redis-stores.ts';
export { createRedisStores } from './redis-stores.ts';
export * from './types.ts';

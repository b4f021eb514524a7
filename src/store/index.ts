/** The store component: claims, outbox, links, rate budget, poll schedule and the mirror's records. */
export * from './errors.ts';
export * from './install-types.ts';
export { createMemoryInstallStores } from './memory-installations.ts';
export type { MemoryStoresOptions } from './memory-stores.ts';
export { createMemoryStores } from './memory-stores.ts';
export { emptyMirrorRecord } from './mirror-record.ts';
export {
  type Allowance,
  allowance,
  capOf,
  PRESSED_MS,
  pressedOwnHour,
  resolveBudgetLimits,
} from './rate-budget-rules.ts';
export { createRedisInstallStores, installKeys } from './redis-installations.ts';
export type { RedisMigrationReport } from './redis-migrate.ts';
export { migrateRedisKeys } from './redis-migrate.ts';
export type { RedisClient } from './redis-script.ts';
export type { RedisStoresOptions } from './redis-stores.ts';
export { createRedisStores } from './redis-stores.ts';
export { TokenCipher } from './token-cipher.ts';
export * from './types.ts';

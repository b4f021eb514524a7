/** The Redis the tests share and how a test removes only its own keys (kept in tools/stack). */
export * from '../../tools/stack/redis.ts';

/**
 * The whole stack on one machine (the emulator as the platform, the Slack double as Slack, a
 * real Redis and the real app built as main.ts builds it), for the end-to-end tests and the
 * benches alike: neither reaches into the other's folder for it.
 */
export { eventually } from './eventually.ts';
export { driverOf, installByOAuth } from './oauth-install.ts';
export { deleteKeys, REDIS_URL } from './redis.ts';
export * from './stack.ts';

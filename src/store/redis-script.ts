/**
 * Lua scripts registered on the caller's client with `defineCommand`, so ioredis sends EVALSHA
 * and falls back to EVAL after a restart or failover emptied the script cache, on a single
 * node and on a Cluster alike.
 */
import type { Cluster, Redis } from 'ioredis';
import {
  ScriptKeyCountError,
  ScriptNotRegisteredError,
  StoreDataError,
  toStoreError,
} from './errors.ts';

/** A Redis standalone, Sentinel or Cluster client. */
export type RedisClient = Redis | Cluster;

/** An argument to a script: Redis receives every one as a string. */
export type ScriptArg = string | number;

/** A registered script: its keys (all under one hash tag) and its arguments. */
export type RedisScript = (
  operation: string,
  keys: readonly string[],
  args: readonly ScriptArg[],
) => Promise<unknown>;

type ScriptCommand = (...args: ScriptArg[]) => Promise<unknown>;

/**
 * Registers `lua` under `name` on this client. Registering the same name again (a second set
 * of stores on one client) replaces it with the same text, so it is harmless.
 */
export function defineScript(
  redis: RedisClient,
  name: string,
  numberOfKeys: number,
  lua: string,
): RedisScript {
  redis.defineCommand(name, { numberOfKeys, lua });
  // defineCommand adds a method ioredis's types cannot know about.
  const command = (redis as unknown as Record<string, ScriptCommand | undefined>)[name];
  if (!command) throw new ScriptNotRegisteredError(name);
  return async (operation, keys, args) => {
    if (keys.length !== numberOfKeys) {
      throw new ScriptKeyCountError(name, numberOfKeys, keys.length);
    }
    try {
      return await command.call(redis, ...keys, ...args);
    } catch (error) {
      throw toStoreError(operation, error);
    }
  };
}

/** Runs one plain command, turning client failures into store errors. */
export async function runCommand<T>(operation: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw toStoreError(operation, error);
  }
}

/** A script's reply as an array. */
export function replyArray(reply: unknown, operation: string): unknown[] {
  if (Array.isArray(reply)) return reply;
  throw new StoreDataError(`unexpected reply from Redis during ${operation}`);
}

/** A reply element that must be a string. */
export function replyString(value: unknown, operation: string): string {
  if (typeof value === 'string') return value;
  throw new StoreDataError(`unexpected reply from Redis during ${operation}`);
}

/**
 * A reply element that may be missing: Lua's false arrives as null over RESP2 and as false
 * over RESP3.
 */
export function replyOptionalString(value: unknown, operation: string): string | undefined {
  if (value === null || value === false || value === undefined) return undefined;
  return replyString(value, operation);
}

/** A reply element that must be a whole number (an integer reply or its decimal string). */
export function replyNumber(value: unknown, operation: string): number {
  const number = typeof value === 'string' ? Number(value) : value;
  if (typeof number === 'number' && Number.isSafeInteger(number)) return number;
  throw new StoreDataError(`unexpected reply from Redis during ${operation}`);
}

/** Delivery claims held in this process's memory: the twin of `redis-claims.ts`. */
import { randomUUID } from 'node:crypto';
import { requireDuration, requireKey } from './argument-checks.ts';
import { doneWithResult, encodeJson } from './json-codec.ts';
import type { ClaimOutcome, ClaimRecord, ClaimStore, JsonValue, Now } from './types.ts';
import { DAY_MS } from './types.ts';

interface Held {
  state: 'leased' | 'done';
  token?: string;
  expiresAt: number;
  result?: string;
}

// Lapsed records stay until overwritten; a sweep every so many writes bounds the memory.
const SWEEP_EVERY = 1024;

/** Claims in a Map; each method runs to completion before the next, so each is atomic. */
export class MemoryClaimStore implements ClaimStore {
  readonly #now: Now;
  readonly #held = new Map<string, Held>();
  #writes = 0;

  constructor(now: Now) {
    this.#now = now;
  }

  async claim(key: string, leaseMs: number): Promise<ClaimOutcome> {
    requireKey(key, 'claim key');
    requireDuration(leaseMs, 'leaseMs');
    const now = this.#now();
    const held = this.#live(key, now);
    if (held?.state === 'done') return doneWithResult(held.result, 'claim result');
    if (held) return { state: 'busy' };
    const token = randomUUID();
    this.#write(key, { state: 'leased', token, expiresAt: now + leaseMs }, now);
    return { state: 'claimed', token };
  }

  async complete(key: string, token: string, result?: JsonValue, ttlMs = DAY_MS): Promise<boolean> {
    requireKey(key, 'claim key');
    requireDuration(ttlMs, 'ttlMs');
    const encoded = result === undefined ? undefined : encodeJson(result, 'claim result');
    const now = this.#now();
    const held = this.#live(key, now);
    if (held && (held.state === 'done' || held.token !== token)) return false;
    const record: Held = { state: 'done', expiresAt: now + ttlMs };
    if (encoded !== undefined) record.result = encoded;
    this.#write(key, record, now);
    return true;
  }

  async get(key: string): Promise<ClaimRecord | undefined> {
    requireKey(key, 'claim key');
    const held = this.#live(key, this.#now());
    if (!held) return undefined;
    if (held.state === 'done') return doneWithResult(held.result, 'claim result');
    return { state: 'leased' };
  }

  async release(key: string, token: string): Promise<boolean> {
    requireKey(key, 'claim key');
    const held = this.#held.get(key);
    if (held?.state !== 'leased' || held.token !== token) return false;
    this.#held.delete(key);
    return true;
  }

  #live(key: string, now: number): Held | undefined {
    const held = this.#held.get(key);
    return held && held.expiresAt > now ? held : undefined;
  }

  #write(key: string, record: Held, now: number): void {
    this.#held.set(key, record);
    this.#writes += 1;
    if (this.#writes % SWEEP_EVERY !== 0) return;
    for (const [k, v] of this.#held) if (v.expiresAt <= now) this.#held.delete(k);
  }
}

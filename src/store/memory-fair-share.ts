/** People's fair share held in this process's memory: the twin of `redis-fair-share.ts`. */
import { requireDuration, requireKey } from './argument-checks.ts';
import { bucketsTtlMs, checkBuckets, checkPerson, takeFrom } from './fair-share-rules.ts';
import { decodeJson, encodeJson } from './json-codec.ts';
import type {
  FairShareBucket,
  FairShareGrant,
  FairShareStore,
  JsonValue,
  KeptRead,
  Now,
} from './types.ts';

interface Held {
  tokens: number[];
  at: number;
  expiresAt: number;
}

interface Kept {
  text: string;
  keptAt: number;
  expiresAt: number;
}

// Most people and reads held; the least recently written go first beyond it.
const MAX_ENTRIES = 10_000;

/** Buckets and kept reads in Maps; each method runs to completion, so each is atomic. */
export class MemoryFairShareStore implements FairShareStore {
  readonly #now: Now;
  readonly #buckets = new Map<string, Held>();
  readonly #kept = new Map<string, Kept>();

  constructor(now: Now) {
    this.#now = now;
  }

  async take(person: string, buckets: readonly FairShareBucket[]): Promise<FairShareGrant> {
    checkPerson(person);
    checkBuckets(buckets);
    const now = this.#now();
    const current = this.#buckets.get(person);
    const held = current && current.expiresAt > now ? current : undefined;
    const { grant, tokens } = takeFrom(buckets, held, now);
    if (tokens)
      bounded(this.#buckets, person, { tokens, at: now, expiresAt: now + bucketsTtlMs(buckets) });
    return grant;
  }

  async recall(key: string): Promise<KeptRead | undefined> {
    requireKey(key, 'read key');
    const kept = this.#kept.get(key);
    if (!kept) return undefined;
    if (kept.expiresAt <= this.#now()) {
      this.#kept.delete(key);
      return undefined;
    }
    // Decoded anew each time, so callers get a copy exactly as Redis would hand back.
    return { value: decodeJson(kept.text, 'kept read'), keptAt: kept.keptAt };
  }

  async keep(key: string, value: JsonValue, ttlMs: number): Promise<void> {
    requireKey(key, 'read key');
    requireDuration(ttlMs, 'ttlMs');
    const text = encodeJson(value, 'kept read');
    const now = this.#now();
    bounded(this.#kept, key, { text, keptAt: now, expiresAt: now + ttlMs });
  }
}

function bounded<T>(map: Map<string, T>, key: string, value: T): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > MAX_ENTRIES) {
    const oldest = map.keys().next().value;
    if (oldest === undefined) break;
    map.delete(oldest);
  }
}

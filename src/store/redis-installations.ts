/**
 * Installations and install states in Redis (a server or a Cluster): the installations in one
 * hash `<prefix>installations` (field: `team:<id>` or `org:<id>`, value sealed, see
 * `installation-codec.ts`), each state in a key of its own, `<prefix>oauth-state:<id>`, with
 * Redis's expiry and taken with GETDEL, so a state verifies once across replicas.
 */
import type { Installation, InstallationQuery, InstallURLOptions } from '@slack/bolt';
import { InstallationNotFoundError, InvalidOAuthStateError, toStoreError } from './errors.ts';
import type {
  InstallationRecords,
  InstallStores,
  KeptInstallation,
  OAuthStateRecords,
} from './install-types.ts';
import { STATE_TTL_MS } from './install-types.ts';
import { decodeInstallation, encodeInstallation, placeOf, placesOf } from './installation-codec.ts';
import { newState, stateId } from './oauth-state-codec.ts';
import type { RedisClient } from './redis-script.ts';
import type { TokenCipher } from './token-cipher.ts';
import type { Now } from './types.ts';

/** The keys of the OAuth stores under a prefix. */
export function installKeys(prefix: string): {
  installations: string;
  state: (id: string) => string;
} {
  return {
    installations: `${prefix}installations`,
    state: (id) => `${prefix}oauth-state:${id}`,
  };
}

async function run<T>(operation: string, command: () => Promise<T>): Promise<T> {
  try {
    return await command();
  } catch (error) {
    throw toStoreError(operation, error);
  }
}

/** Installations in one Redis hash, sealed. */
export class RedisInstallations implements InstallationRecords {
  readonly #redis: RedisClient;
  readonly #key: string;
  readonly #cipher: TokenCipher;
  readonly #now: Now;

  constructor(options: { redis: RedisClient; prefix: string; cipher: TokenCipher; now?: Now }) {
    this.#redis = options.redis;
    this.#key = installKeys(options.prefix).installations;
    this.#cipher = options.cipher;
    this.#now = options.now ?? Date.now;
  }

  async storeInstallation(installation: Installation): Promise<void> {
    const place = placeOf(installation);
    const text = encodeInstallation(this.#cipher, place, installation, this.#now());
    await run('storeInstallation', () => this.#redis.hset(this.#key, place, text));
  }

  async fetchInstallation(query: InstallationQuery<boolean>): Promise<Installation> {
    const places = placesOf(query);
    for (const place of places) {
      const text = await run('fetchInstallation', () => this.#redis.hget(this.#key, place));
      if (text !== null) return decodeInstallation(this.#cipher, place, text).installation;
    }
    throw new InstallationNotFoundError(places.join(' or ') || 'an empty query');
  }

  async deleteInstallation(query: InstallationQuery<boolean>): Promise<void> {
    const [place] = placesOf(query);
    if (place !== undefined)
      await run('deleteInstallation', () => this.#redis.hdel(this.#key, place));
  }

  async list(): Promise<KeptInstallation[]> {
    const all = await run('listInstallations', () => this.#redis.hgetall(this.#key));
    return Object.entries(all).map(([place, text]) =>
      decodeInstallation(this.#cipher, place, text),
    );
  }
}

/** Install states in Redis, each used once. */
export class RedisOAuthStates implements OAuthStateRecords {
  readonly #redis: RedisClient;
  readonly #keyOf: (id: string) => string;
  readonly #secret: string;

  constructor(options: { redis: RedisClient; prefix: string; stateSecret: string }) {
    this.#redis = options.redis;
    this.#keyOf = installKeys(options.prefix).state;
    this.#secret = options.stateSecret;
  }

  async generateStateParam(installOptions: InstallURLOptions): Promise<string> {
    const { id, state } = newState(this.#secret);
    const text = JSON.stringify(installOptions);
    await run('generateStateParam', () =>
      this.#redis.set(this.#keyOf(id), text, 'PX', STATE_TTL_MS),
    );
    return state;
  }

  async verifyStateParam(_now: Date, state: string): Promise<InstallURLOptions> {
    const id = stateId(this.#secret, state);
    const text = await run('verifyStateParam', () => this.#redis.getdel(this.#keyOf(id)));
    if (text === null) throw new InvalidOAuthStateError('unknown, used already or expired');
    return JSON.parse(text) as InstallURLOptions;
  }
}

/** Both OAuth stores on Redis. */
export function createRedisInstallStores(options: {
  redis: RedisClient;
  prefix: string;
  cipher: TokenCipher;
  stateSecret: string;
  now?: Now;
}): InstallStores {
  return {
    installations: new RedisInstallations(options),
    states: new RedisOAuthStates(options),
  };
}

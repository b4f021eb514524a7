/**
 * Installations and install states in memory, for one process (tests, the sandbox, a trial
 * without Redis). Sealed as in Redis, so the contract checks the same thing on both.
 */
import type { Installation, InstallationQuery, InstallURLOptions } from '@slack/bolt';
import { InstallationNotFoundError, InvalidOAuthStateError } from './errors.ts';
import type {
  InstallationRecords,
  InstallStores,
  KeptInstallation,
  OAuthStateRecords,
} from './install-types.ts';
import { STATE_TTL_MS } from './install-types.ts';
import { decodeInstallation, encodeInstallation, placeOf, placesOf } from './installation-codec.ts';
import { newState, stateId } from './oauth-state-codec.ts';
import type { TokenCipher } from './token-cipher.ts';
import type { Now } from './types.ts';

/** Installations kept in a map, sealed. */
export class MemoryInstallations implements InstallationRecords {
  readonly #cipher: TokenCipher;
  readonly #now: Now;
  readonly #kept: Map<string, string>;

  /** `kept`: the map to keep them in (a test reads one map with two keys). */
  constructor(cipher: TokenCipher, now: Now = Date.now, kept = new Map<string, string>()) {
    this.#cipher = cipher;
    this.#now = now;
    this.#kept = kept;
  }

  async storeInstallation(installation: Installation): Promise<void> {
    const place = placeOf(installation);
    this.#kept.set(place, encodeInstallation(this.#cipher, place, installation, this.#now()));
  }

  async fetchInstallation(query: InstallationQuery<boolean>): Promise<Installation> {
    const places = placesOf(query);
    for (const place of places) {
      const text = this.#kept.get(place);
      if (text !== undefined) return decodeInstallation(this.#cipher, place, text).installation;
    }
    throw new InstallationNotFoundError(places.join(' or ') || 'an empty query');
  }

  async deleteInstallation(query: InstallationQuery<boolean>): Promise<void> {
    const [place] = placesOf(query);
    if (place !== undefined) this.#kept.delete(place);
  }

  async list(): Promise<KeptInstallation[]> {
    return [...this.#kept].map(([place, text]) => decodeInstallation(this.#cipher, place, text));
  }

  /** The stored text of every installation, as a test reads Redis's raw values. */
  raw(): string[] {
    return [...this.#kept.values()];
  }
}

/** Install states kept in a map until used or expired. */
export class MemoryOAuthStates implements OAuthStateRecords {
  readonly #secret: string;
  readonly #now: Now;
  readonly #kept = new Map<string, { options: InstallURLOptions; expiresAt: number }>();

  constructor(secret: string, now: Now = Date.now) {
    this.#secret = secret;
    this.#now = now;
  }

  async generateStateParam(installOptions: InstallURLOptions): Promise<string> {
    const { id, state } = newState(this.#secret);
    const now = this.#now();
    for (const [key, kept] of this.#kept) if (kept.expiresAt <= now) this.#kept.delete(key);
    this.#kept.set(id, { options: installOptions, expiresAt: now + STATE_TTL_MS });
    return state;
  }

  async verifyStateParam(_now: Date, state: string): Promise<InstallURLOptions> {
    const id = stateId(this.#secret, state);
    const kept = this.#kept.get(id);
    this.#kept.delete(id);
    if (!kept || kept.expiresAt <= this.#now()) {
      throw new InvalidOAuthStateError('unknown, used already or expired');
    }
    return kept.options;
  }
}

/** Both OAuth stores in memory. */
export function createMemoryInstallStores(options: {
  cipher: TokenCipher;
  stateSecret: string;
  now?: Now;
}): InstallStores & { installations: MemoryInstallations } {
  return {
    installations: new MemoryInstallations(options.cipher, options.now),
    states: new MemoryOAuthStates(options.stateSecret, options.now),
  };
}

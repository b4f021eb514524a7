/**
 * Whether the app's thread links may have been lost: a marker kept in the shared store records
 * since when the store holds the app's state. When the marker is missing (Redis came back
 * empty, or this is a new deployment), a new one starts a window in which a reply in any thread
 * the links do not know is looked up in Slack, so threads whose parent is a person's message (a
 * ticket filed by 🎫 or the message shortcut) heal too. Outside the window only the threads
 * that can be told apart cheaply are looked up (see `mayBeTicketThread`).
 */
import type { ClaimStore, Now } from '../../store/types.ts';
import type { HealCheck } from '../deps.ts';

const MARKER = 'store-epoch';
// Long enough for every active thread to get a reply; a quiet one heals when /ticket ID is used.
const DEFAULT_WINDOW_MS = 24 * 60 * 60_000;
// The marker is read at most this often: a lost store is noticed within a minute.
const DEFAULT_RECHECK_MS = 60_000;
const MARKER_TTL_MS = 10 * 365 * 24 * 60 * 60_000;

/** Options of the heal window. */
export interface HealWindowOptions {
  claims: ClaimStore;
  now?: Now;
  windowMs?: number;
  recheckMs?: number;
}

/** Tells whether the thread links may be incomplete because the store lost them. */
export class HealWindow implements HealCheck {
  readonly #claims: ClaimStore;
  readonly #now: Now;
  readonly #windowMs: number;
  readonly #recheckMs: number;
  #since: number | undefined;
  #checkedAt = Number.NEGATIVE_INFINITY;

  constructor(options: HealWindowOptions) {
    this.#claims = options.claims;
    this.#now = options.now ?? Date.now;
    this.#windowMs = options.windowMs ?? DEFAULT_WINDOW_MS;
    this.#recheckMs = options.recheckMs ?? DEFAULT_RECHECK_MS;
  }

  /** Whether every unknown thread should be looked up now. */
  async isOpen(): Promise<boolean> {
    const now = this.#now();
    if (this.#since === undefined || now - this.#checkedAt >= this.#recheckMs) {
      this.#since = await this.#readMarker(now);
      this.#checkedAt = now;
    }
    return now - this.#since < this.#windowMs;
  }

  async #readMarker(now: number): Promise<number> {
    const record = await this.#claims.get(MARKER);
    const since = (record?.state === 'done' ? record.result : undefined) as
      | { since?: unknown }
      | undefined;
    if (typeof since?.since === 'number') return since.since;
    // No marker: the store is new or was emptied. Another replica may be writing it right now;
    // either way the window opens from now.
    const claim = await this.#claims.claim(MARKER, 60_000);
    if (claim.state === 'claimed') {
      await this.#claims.complete(MARKER, claim.token, { since: now }, MARKER_TTL_MS);
    }
    return now;
  }
}

/**
 * The last status this process saw for each ticket (its own reads and writes, and the mirror's
 * shared record), so that a thread reply can tell "closed" (final: the reply would be refused)
 * and "resolved" (the reply reopens it) without spending a platform request on every reply. It
 * is a hint, never the authority: an unknown or stale entry only means the platform's own
 * answer decides, as it would without the memo.
 */
import type { Ticket } from '../../contract/schemas.ts';
import type { KnownTicket, StatusMemo } from '../deps.ts';

/** What the memo knows about a ticket. */
export type { KnownTicket };

/** Options of the memo. */
export interface TicketStatusMemoOptions {
  /** How long a status other than `closed` is trusted; `closed` is final and kept. */
  ttlMs?: number;
  /** Most tickets remembered; the oldest are forgotten first. */
  maxEntries?: number;
  now?: () => number;
}

/**
 * An entry, and whether it is ahead of its version: a change this process made and knows the
 * outcome of (a reply reopened the ticket) before any read shows it, so a read of that same
 * version is older than the entry.
 */
interface Entry {
  known: KnownTicket;
  ahead: boolean;
}

const versionOf = (time: string | null | undefined): number | undefined => {
  const parsed = time ? Date.parse(time) : Number.NaN;
  return Number.isNaN(parsed) ? undefined : parsed;
};

/**
 * Remembers the last seen status of tickets, bounded in size and age. Reads race: a look that
 * began before an agent resolved the ticket can return after the resolve's own answer, so each
 * entry keeps the platform's version (`updated_at`) and an older version never replaces it.
 */
export class TicketStatusMemo implements StatusMemo {
  readonly #entries = new Map<string, Entry>();
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  readonly #now: () => number;

  constructor(options: TicketStatusMemoOptions = {}) {
    this.#ttlMs = options.ttlMs ?? 10 * 60_000;
    this.#maxEntries = options.maxEntries ?? 5_000;
    this.#now = options.now ?? Date.now;
  }

  /** Records a ticket as the platform returned it, unless a newer version is known. */
  remember(ticket: Pick<Ticket, 'id' | 'status' | 'requester_email' | 'updated_at'>): void {
    const version = versionOf(ticket.updated_at);
    if (this.#isOlder(ticket.id, version)) return;
    this.#set(
      ticket.id,
      {
        status: ticket.status,
        requesterEmail: ticket.requester_email?.toLowerCase() ?? undefined,
        at: this.#now(),
        version,
      },
      false,
    );
  }

  // Whether what was seen at `version` is older than the entry: unknown versions never are.
  #isOlder(ticketId: string, version: number | undefined): boolean {
    const entry = this.#entries.get(ticketId.toUpperCase());
    if (version === undefined || entry?.known.version === undefined) return false;
    return entry.ahead ? version <= entry.known.version : version < entry.known.version;
  }

  #set(ticketId: string, known: KnownTicket, ahead: boolean): void {
    const key = ticketId.toUpperCase();
    // Re-inserting moves the entry to the end, so the Map's order is least recently seen first.
    this.#entries.delete(key);
    this.#entries.set(key, { known, ahead });
    while (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
  }

  /**
   * Records what another source (the mirror's shared record) knew as of `at`; an entry of this
   * process's own that is newer is kept.
   */
  adopt(ticketId: string, known: KnownTicket): void {
    const current = this.#entries.get(ticketId.toUpperCase());
    if (current && current.known.at >= known.at) return;
    if (this.#isOlder(ticketId, known.version)) return;
    this.#set(ticketId, { ...known, requesterEmail: known.requesterEmail?.toLowerCase() }, false);
  }

  /**
   * Records a status change this process made or observed: `asOf` is when the platform made it
   * (an activity entry's time), unknown for a change the app knows the outcome of before any
   * read. The requester is the one the source knows, else the one already known (unknown never
   * makes anyone a stranger).
   */
  setStatus(
    ticketId: string,
    status: string,
    seen: { requesterEmail?: string | null | undefined; asOf?: string | null | undefined } = {},
  ): void {
    const asOf = versionOf(seen.asOf);
    if (this.#isOlder(ticketId, asOf)) return;
    const current = this.#entries.get(ticketId.toUpperCase())?.known;
    this.#set(
      ticketId,
      {
        status,
        requesterEmail: seen.requesterEmail?.toLowerCase() ?? current?.requesterEmail ?? undefined,
        at: this.#now(),
        version: asOf ?? current?.version,
      },
      asOf === undefined,
    );
  }

  /** What is known about the ticket, if it is fresh enough to act on. */
  get(ticketId: string): KnownTicket | undefined {
    const key = ticketId.toUpperCase();
    const known = this.#entries.get(key)?.known;
    if (!known) return undefined;
    if (known.status !== 'closed' && this.#now() - known.at > this.#ttlMs) {
      this.#entries.delete(key);
      return undefined;
    }
    return known;
  }

  /** Whether the ticket is known to be closed (a final state: no reply can reach it). */
  isClosed(ticketId: string): boolean {
    return this.get(ticketId)?.status === 'closed';
  }
}

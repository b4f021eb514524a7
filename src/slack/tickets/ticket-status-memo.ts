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

/** Remembers the last seen status of tickets, bounded in size and age. */
export class TicketStatusMemo implements StatusMemo {
  readonly #entries = new Map<string, KnownTicket>();
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  readonly #now: () => number;

  constructor(options: TicketStatusMemoOptions = {}) {
    this.#ttlMs = options.ttlMs ?? 10 * 60_000;
    this.#maxEntries = options.maxEntries ?? 5_000;
    this.#now = options.now ?? Date.now;
  }

  /** Records a ticket as the platform just returned it. */
  remember(ticket: Pick<Ticket, 'id' | 'status' | 'requester_email'>): void {
    const key = ticket.id.toUpperCase();
    // Re-inserting moves the entry to the end, so the Map's order is least recently seen first.
    this.#entries.delete(key);
    this.#entries.set(key, {
      status: ticket.status,
      requesterEmail: ticket.requester_email?.toLowerCase() ?? undefined,
      at: this.#now(),
    });
    this.#trim();
  }

  #trim(): void {
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
    const key = ticketId.toUpperCase();
    const current = this.#entries.get(key);
    if (current && current.at >= known.at) return;
    this.#entries.delete(key);
    this.#entries.set(key, { ...known, requesterEmail: known.requesterEmail?.toLowerCase() });
    this.#trim();
  }

  /**
   * Records a status change this process made or observed, with the requester when the source
   * knows it (else the one already known; else unknown, which never makes anyone a stranger).
   */
  setStatus(ticketId: string, status: string, requesterEmail?: string | null): void {
    const known = this.get(ticketId);
    this.remember({
      id: ticketId,
      status,
      requester_email: requesterEmail ?? known?.requesterEmail ?? null,
    });
  }

  /** What is known about the ticket, if it is fresh enough to act on. */
  get(ticketId: string): KnownTicket | undefined {
    const key = ticketId.toUpperCase();
    const known = this.#entries.get(key);
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

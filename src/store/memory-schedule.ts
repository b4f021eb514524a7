/** The poll schedule held in this process's memory: the twin of `redis-schedule.ts`. */
import { randomUUID } from 'node:crypto';
import { requireCount, requireDuration, requireKey, requireTime } from './argument-checks.ts';
import { DueTimes } from './due-times.ts';
import type { Now, PollClaim, PollSchedule, ScheduledPoll } from './types.ts';

interface Lease {
  token: string;
  expiresAt: number;
  /** The earliest time a hint asked for while the ticket was claimed. */
  pending: number | undefined;
}

/**
 * Due times in a map ordered by a heap (`DueTimes`), so a claim reads only what is due; each
 * method runs to completion, so each is atomic.
 */
export class MemoryPollSchedule implements PollSchedule {
  readonly #now: Now;
  readonly #due = new DueTimes();
  readonly #leases = new Map<string, Lease>();
  // Ticket -> no look before this time (Slack's Retry-After on a post), until it passes.
  readonly #holds = new Map<string, number>();

  constructor(now: Now) {
    this.#now = now;
  }

  async pollAt(ticketId: string, atMs: number): Promise<void> {
    requireKey(ticketId, 'ticket ID');
    const at = this.#held(ticketId, requireTime(Math.floor(atMs), 'atMs'));
    const lease = this.#leases.get(ticketId);
    if (lease && lease.expiresAt > this.#now()) {
      if (lease.pending === undefined || at < lease.pending) lease.pending = at;
      return;
    }
    const current = this.#due.get(ticketId);
    if (current === undefined || at < current) this.#due.set(ticketId, at);
  }

  async claimDue(limit: number, leaseMs: number): Promise<PollClaim[]> {
    requireCount(limit, 'limit');
    requireDuration(leaseMs, 'leaseMs');
    const now = this.#now();
    const due = this.#due.takeDue(now, limit);
    if (due.length === 0) return [];
    const base = randomUUID();
    const expiresAt = now + leaseMs;
    return due.map(([ticketId, dueAt], index) => {
      const previous = this.#leases.get(ticketId);
      const token = `${base}:${index + 1}`;
      // A lapsed claim's hint is kept for the next holder.
      this.#leases.set(ticketId, { token, expiresAt, pending: previous?.pending });
      this.#due.set(ticketId, expiresAt);
      return { ticketId, token, dueAt, leaseExpiresAt: expiresAt };
    });
  }

  async reschedule(claim: PollClaim, atMs: number, notBeforeMs?: number): Promise<boolean> {
    const at = requireTime(Math.floor(atMs), 'atMs');
    const notBefore =
      notBeforeMs === undefined ? undefined : requireTime(Math.floor(notBeforeMs), 'notBeforeMs');
    const lease = this.#leases.get(claim.ticketId);
    if (lease?.token !== claim.token) return false;
    this.#leases.delete(claim.ticketId);
    const hold = this.#holds.get(claim.ticketId);
    if (notBefore !== undefined && (hold === undefined || notBefore > hold))
      this.#holds.set(claim.ticketId, notBefore);
    const asked = lease.pending !== undefined ? Math.min(at, lease.pending) : at;
    this.#due.set(claim.ticketId, this.#held(claim.ticketId, asked));
    return true;
  }

  // The time a look asked for at `at` may come: not before the ticket's hold, while it lasts.
  #held(ticketId: string, at: number): number {
    const hold = this.#holds.get(ticketId);
    if (hold === undefined) return at;
    if (hold <= this.#now()) {
      this.#holds.delete(ticketId);
      return at;
    }
    return Math.max(at, hold);
  }

  async remove(ticketId: string, claim?: PollClaim): Promise<boolean> {
    requireKey(ticketId, 'ticket ID');
    if (claim) {
      const lease = this.#leases.get(ticketId);
      if (lease?.token !== claim.token) return false;
      // Someone asked for a poll while this one decided to stop: their ask wins.
      if (lease.pending !== undefined) {
        this.#leases.delete(ticketId);
        this.#due.set(ticketId, this.#held(ticketId, lease.pending));
        return false;
      }
    }
    this.#leases.delete(ticketId);
    this.#holds.delete(ticketId);
    return this.#due.delete(ticketId);
  }

  async dueAt(ticketId: string): Promise<number | undefined> {
    return this.#due.get(ticketId);
  }

  async nextDueAt(): Promise<number | undefined> {
    return this.#due.earliest();
  }

  async size(): Promise<number> {
    return this.#due.size;
  }

  async dueWithin(untilMs: number, limit: number): Promise<ScheduledPoll[]> {
    const until = requireTime(Math.floor(untilMs), 'untilMs');
    requireCount(limit, 'limit');
    const now = this.#now();
    const due: ScheduledPoll[] = [];
    if (limit === 0) return due;
    for (const [ticketId, dueAt] of this.#due.ordered(until)) {
      const lease = this.#leases.get(ticketId);
      if (lease && lease.expiresAt > now) continue;
      due.push({ ticketId, dueAt });
      if (due.length >= limit) break;
    }
    return due;
  }

  async postpone(ticketId: string, dueAt: number, atMs: number): Promise<boolean> {
    requireKey(ticketId, 'ticket ID');
    requireTime(dueAt, 'dueAt');
    const at = requireTime(Math.floor(atMs), 'atMs');
    // Any lease, even a lapsed one, may carry a hint the next holder must apply.
    if (this.#leases.has(ticketId) || this.#due.get(ticketId) !== dueAt || at <= dueAt) {
      return false;
    }
    this.#due.set(ticketId, at);
    return true;
  }
}

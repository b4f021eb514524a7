/** The poll schedule held in this process's memory: the twin of `redis-schedule.ts`. */
import { randomUUID } from 'node:crypto';
import { requireCount, requireDuration, requireKey, requireTime } from './argument-checks.ts';
import type { Now, PollClaim, PollSchedule, ScheduledPoll } from './types.ts';

interface Lease {
  token: string;
  expiresAt: number;
  /** The earliest time a hint asked for while the ticket was claimed. */
  pending: number | undefined;
}

/** Due times in a Map; each method runs to completion, so each is atomic. */
export class MemoryPollSchedule implements PollSchedule {
  readonly #now: Now;
  readonly #due = new Map<string, number>();
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
    const due = [...this.#due].filter(([, at]) => at <= now);
    // The order of a Redis sorted set: by score, then by member.
    due.sort(([a, at], [b, bt]) => (at !== bt ? at - bt : a < b ? -1 : a > b ? 1 : 0));
    const base = randomUUID();
    const expiresAt = now + leaseMs;
    return due.slice(0, limit).map(([ticketId, dueAt], index) => {
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
    let earliest: number | undefined;
    for (const at of this.#due.values()) if (earliest === undefined || at < earliest) earliest = at;
    return earliest;
  }

  async size(): Promise<number> {
    return this.#due.size;
  }

  async dueWithin(untilMs: number, limit: number): Promise<ScheduledPoll[]> {
    const until = requireTime(Math.floor(untilMs), 'untilMs');
    requireCount(limit, 'limit');
    const now = this.#now();
    const due = [...this.#due].filter(([ticketId, at]) => {
      const lease = this.#leases.get(ticketId);
      return at <= until && !(lease && lease.expiresAt > now);
    });
    due.sort(([a, at], [b, bt]) => (at !== bt ? at - bt : a < b ? -1 : a > b ? 1 : 0));
    return due.slice(0, limit).map(([ticketId, dueAt]) => ({ ticketId, dueAt }));
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

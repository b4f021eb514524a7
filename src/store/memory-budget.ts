/** The rate budget held in this process's memory: the twin of `redis-budget.ts`. */
import { requireTime } from './argument-checks.ts';
import {
  allowance,
  type BudgetWindow,
  capOf,
  HOUR_MS,
  isPressed,
  isUsableObservation,
  MINUTE_MS,
  observedWindow,
  PEOPLE_RECENT_MS,
  pressedOwnHour,
} from './rate-budget-rules.ts';
import type {
  BudgetGrant,
  BudgetPriority,
  BudgetUsage,
  Now,
  RateBudget,
  RateBudgetLimits,
  RateLimitObservation,
} from './types.ts';

interface Adopted {
  remaining: number;
  observedAt: number;
  resetAt: number;
}

/** A rolling log of request times; each method runs to completion, so each is atomic. */
export class MemoryRateBudget implements RateBudget {
  readonly limits: RateBudgetLimits;
  readonly #now: Now;
  // Request times, ascending; entries older than an hour are dropped on every take.
  #log: number[] = [];
  // The background ones among them, the same way.
  #background: number[] = [];
  #blockedUntil = 0;
  // When a person's request last found no room (see `PRESSED_MS`).
  #pressedAt = Number.NEGATIVE_INFINITY;
  readonly #adopted: Record<BudgetWindow, Adopted | undefined> = {
    minute: undefined,
    hour: undefined,
  };

  constructor(limits: RateBudgetLimits, now: Now) {
    this.limits = limits;
    this.#now = now;
  }

  async take(priority: BudgetPriority): Promise<BudgetGrant> {
    const now = this.#now();
    if (this.#blockedUntil > now) {
      return { granted: false, retryAt: this.#blockedUntil, reason: 'backoff' };
    }
    this.#prune(now);
    const allow = allowance(this.limits, priority);
    const people = this.#people(now);
    const pressed = isPressed(allow, now, this.#pressedAt, people);
    const minute = this.#window('minute', now, capOf(allow, 'minute', pressed), allow.own?.minute);
    const ownHour = pressed ? pressedOwnHour(allow, people) : allow.own?.hour;
    const hour = this.#window('hour', now, capOf(allow, 'hour', pressed), ownHour);
    if (minute.blocked || hour.blocked) {
      const retryAt = Math.max(
        minute.blocked ? minute.releaseAt : 0,
        hour.blocked ? hour.releaseAt : 0,
      );
      if (priority === 'interactive') this.#pressedAt = now;
      return { granted: false, retryAt: Math.max(retryAt, now + 1), reason: 'window' };
    }
    insertSorted(this.#log, now);
    if (priority === 'background') insertSorted(this.#background, now);
    return { granted: true };
  }

  async observe(observation: RateLimitObservation): Promise<void> {
    if (!isUsableObservation(observation)) return;
    const now = this.#now();
    const resetAt = Math.floor(observation.resetAt);
    if (resetAt <= now) return;
    const window = observedWindow(observation, this.limits);
    const next: Adopted = {
      remaining: Math.floor(observation.remaining),
      observedAt: Math.floor(observation.observedAt),
      resetAt,
    };
    const current = this.#adopted[window];
    if (current && current.resetAt > now) {
      if (next.resetAt < current.resetAt) return;
      // Within one window the platform's count only grows: the lower remaining is the truer one.
      if (next.resetAt === current.resetAt && this.#effective(next) >= this.#effective(current)) {
        return;
      }
    }
    this.#adopted[window] = next;
  }

  async backOff(untilMs: number): Promise<void> {
    requireTime(Math.floor(untilMs), 'untilMs');
    this.#blockedUntil = Math.max(this.#blockedUntil, Math.floor(untilMs));
  }

  async usage(recentMs = 600_000): Promise<BudgetUsage> {
    const now = this.#now();
    this.#prune(now);
    return {
      minute: this.#used('minute', now),
      hour: this.#used('hour', now),
      recent: this.#since(now - recentMs),
      background: {
        minute: countAfter(this.#background, now - MINUTE_MS),
        hour: countAfter(this.#background, now - HOUR_MS),
        recent: countAfter(this.#background, now - recentMs),
      },
      blockedUntil: this.#blockedUntil > now ? this.#blockedUntil : undefined,
      peoplePressed: isPressed(
        allowance(this.limits, 'background'),
        now,
        this.#pressedAt,
        this.#people(now),
      ),
    };
  }

  // People's requests in the hour and the recent window: every request less the background's.
  #people(now: number): { hour: number; recent: number } {
    const count = (floor: number) =>
      countAfter(this.#log, floor) - countAfter(this.#background, floor);
    return { hour: count(now - HOUR_MS), recent: count(now - PEOPLE_RECENT_MS) };
  }

  #prune(now: number): void {
    const floor = now - HOUR_MS;
    this.#log = this.#log.slice(this.#log.length - countAfter(this.#log, floor));
    this.#background = this.#background.slice(
      this.#background.length - countAfter(this.#background, floor),
    );
  }

  // Requests after `floor` (exclusive), as Redis's ZCOUNT '(floor' '+inf' counts them.
  #since(floor: number): number {
    return countAfter(this.#log, floor);
  }

  // Requests from the observation's own millisecond on count: rather twice than not at all.
  #effective(adopted: Adopted): number {
    return adopted.remaining - this.#since(adopted.observedAt - 1);
  }

  #serverUsed(window: BudgetWindow, now: number): { used: number; resetAt: number } | undefined {
    const adopted = this.#adopted[window];
    if (!adopted || adopted.resetAt <= now) return undefined;
    const limit = window === 'minute' ? this.limits.perMinute : this.limits.perHour;
    return { used: limit - this.#effective(adopted), resetAt: adopted.resetAt };
  }

  #used(window: BudgetWindow, now: number): number {
    const span = window === 'minute' ? MINUTE_MS : HOUR_MS;
    const local = this.#since(now - span);
    return Math.max(local, this.#serverUsed(window, now)?.used ?? 0);
  }

  #window(
    window: BudgetWindow,
    now: number,
    allow: number,
    ownAllow: number | undefined,
  ): { blocked: boolean; releaseAt: number } {
    const span = window === 'minute' ? MINUTE_MS : HOUR_MS;
    const server = this.#serverUsed(window, now);
    let releaseAt = 0;
    let blocked = false;
    for (const [log, limit] of [
      [this.#log, allow],
      [this.#background, ownAllow],
    ] as const) {
      if (limit === undefined) continue;
      const local = countAfter(log, now - span);
      if (local < limit) continue;
      // The window frees a slot when its (local - limit)-th oldest request leaves it.
      const first = log.length - local;
      releaseAt = Math.max(releaseAt, (log[first + local - limit] as number) + span);
      blocked = true;
    }
    if (server && server.used >= allow) {
      releaseAt = Math.max(releaseAt, server.resetAt);
      blocked = true;
    }
    return { blocked, releaseAt };
  }
}

// Entries of an ascending list after `floor` (exclusive).
function countAfter(list: number[], floor: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((list[mid] as number) <= floor) low = mid + 1;
    else high = mid;
  }
  return list.length - low;
}

function insertSorted(list: number[], value: number): void {
  let index = list.length;
  while (index > 0 && (list[index - 1] as number) > value) index -= 1;
  list.splice(index, 0, value);
}

/**
 * The rules both rate-budget backends apply, kept in one place so the Lua script and the
 * in-memory twin cannot drift apart on the parts that are plain arithmetic.
 */
import { InvalidStoreArgumentError } from './errors.ts';
import type { BudgetPriority, RateBudgetLimits, RateLimitObservation } from './types.ts';
import { DEFAULT_RATE_BUDGET_LIMITS } from './types.ts';

/** The rolling minute, in ms. */
export const MINUTE_MS = 60_000;
/** The rolling hour, in ms. */
export const HOUR_MS = 3_600_000;

/** The two windows a budget counts in. */
export type BudgetWindow = 'minute' | 'hour';

/** Fills in the defaults and refuses limits that cannot describe a budget. */
export function resolveBudgetLimits(limits: Partial<RateBudgetLimits> = {}): RateBudgetLimits {
  const resolved = { ...DEFAULT_RATE_BUDGET_LIMITS, ...limits };
  for (const name of ['perMinute', 'perHour'] as const) {
    if (!Number.isSafeInteger(resolved[name]) || resolved[name] <= 0) {
      throw new InvalidStoreArgumentError(`budget ${name} must be a positive whole number`);
    }
  }
  if (!(resolved.reserve >= 0 && resolved.reserve < 1)) {
    throw new InvalidStoreArgumentError('budget reserve must be a fraction from 0 up to (not) 1');
  }
  return resolved;
}

/** What a take of one priority may add to each window. */
export interface Allowance {
  /** Requests of every priority in the rolling minute and hour, this one included. */
  minute: number;
  hour: number;
  /** Background work's own requests, for background takes only. */
  own?: { minute: number; hour: number };
  /**
   * For background takes, everyone's count while people are pressed (one of their requests
   * found no room lately, `PRESSED_MS`, or their own count in the hour reached `peopleHour`,
   * twice their reserve): background work then stops where people's whole reserve stays free,
   * as if it counted in the total.
   */
  pressed?: { minute: number; hour: number; peopleHour: number };
}

/** How long after a person's request found no room background work keeps their whole reserve. */
export const PRESSED_MS = 60 * 60_000;

/**
 * How many requests a take of a priority finds room for in each window. People may use all of
 * it. Background work never makes more than (1 - reserve) of a window itself, and never takes
 * its last reserve / 4 whoever spent the rest, so the room people leave unused is not left idle
 * (a reserve that only counted the total would cap the poller at 80% minus what people spent);
 * but once a person's request has found no room, background work keeps out of the whole
 * reserve for `PRESSED_MS` (the hour it takes the window to free what the poller took), and
 * so it does while people's own hour (or its last ten minutes' pace) is past twice their
 * reserve, before any of them waits:
 * people's peaks come before the poller's pace.
 */
export function allowance(limits: RateBudgetLimits, priority: BudgetPriority): Allowance {
  if (priority === 'interactive') return { minute: limits.perMinute, hour: limits.perHour };
  const room = (limit: number) => Math.max(1, Math.ceil((limit * limits.reserve) / 4));
  const share = (limit: number) => Math.floor(limit * (1 - limits.reserve));
  return {
    minute: limits.perMinute - room(limits.perMinute),
    hour: limits.perHour - room(limits.perHour),
    own: { minute: share(limits.perMinute), hour: share(limits.perHour) },
    pressed: {
      minute: share(limits.perMinute),
      hour: share(limits.perHour),
      peopleHour: Math.max(1, Math.ceil(limits.perHour * limits.reserve * 2)),
    },
  };
}

/** Everyone's count a take may find in `window`, given whether people are pressed. */
export function capOf(allow: Allowance, window: BudgetWindow, pressed: boolean): number {
  return pressed && allow.pressed ? allow.pressed[window] : allow[window];
}

/** The window whose pace of people's requests, made an hour, presses them too. */
export const PEOPLE_RECENT_MS = 10 * 60_000;

/**
 * What background work may make itself in the hour while people are pressed: their pressed
 * cap less people's projected hour (the larger of their hour and their last ten minutes' pace),
 * at least 1. Without it an hour that started empty (a first start, Redis emptied) fills with
 * background work before people's pace shows, and the rolling hour frees it only an hour later.
 */
export function pressedOwnHour(
  allow: Allowance,
  people: { hour: number; recent: number },
): number | undefined {
  if (!allow.own || !allow.pressed) return allow.own?.hour;
  const projected = Math.max(people.hour, people.recent * (HOUR_MS / PEOPLE_RECENT_MS));
  return Math.max(1, Math.min(allow.own.hour, allow.pressed.hour - projected));
}

/**
 * Whether people are pressed: a refusal of theirs lately, or their own hour this full, or
 * their last ten minutes at a pace that would fill it.
 */
export function isPressed(
  allow: Allowance,
  now: number,
  pressedAt: number,
  people: { hour: number; recent: number },
): boolean {
  if (!allow.pressed) return false;
  const { peopleHour } = allow.pressed;
  return (
    now - pressedAt < PRESSED_MS ||
    people.hour >= peopleHour ||
    people.recent * (HOUR_MS / PEOPLE_RECENT_MS) >= peopleHour
  );
}

/**
 * Which window a response's headers describe. The platform reports the window closest to
 * exhaustion; its limit names it when the limits are the configured ones, and otherwise a reset
 * within a minute can only be the minute's.
 */
export function observedWindow(
  observation: RateLimitObservation,
  limits: RateBudgetLimits,
): BudgetWindow {
  if (observation.limit === limits.perMinute && limits.perMinute !== limits.perHour) {
    return 'minute';
  }
  if (observation.limit === limits.perHour) return 'hour';
  return observation.resetAt - observation.observedAt <= MINUTE_MS ? 'minute' : 'hour';
}

/** Whether an observation is worth handing to a backend at all. */
export function isUsableObservation(observation: RateLimitObservation): boolean {
  return (
    Number.isFinite(observation.limit) &&
    Number.isFinite(observation.remaining) &&
    Number.isSafeInteger(Math.floor(observation.resetAt)) &&
    Number.isSafeInteger(Math.floor(observation.observedAt)) &&
    observation.remaining >= 0
  );
}

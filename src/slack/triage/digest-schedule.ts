/**
 * When the triage channels' morning summary goes: at TRIAGE_DIGEST_AT on weekdays (Monday to
 * Friday in TRIAGE_DIGEST_TZ), and only until noon that day. A process that was down past noon
 * (or could not send all morning) sends nothing for that day: a summary of the morning read at
 * tea time misleads more than it helps. A summary set at or after 11:00 keeps an hour after its
 * time instead, so a team that wants one at 13:00 gets it.
 *
 * Pure: every answer is computed from the instant and the zone, through Intl, so daylight saving
 * time is the zone's own (a wall time the clocks skip is read as the same time after the jump,
 * and a wall time that happens twice as its first occurrence).
 */

/** The summary's time: minutes after local midnight, and the IANA time zone. */
export interface DigestSchedule {
  minuteOfDay: number;
  timeZone: string;
}

/** One day's summary as the schedule sees it. */
export interface DigestDay {
  /** The local date, `YYYY-MM-DD`: the summary's key for the day. */
  date: string;
  /** When it is due (ms since the epoch). */
  sendAtMs: number;
  /** When the day's chance ends unsent (noon local, or an hour after a late time). */
  closesAtMs: number;
  /** The local day's start (its midnight). */
  startOfDayMs: number;
  /** The local day's end (the next midnight): "due today" means before it. */
  endOfDayMs: number;
}

/** A local calendar date. */
interface LocalDate {
  year: number;
  month: number;
  day: number;
}

const NOON = 12 * 60;
const LATE_GRACE_MINUTES = 60;
const DAY_MS = 86_400_000;

// Formatters are slow to build and the zone is fixed: one per zone.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      weekday: 'short',
    });
    formatters.set(timeZone, format);
  }
  return format;
}

const WEEKDAYS: Readonly<Record<string, number>> = {
  Sun: 0,
  Mon: 1,
  Tue: 2,
  Wed: 3,
  Thu: 4,
  Fri: 5,
  Sat: 6,
};

/** The wall clock in the zone at an instant. */
export interface WallTime extends LocalDate {
  hour: number;
  minute: number;
  second: number;
  /** 0 Sunday to 6 Saturday. */
  weekday: number;
}

/** What the wall clock shows in `timeZone` at `ms`. */
export function wallTime(ms: number, timeZone: string): WallTime {
  const parts: Record<string, string> = {};
  for (const part of formatter(timeZone).formatToParts(new Date(ms))) parts[part.type] = part.value;
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
    weekday: WEEKDAYS[parts.weekday ?? ''] ?? 0,
  };
}

// How far the zone's wall clock is ahead of UTC at `ms` (whole seconds, as zones are).
function offsetMs(ms: number, timeZone: string): number {
  const wall = wallTime(ms, timeZone);
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/**
 * The instant the wall clock in `timeZone` shows `minuteOfDay` on `date`. A time the clocks
 * skip (spring forward) is read with the offset before the jump (02:30 becomes 03:30); a time
 * that happens twice (fall back) is its first occurrence.
 */
export function zonedTimeMs(date: LocalDate, minuteOfDay: number, timeZone: string): number {
  const asUtc = Date.UTC(date.year, date.month - 1, date.day, 0, minuteOfDay);
  const before = offsetMs(asUtc - DAY_MS / 2, timeZone);
  const after = offsetMs(asUtc + DAY_MS / 2, timeZone);
  const fits = [asUtc - before, asUtc - after].filter((ms) => {
    const wall = wallTime(ms, timeZone);
    return (
      wall.year === date.year &&
      wall.month === date.month &&
      wall.day === date.day &&
      wall.hour * 60 + wall.minute === minuteOfDay
    );
  });
  return fits.length > 0 ? Math.min(...fits) : asUtc - before;
}

function isoDate(date: LocalDate): string {
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  return `${pad(date.year, 4)}-${pad(date.month, 2)}-${pad(date.day, 2)}`;
}

function nextDate(date: LocalDate, days = 1): LocalDate {
  const next = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate() };
}

function weekdayOf(date: LocalDate): number {
  return new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay();
}

/** The summary of a local date, whatever its weekday. */
export function digestDay(date: LocalDate, schedule: DigestSchedule): DigestDay {
  const { minuteOfDay, timeZone } = schedule;
  const closesAt = Math.max(NOON, minuteOfDay + LATE_GRACE_MINUTES);
  const sendAtMs = zonedTimeMs(date, minuteOfDay, timeZone);
  const endOfDayMs = zonedTimeMs(nextDate(date), 0, timeZone);
  // A grace past midnight (a time after 23:00) ends with the day.
  const closesAtMs = Math.min(
    zonedTimeMs(date, Math.min(closesAt, 24 * 60 - 1), timeZone),
    endOfDayMs,
  );
  return {
    date: isoDate(date),
    sendAtMs,
    closesAtMs: Math.max(closesAtMs, sendAtMs + 1),
    startOfDayMs: zonedTimeMs(date, 0, timeZone),
    endOfDayMs,
  };
}

/** Today's summary (in the zone) if one is to go today at all: a weekday. */
export function digestToday(nowMs: number, schedule: DigestSchedule): DigestDay | undefined {
  const wall = wallTime(nowMs, schedule.timeZone);
  if (wall.weekday === 0 || wall.weekday === 6) return undefined;
  return digestDay(wall, schedule);
}

/** Whether a summary is to be sent now: a weekday, at or after its time, before its close. */
export function digestDueNow(nowMs: number, schedule: DigestSchedule): DigestDay | undefined {
  const today = digestToday(nowMs, schedule);
  return today && nowMs >= today.sendAtMs && nowMs < today.closesAtMs ? today : undefined;
}

/**
 * The next summary still to go at or after `nowMs`: today's when its window is still open (due
 * at once when its time has come), else the next weekday's.
 */
export function nextDigest(nowMs: number, schedule: DigestSchedule): DigestDay {
  const wall = wallTime(nowMs, schedule.timeZone);
  let date: LocalDate = wall;
  for (let days = 0; days < 8; days++, date = nextDate(date)) {
    const weekday = weekdayOf(date);
    if (weekday === 0 || weekday === 6) continue;
    const day = digestDay(date, schedule);
    if (nowMs < day.closesAtMs) return day;
  }
  // Unreachable: a week holds five weekdays.
  throw new RangeError(`no weekday found after ${new Date(nowMs).toISOString()}`);
}

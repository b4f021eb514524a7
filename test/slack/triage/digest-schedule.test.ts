/**
 * When the morning summary goes: weekdays at its time in its zone, across zones (a half-hour
 * offset, the date line), weekends, daylight saving time, and never after noon of a day the app
 * was down.
 */
import { describe, expect, it } from 'vitest';
import {
  type DigestSchedule,
  digestDueNow,
  nextDigest,
  zonedTimeMs,
} from '../../../src/slack/triage/digest-schedule.ts';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();
const nine = (timeZone: string): DigestSchedule => ({ minuteOfDay: 9 * 60, timeZone });

describe('next send time', () => {
  it('is today at 09:00 in Paris when the Monday morning has not reached it yet', () => {
    const next = nextDigest(at('2026-11-30T06:00:00Z'), nine('Europe/Paris'));
    expect(next.date).toBe('2026-11-30');
    expect(iso(next.sendAtMs)).toBe('2026-11-30T08:00:00.000Z');
  });

  it('is Monday 09:00 New York time when asked on Friday afternoon', () => {
    const next = nextDigest(at('2026-12-04T20:00:00Z'), nine('America/New_York'));
    expect(next.date).toBe('2026-12-07');
    expect(iso(next.sendAtMs)).toBe('2026-12-07T14:00:00.000Z');
  });

  it('skips Saturday and Sunday', () => {
    const next = nextDigest(at('2026-11-28T08:00:00Z'), nine('UTC'));
    expect(next.date).toBe('2026-11-30');
  });

  it('keeps to the zone’s weekday across the date line (Auckland’s Monday is Sunday in UTC)', () => {
    const next = nextDigest(at('2026-11-29T18:00:00Z'), nine('Pacific/Auckland'));
    expect(next.date).toBe('2026-11-30');
    expect(iso(next.sendAtMs)).toBe('2026-11-29T20:00:00.000Z');
  });

  it('keeps a half-hour offset (09:00 in Kolkata is 03:30 UTC)', () => {
    const next = nextDigest(at('2026-11-30T00:00:00Z'), nine('Asia/Kolkata'));
    expect(iso(next.sendAtMs)).toBe('2026-11-30T03:30:00.000Z');
  });

  it('moves with daylight saving time: Paris’s 09:00 is 08:00 UTC before the change and 07:00 after it', () => {
    const friday = nextDigest(at('2027-03-26T05:00:00Z'), nine('Europe/Paris'));
    expect(iso(friday.sendAtMs)).toBe('2027-03-26T08:00:00.000Z');
    const monday = nextDigest(at('2027-03-26T12:00:00Z'), nine('Europe/Paris'));
    expect(monday.date).toBe('2027-03-29');
    expect(iso(monday.sendAtMs)).toBe('2027-03-29T07:00:00.000Z');
  });

  it('moves with New York’s fall back: 13:00 UTC on Friday, 14:00 UTC on Monday', () => {
    expect(iso(nextDigest(at('2026-10-30T10:00:00Z'), nine('America/New_York')).sendAtMs)).toBe(
      '2026-10-30T13:00:00.000Z',
    );
    expect(iso(nextDigest(at('2026-10-30T18:00:00Z'), nine('America/New_York')).sendAtMs)).toBe(
      '2026-11-02T14:00:00.000Z',
    );
  });

  it('reads a wall time the clocks skip as the same time after the jump, and one they repeat as its first occurrence', () => {
    const spring = { year: 2027, month: 3, day: 14 };
    expect(iso(zonedTimeMs(spring, 2 * 60 + 30, 'America/New_York'))).toBe(
      '2027-03-14T07:30:00.000Z',
    );
    const fall = { year: 2026, month: 11, day: 1 };
    expect(iso(zonedTimeMs(fall, 60 + 30, 'America/New_York'))).toBe('2026-11-01T05:30:00.000Z');
  });

  it('ends the local day at the zone’s next midnight, in summer time after the change', () => {
    const day = nextDigest(at('2027-03-26T12:00:00Z'), nine('Europe/Paris'));
    expect(iso(day.startOfDayMs)).toBe('2027-03-28T22:00:00.000Z');
    expect(iso(day.endOfDayMs)).toBe('2027-03-29T22:00:00.000Z');
  });
});

describe('down past noon', () => {
  const paris = nine('Europe/Paris');

  it('sends today’s summary when the app starts at 09:30', () => {
    const due = digestDueNow(at('2026-11-30T08:30:00Z'), paris);
    expect(due?.date).toBe('2026-11-30');
  });

  it('sends nothing for today when the app starts after noon, and next plans tomorrow', () => {
    const afterNoon = at('2026-11-30T11:05:00Z');
    expect(digestDueNow(afterNoon, paris)).toBeUndefined();
    expect(nextDigest(afterNoon, paris).date).toBe('2026-12-01');
  });

  it('sends nothing before its time or at the weekend', () => {
    expect(digestDueNow(at('2026-11-30T07:59:00Z'), paris)).toBeUndefined();
    expect(digestDueNow(at('2026-11-28T08:30:00Z'), paris)).toBeUndefined();
  });

  it('keeps an hour after a summary set in the afternoon', () => {
    const afternoon: DigestSchedule = { minuteOfDay: 14 * 60, timeZone: 'UTC' };
    expect(digestDueNow(at('2026-11-30T14:59:00Z'), afternoon)?.date).toBe('2026-11-30');
    expect(digestDueNow(at('2026-11-30T15:00:00Z'), afternoon)).toBeUndefined();
  });
});

/**
 * The sandbox page's one way of writing times: the reader's own clock (12 or 24 hours, as
 * their locale has it) for Slack's messages, Slack's date tokens and the platform's lists alike.
 */
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

interface TimeModule {
  clockTime(date: Date, locale?: string): string;
  clockTimeWithSeconds(date: Date, locale?: string): string;
  shortDay(date: Date, now?: Date): string;
  dayAndTime(date: Date, locale?: string, now?: Date): string;
}

const root = fileURLToPath(new URL('../../', import.meta.url));
// A browser module: imported by URL, so the type checker does not look for its declarations.
const time = (await import(
  pathToFileURL(join(root, 'tools/sandbox/public/time.js')).href
)) as TimeModule;

// Intl puts a narrow no-break space before AM/PM; a plain space reads the same.
const spaced = (text: string) => text.replace(/\s/g, ' ');

const evening = new Date(2026, 10, 24, 17, 41, 9);
const now = new Date(2026, 10, 25, 9, 0);

describe('the sandbox’s times', () => {
  it('writes a time on a 24-hour clock for a reader whose locale keeps one', () => {
    expect(time.clockTime(evening, 'en-GB')).toBe('17:41');
  });

  it('writes a time on a 12-hour clock for a reader whose locale keeps one', () => {
    expect(spaced(time.clockTime(evening, 'en-US'))).toBe('5:41 PM');
  });

  it('writes seconds on the same clock as minutes', () => {
    expect(time.clockTimeWithSeconds(evening, 'en-GB')).toBe('17:41:09');
    expect(spaced(time.clockTimeWithSeconds(evening, 'en-US'))).toBe('5:41:09 PM');
  });

  it('writes a platform timestamp with the clock a Slack message time uses', () => {
    expect(time.dayAndTime(evening, 'en-GB', now)).toBe('Nov 24, 17:41');
    expect(spaced(time.dayAndTime(evening, 'en-US', now))).toBe('Nov 24, 5:41 PM');
  });

  it('adds the year to a day only when it is not this year', () => {
    expect(time.shortDay(evening, now)).toBe('Nov 24');
    expect(time.shortDay(evening, new Date(2027, 0, 2))).toBe('Nov 24, 2026');
  });
});

// @ts-check
/**
 * One way of writing a time for the whole page, Slack's side and the platform's alike, so one
 * person never sees "17:41" beside "5:41 PM". The clock is the visitor's own: their browser's
 * locale says whether it runs to 12 or 24 hours, as Slack follows its reader's setting. Day and
 * month names stay in English, as the rest of the page.
 */

/** @type {Map<string, Intl.DateTimeFormat>} */
const clocks = new Map();

/**
 * @param {string | undefined} locale
 * @param {boolean} withSeconds
 */
function clockFormat(locale, withSeconds) {
  const key = `${locale ?? ''}|${withSeconds}`;
  let format = clocks.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, {
      hour: 'numeric',
      minute: '2-digit',
      ...(withSeconds ? { second: '2-digit' } : {}),
    });
    clocks.set(key, format);
  }
  return format;
}

/**
 * Hours and minutes on the reader's clock (`locale` only for tests; the browser's otherwise).
 * @param {Date} date
 * @param {string} [locale]
 */
export function clockTime(date, locale = undefined) {
  return clockFormat(locale, false).format(date);
}

/**
 * Hours, minutes and seconds on the reader's clock.
 * @param {Date} date
 * @param {string} [locale]
 */
export function clockTimeWithSeconds(date, locale = undefined) {
  return clockFormat(locale, true).format(date);
}

/**
 * A day as Slack's English writes it short: "Nov 24", with the year when it is not this one.
 * @param {Date} date
 * @param {Date} [now]
 */
export function shortDay(date, now = new Date()) {
  const month = date.toLocaleString('en-US', { month: 'short' });
  const year = date.getFullYear() === now.getFullYear() ? '' : `, ${date.getFullYear()}`;
  return `${month} ${date.getDate()}${year}`;
}

/**
 * A day and its time, for lists that span days: "Nov 24, 5:41 PM" or "Nov 24, 17:41".
 * @param {Date} date
 * @param {string} [locale]
 * @param {Date} [now]
 */
export function dayAndTime(date, locale = undefined, now = new Date()) {
  return `${shortDay(date, now)}, ${clockTime(date, locale)}`;
}

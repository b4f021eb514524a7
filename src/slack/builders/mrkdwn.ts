/**
 * Safe text for Block Kit. Everything that came from the platform or from another person goes
 * through here: escaping stops `<!channel>` or `<@U123>` in a ticket title from pinging anyone,
 * and truncation keeps every field inside Slack's limits so a long ticket never fails a post.
 */

/** Block Kit limits the builders respect (Slack's published maximums). */
export const LIMITS = {
  sectionText: 3000,
  sectionField: 2000,
  headerText: 150,
  contextText: 3000,
  buttonText: 75,
  optionText: 75,
  optionValue: 150,
  modalTitle: 24,
  modalSubmit: 24,
  privateMetadata: 3000,
  messageText: 4000,
  plainTextInitialValue: 3000,
  staticSelectOptions: 100,
  messageBlocks: 50,
  modalBlocks: 100,
  url: 3000,
} as const;

const ELLIPSIS = '…';

/** Escapes the three characters Slack treats as control characters in mrkdwn. */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Cuts text to at most `max` characters (code points, so an emoji is never split), ending in an
 * ellipsis when something was cut.
 */
export function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  return chars.slice(0, Math.max(0, max - 1)).join('') + ELLIPSIS;
}

/**
 * Escapes then truncates, cutting before an entity rather than through it, because a cut
 * `&am` would render as literal garbage.
 */
export function safeMrkdwn(text: string, max: number): string {
  const escaped = escapeMrkdwn(text);
  if (Array.from(escaped).length <= max) return escaped;
  let cut = truncate(escaped, max).slice(0, -1);
  const amp = cut.lastIndexOf('&');
  if (amp !== -1 && !cut.slice(amp).includes(';')) cut = cut.slice(0, amp);
  return cut + ELLIPSIS;
}

/** A plain_text object, truncated to its limit. Plain text is never parsed for mentions. */
export function plain(
  text: string,
  max: number,
): { type: 'plain_text'; text: string; emoji: true } {
  return { type: 'plain_text', text: truncate(text || ' ', max), emoji: true };
}

/** A mrkdwn object whose text the caller has already made safe. */
export function md(text: string): { type: 'mrkdwn'; text: string } {
  return { type: 'mrkdwn', text };
}

/** A link in mrkdwn, with the label escaped and the URL stripped of characters that end it. */
export function link(url: string, label: string): string {
  const safeUrl = url.replace(/[<>|\s]/g, encodeURIComponent);
  return `<${safeUrl}|${escapeMrkdwn(label)}>`;
}

/** A timestamp Slack renders in the reader's own time zone, with a UTC fallback. */
export function slackDate(iso: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return escapeMrkdwn(iso);
  const fallback = new Date(ms).toISOString().replace('T', ' ').slice(0, 16);
  return `<!date^${Math.floor(ms / 1000)}^{date_short_pretty} at {time}|${fallback} UTC>`;
}

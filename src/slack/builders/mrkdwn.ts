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

// What one character costs once escaped for mrkdwn.
const escapedCost = (ch: string) => (ch === '&' ? 5 : ch === '<' || ch === '>' ? 4 : 1);

/**
 * Splits text into pieces of at most `max` (code points, or escaped length with `escaped`),
 * each ending after a line break or a space where one is in the last third of the piece.
 * Nothing is dropped: the pieces joined with '' give the text back.
 */
export function splitText(
  text: string,
  max: number,
  options: { escaped?: boolean } = {},
): string[] {
  const cost = options.escaped ? escapedCost : () => 1;
  const chars = Array.from(text);
  const pieces: string[] = [];
  let start = 0;
  while (start < chars.length) {
    let end = start;
    let used = 0;
    let lineBreak = -1;
    let space = -1;
    while (end < chars.length && used + cost(chars[end] as string) <= max) {
      used += cost(chars[end] as string);
      if (chars[end] === '\n') lineBreak = end + 1;
      else if (/\s/.test(chars[end] as string)) space = end + 1;
      end++;
    }
    if (end < chars.length) {
      const near = start + Math.floor(((end - start) * 2) / 3);
      if (lineBreak > near) end = lineBreak;
      else if (space > near) end = space;
    }
    // A limit below one character's cost must still make progress.
    if (end === start) end = start + 1;
    pieces.push(chars.slice(start, end).join(''));
    start = end;
  }
  return pieces;
}

/**
 * A person's words as quoted sections, split over as many as it takes so nothing is cut
 * (Slack allows 3,000 characters a section), at most `maxSections`: words past that many
 * (over 140,000 characters, more than one Slack message holds) are cut with an ellipsis.
 */
export function quotedSections(
  text: string,
  maxSections: number,
): { type: 'section'; text: { type: 'mrkdwn'; text: string } }[] {
  const fence = '```';
  const room = LIMITS.sectionText - 2 * fence.length;
  const pieces = splitText(text.replaceAll(fence, "'''"), room, { escaped: true });
  const kept = pieces.slice(0, maxSections);
  if (pieces.length > maxSections) kept[maxSections - 1] = pieces.slice(maxSections - 1).join('');
  return kept.map((piece) => ({
    type: 'section',
    text: md(`${fence}${safeMrkdwn(piece, room)}${fence}`),
  }));
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

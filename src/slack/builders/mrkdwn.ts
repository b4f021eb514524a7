/**
 * Safe text for Block Kit. Everything that came from the platform or from another person goes
 * through here: escaping stops `<!channel>` or `<@U123>` in a ticket title from pinging anyone,
 * and truncation keeps every field inside Slack's limits so a long ticket never fails a post.
 * Every length here is in UTF-16 code units (JavaScript's `length`), the stricter reading of
 * Slack's "characters": an emoji is two units, and counting it as one let 21 sections of 2,995
 * code points reach 3,074 units.
 */

/** Block Kit limits the builders respect (Slack's published maximums, in UTF-16 units). */
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
  // Slack answers `msg_blocks_too_long` for far less than 50 sections of 3,000: its maintainers
  // saw it from about 12,000 characters of block text in one message (bolt-js issues 2509 and
  // 2867; no figure is documented), so one message carries at most this much, with room to spare.
  messageBlockText: 11_000,
} as const;

const ELLIPSIS = '…';

/** Escapes the three characters Slack treats as control characters in mrkdwn. */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Cuts text to at most `max` UTF-16 units, never through an emoji (a surrogate pair), ending
 * in an ellipsis when something was cut.
 */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = '';
  for (const ch of text) {
    if (cut.length + ch.length > max - ELLIPSIS.length) break;
    cut += ch;
  }
  return cut + ELLIPSIS;
}

/**
 * Escapes then truncates, cutting before an entity rather than through it, because a cut
 * `&am` would render as literal garbage.
 */
export function safeMrkdwn(text: string, max: number): string {
  const escaped = escapeMrkdwn(text);
  if (escaped.length <= max) return escaped;
  let cut = truncate(escaped, max).slice(0, -ELLIPSIS.length);
  const amp = cut.lastIndexOf('&');
  if (amp !== -1 && !cut.slice(amp).includes(';')) cut = cut.slice(0, amp);
  return cut + ELLIPSIS;
}

/**
 * The text a list of blocks carries, in UTF-16 units: every `text` string at any depth (text
 * objects, rich text elements, a markdown block), which is what Slack's `msg_blocks_too_long`
 * weighs.
 */
export function blockTextLength(value: unknown): number {
  if (Array.isArray(value))
    return value.reduce((sum: number, item) => sum + blockTextLength(item), 0);
  if (typeof value !== 'object' || value === null) return 0;
  let sum = 0;
  for (const [key, field] of Object.entries(value)) {
    if (key === 'text' && typeof field === 'string') sum += field.length;
    else sum += blockTextLength(field);
  }
  return sum;
}

// What one character (a code point: one UTF-16 unit, or two for an emoji) costs once escaped
// for mrkdwn.
const escapedCost = (ch: string) => (ch === '&' ? 5 : ch === '<' || ch === '>' ? 4 : ch.length);

/**
 * Splits text into pieces of at most `max` UTF-16 units (counted once escaped with `escaped`),
 * each ending after a line break or a space where one is in the last third of the piece, and
 * never inside an emoji. Nothing is dropped: the pieces joined with '' give the text back.
 */
export function splitText(
  text: string,
  max: number,
  options: { escaped?: boolean } = {},
): string[] {
  const cost = options.escaped ? escapedCost : (ch: string) => ch.length;
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

// Room kept for the line that says how much of a person's words one message could not show.
const NOT_SHOWN_ROOM = 200;

/**
 * A person's words as quoted sections, split over as many as it takes so nothing is cut
 * (Slack allows 3,000 characters a section), within `maxSections` sections and `maxChars` of
 * block text (what one message can carry, `LIMITS.messageBlockText`, less the caller's other
 * blocks). Words past that are not shown, and a last section says how many characters that is,
 * so nothing is ever cut silently.
 */
export function quotedSections(
  text: string,
  maxSections: number,
  maxChars: number = LIMITS.messageBlockText,
): { type: 'section'; text: { type: 'mrkdwn'; text: string } }[] {
  const fence = '```';
  const room = LIMITS.sectionText - 2 * fence.length;
  const pieces = splitText(text.replaceAll(fence, "'''"), room, { escaped: true });
  const quoted = (piece: string) => `${fence}${escapeMrkdwn(piece)}${fence}`;
  const section = (mrkdwn: string) => ({ type: 'section' as const, text: md(mrkdwn) });
  const whole = pieces.reduce((sum, piece) => sum + quoted(piece).length, 0);
  if (pieces.length <= maxSections && whole <= maxChars) {
    return pieces.map((piece) => section(quoted(piece)));
  }
  const kept: string[] = [];
  let used = 0;
  for (const piece of pieces) {
    const next = quoted(piece);
    if (kept.length + 1 >= maxSections || used + next.length > maxChars - NOT_SHOWN_ROOM) break;
    kept.push(next);
    used += next.length;
  }
  const left = pieces.slice(kept.length).join('').length;
  return [
    ...kept.map(section),
    section(
      `_…and ${left.toLocaleString('en-US')} more characters, not shown: one Slack message holds about ${LIMITS.messageBlockText.toLocaleString('en-US')}._`,
    ),
  ];
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

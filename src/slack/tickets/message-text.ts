/**
 * Slack message text as plain text for the platform: Slack's `<...>` syntax becomes readable
 * words and its entities are decoded, so a ticket reads like what the person saw.
 */

/** Converts Slack message markup into plain text. */
export function slackToPlain(text: string): string {
  return text
    .replace(/<([^<>]+)>/g, (_m, inner: string) => {
      const [target = '', label] = inner.split('|', 2);
      if (target.startsWith('@')) return `@${label ?? target.slice(1)}`;
      if (target.startsWith('#')) return `#${label ?? target.slice(1)}`;
      if (target.startsWith('!subteam^')) return `@${label ?? 'group'}`;
      if (target.startsWith('!')) return `@${label ?? target.slice(1).split('^')[0]}`;
      return label && label !== target ? `${label} (${target})` : target;
    })
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** A ticket title from free text: its first non-empty line, cut at a word near `max`. */
export function titleFromText(text: string, max = 120): string {
  const line =
    text
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l.length > 0) ?? '';
  const chars = Array.from(line);
  if (chars.length <= max) return line;
  const cut = chars.slice(0, max - 1).join('');
  const space = cut.lastIndexOf(' ');
  return `${space > max / 2 ? cut.slice(0, space) : cut}…`;
}

/** A message written by a person, as the Events API delivers it. */
export interface PersonMessage {
  user: string;
  text?: string;
  ts: string;
  thread_ts?: string;
  channel: string;
  channel_type?: string;
  bot_id?: string;
  files?: { name?: string; title?: string; permalink?: string }[];
}

/** The reply's text as the ticket should read it, with any files listed by permalink. */
export function messageBody(message: PersonMessage): string {
  const text = slackToPlain(message.text ?? '').trim();
  const files = (message.files ?? [])
    .filter((f) => f.permalink)
    .map((f) => `- ${f.title ?? f.name ?? 'file'}: ${f.permalink}`);
  return [text, files.length > 0 ? `Files:\n${files.join('\n')}` : ''].filter(Boolean).join('\n\n');
}

/** The ticket a person's top-level message files (a DM to the app, a request channel's). */
export function ticketFieldsOf(message: PersonMessage): { title: string; description: string } {
  const text = slackToPlain(message.text ?? '').trim();
  return { title: titleFromText(text) || 'Request from Slack', description: messageBody(message) };
}

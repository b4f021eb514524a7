/**
 * The console language of `npm run slack-double`: one line, one thing a Slack user does.
 * Parsing is pure, so the grammar is tested without a terminal.
 */

/** A parsed console line. */
export type ConsoleCommand =
  | { kind: 'as'; user: string }
  | { kind: 'in'; channel: string }
  | { kind: 'slash'; command: string; text: string }
  | { kind: 'say'; text: string; threadTs?: string }
  | { kind: 'react'; ts: string; reaction: string }
  | { kind: 'shortcut'; ts: string }
  | { kind: 'new' }
  | { kind: 'submit'; values: Record<string, string> }
  | { kind: 'workflow'; inputs: Record<string, string> }
  | { kind: 'show' }
  | { kind: 'help' }
  | { kind: 'quit' }
  | { kind: 'invalid'; reason: string };

/** Help text of the console. */
export const CONSOLE_HELP = `Commands (you act as one user in one channel):
  as alice|bob|agent|U…         switch who you are
  in #it-help|#general|dm       switch where you are (dm: your DM with the app)
  /ticket …                     run the slash command
  say <text>                    post a message
  reply <ts> <text>             reply in the thread of message <ts>
  react <ts> [emoji]            react to message <ts> (default: ticket)
  shortcut <ts>                 "Create ticket" on message <ts>
  new                           the "New ticket" global shortcut
  submit title="…" [description="…"] [priority=high] [desk=it]
                                submit your open modal
  workflow title="…" [description="…"] [desk=it-hardware] [priority=high]
           [requester=U…] [custom_fields='{"device_type":"laptop"}']
                                run the app's Workflow Builder step as you
  show                          the channel's messages, with their ts
  help, quit`;

const FIELD_ACTIONS: Record<string, string> = {
  title: 'title_input',
  description: 'description_input',
  priority: 'priority_select',
  desk: 'desk_select',
  device: 'device_select',
};

/**
 * Splits `key=value` pairs; values may be double-quoted to hold spaces, or single-quoted to
 * hold JSON. Keys are the form's (`title` for `title_input`) unless `raw`.
 */
function parsePairs(text: string, raw = false): Record<string, string> | string {
  const values: Record<string, string> = {};
  const pattern = /\s*([a-z_]+)=(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+))/gy;
  let match: RegExpExecArray | null;
  let end = 0;
  for (;;) {
    match = pattern.exec(text);
    if (!match) break;
    const key = match[1] as string;
    const action = raw ? key : (FIELD_ACTIONS[key] ?? key);
    values[action] = match[3] ?? (match[2] ?? match[4] ?? '').replace(/\\"/g, '"');
    end = pattern.lastIndex;
  }
  if (text.slice(end).trim() !== '')
    return `cannot read "${text.slice(end).trim()}": write field="value"`;
  return values;
}

/** Parses one console line. */
export function parseConsoleLine(line: string): ConsoleCommand | undefined {
  const trimmed = line.trim();
  if (trimmed === '' || trimmed.startsWith('#!')) return undefined;
  if (trimmed.startsWith('/')) {
    const [command = ''] = trimmed.split(/\s+/);
    return { kind: 'slash', command, text: trimmed.slice(command.length).trim() };
  }
  const [word = '', ...rest] = trimmed.split(/\s+/);
  const tail = trimmed.slice(word.length).trim();
  switch (word.toLowerCase()) {
    case 'as':
      return rest[0]
        ? { kind: 'as', user: rest[0] }
        : { kind: 'invalid', reason: 'as whom? e.g. as bob' };
    case 'in':
      return rest[0]
        ? { kind: 'in', channel: rest[0] }
        : { kind: 'invalid', reason: 'in where? e.g. in #it-help' };
    case 'say':
      return tail ? { kind: 'say', text: tail } : { kind: 'invalid', reason: 'say what?' };
    case 'reply': {
      const [ts, ...words] = rest;
      return ts && words.length > 0
        ? { kind: 'say', threadTs: ts, text: tail.slice(ts.length).trim() }
        : { kind: 'invalid', reason: 'reply <ts> <text>' };
    }
    case 'react':
      return rest[0]
        ? { kind: 'react', ts: rest[0], reaction: (rest[1] ?? 'ticket').replace(/:/g, '') }
        : { kind: 'invalid', reason: 'react <ts> [emoji]' };
    case 'shortcut':
      return rest[0]
        ? { kind: 'shortcut', ts: rest[0] }
        : { kind: 'invalid', reason: 'shortcut <ts>' };
    case 'new':
      return { kind: 'new' };
    case 'submit': {
      const values = parsePairs(tail);
      return typeof values === 'string'
        ? { kind: 'invalid', reason: values }
        : { kind: 'submit', values };
    }
    case 'workflow': {
      const inputs = parsePairs(tail, true);
      return typeof inputs === 'string'
        ? { kind: 'invalid', reason: inputs }
        : { kind: 'workflow', inputs };
    }
    case 'show':
      return { kind: 'show' };
    case 'help':
    case '?':
      return { kind: 'help' };
    case 'quit':
    case 'exit':
      return { kind: 'quit' };
    default:
      return { kind: 'invalid', reason: `unknown command "${word}" (help lists them)` };
  }
}

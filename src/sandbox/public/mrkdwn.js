/**
 * Slack's mrkdwn, rendered safely. Every character of the text is shown as text; only Slack's
 * own syntax becomes structure: *bold*, _italic_, ~strike~, `code`, ```blocks```, > quotes,
 * <url|label> links (http, https and mailto only), <@U…> mentions shown as names, <#C…>
 * channels, <!here>-style broadcasts, <!date^…|fallback> dates, and :emoji: codes. Nothing here
 * builds markup from strings.
 */
import { h } from './dom.js';
import { withEmoji } from './emoji.js';
import { clockTime, clockTimeWithSeconds } from './time.js';

const PLACEHOLDER_BASE = 0xe000;
const PLACEHOLDERS = /[\ue000-\uf8ff]/g;
const FORMATTING = /(?<![\p{L}\p{N}*_~])([*_~])(?![\s*_~])([^\n]*?[^\s])\1(?![\p{L}\p{N}])/u;
const TAGS = { '*': 'strong', _: 'em', '~': 's' };

/** Undoes Slack's escaping of the three control characters. */
export function decodeEntities(text) {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

function safeHref(url) {
  try {
    const parsed = new URL(url);
    return ['http:', 'https:', 'mailto:'].includes(parsed.protocol) ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

const pad = (n) => String(n).padStart(2, '0');

function ordinal(day) {
  const rest = day % 100;
  if (rest >= 11 && rest <= 13) return `${day}th`;
  return `${day}${{ 1: 'st', 2: 'nd', 3: 'rd' }[day % 10] ?? 'th'}`;
}

function dayOffset(date, now) {
  const start = (d) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  return Math.round((start(date) - start(now)) / 86_400_000);
}

/** Slack's date tokens in the reader's own time zone, times on the page's one clock. */
function formatDate(date, format, now = new Date()) {
  const month = (style) => date.toLocaleString('en-US', { month: style });
  const weekday = date.toLocaleString('en-US', { weekday: 'long' });
  const plain = {
    date_num: `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`,
    date: `${month('long')} ${ordinal(date.getDate())}, ${date.getFullYear()}`,
    date_short: `${month('short')} ${date.getDate()}, ${date.getFullYear()}`,
    date_long: `${weekday}, ${month('long')} ${ordinal(date.getDate())}, ${date.getFullYear()}`,
    time: clockTime(date),
    time_secs: clockTimeWithSeconds(date),
  };
  const offset = dayOffset(date, now);
  const relative = { 0: 'today', [-1]: 'yesterday', 1: 'tomorrow' }[offset];
  const minutes = Math.round((now.getTime() - date.getTime()) / 60_000);
  const ago =
    Math.abs(minutes) < 60
      ? `${Math.abs(minutes)} minute${Math.abs(minutes) === 1 ? '' : 's'} ${minutes >= 0 ? 'ago' : 'from now'}`
      : plain.date_short;
  const tokens = {
    ...plain,
    date_pretty: relative ?? plain.date,
    date_short_pretty: relative ?? plain.date_short,
    date_long_pretty: relative ?? plain.date_long,
    ago,
  };
  return format.replace(/\{([a-z_]+)\}/g, (token, name) =>
    Object.hasOwn(tokens, name) ? tokens[name] : token,
  );
}

function entityNode(body, ctx) {
  const [target = '', ...labelParts] = body.split('|');
  const label = labelParts.length > 0 ? decodeEntities(labelParts.join('|')) : undefined;
  if (target.startsWith('@')) {
    const id = target.slice(1);
    return h('span', { className: 'mention' }, `@${ctx.userName(id) ?? label ?? id}`);
  }
  if (target.startsWith('#')) {
    const id = target.slice(1);
    return h('span', { className: 'mention' }, `#${ctx.channelName(id) ?? label ?? id}`);
  }
  if (target.startsWith('!')) {
    const [command = '', ...args] = target.slice(1).split('^');
    if (['here', 'channel', 'everyone'].includes(command)) {
      return h('span', { className: 'mention broadcast' }, `@${command}`);
    }
    if (command === 'subteam') {
      return h('span', { className: 'mention' }, label ?? '@group');
    }
    if (command === 'date') {
      const seconds = Number(args[0]);
      if (!Number.isFinite(seconds)) return document.createTextNode(label ?? '');
      const date = new Date(seconds * 1000);
      const text = formatDate(date, decodeEntities(args[1] ?? '{date_short} {time}'));
      return h('time', { datetime: date.toISOString(), title: label ?? date.toISOString() }, text);
    }
    return document.createTextNode(label ?? '');
  }
  const url = decodeEntities(target);
  const href = safeHref(url);
  const text = label ?? url;
  if (!href) return document.createTextNode(text);
  return h('a', { href, target: '_blank', rel: 'noopener noreferrer' }, text);
}

/** Text with placeholders for code and entities, expanded into nodes. */
function expand(text, tokens) {
  const nodes = [];
  let last = 0;
  for (const match of text.matchAll(PLACEHOLDERS)) {
    if (match.index > last) nodes.push(withEmoji(decodeEntities(text.slice(last, match.index))));
    const token = tokens[match[0].charCodeAt(0) - PLACEHOLDER_BASE];
    if (token) nodes.push(token);
    last = match.index + 1;
  }
  if (last < text.length) nodes.push(withEmoji(decodeEntities(text.slice(last))));
  return nodes;
}

function format(text, tokens, depth = 0) {
  const match = depth < 8 ? FORMATTING.exec(text) : null;
  if (!match) return expand(text, tokens);
  const tag = TAGS[match[1]];
  return [
    ...expand(text.slice(0, match.index), tokens),
    h(tag, {}, format(match[2], tokens, depth + 1)),
    ...format(text.slice(match.index + match[0].length), tokens, depth),
  ];
}

function inline(text, ctx) {
  const tokens = [];
  const placeholder = (node) => {
    tokens.push(node);
    return String.fromCharCode(PLACEHOLDER_BASE + tokens.length - 1);
  };
  const masked = text
    .replace(PLACEHOLDERS, '')
    .replace(/`([^`\n]+)`|<([^<>\n]+)>/g, (_match, code, entity) =>
      tokens.length >= 6000
        ? _match
        : placeholder(
            code !== undefined ? h('code', {}, decodeEntities(code)) : entityNode(entity, ctx),
          ),
    );
  return format(masked, tokens);
}

function paragraphs(text, ctx) {
  const nodes = [];
  const lines = text.split('\n');
  let quote = [];
  let plain = [];
  const flushPlain = () => {
    if (plain.length > 0) nodes.push(...inline(plain.join('\n'), ctx));
    plain = [];
  };
  const flushQuote = () => {
    if (quote.length > 0) nodes.push(h('blockquote', {}, inline(quote.join('\n'), ctx)));
    quote = [];
  };
  for (const line of lines) {
    const quoted = /^(?:&gt;|>)\s?(.*)$/.exec(line);
    if (quoted) {
      flushPlain();
      quote.push(quoted[1]);
    } else {
      flushQuote();
      plain.push(line);
    }
  }
  flushPlain();
  flushQuote();
  return nodes;
}

/**
 * Renders mrkdwn into a fragment. `ctx.userName(id)` and `ctx.channelName(id)` name mentions;
 * both may return undefined.
 */
export function renderMrkdwn(text, ctx) {
  const fragment = document.createDocumentFragment();
  const source = String(text ?? '');
  let last = 0;
  for (const match of source.matchAll(/```([\s\S]*?)```/g)) {
    fragment.append(...paragraphs(source.slice(last, match.index), ctx));
    fragment.append(h('pre', {}, decodeEntities(match[1].replace(/^\n/, ''))));
    last = match.index + match[0].length;
  }
  fragment.append(...paragraphs(source.slice(last), ctx));
  return fragment;
}

/** A text object (`plain_text` or `mrkdwn`) as nodes. */
export function renderText(textObject, ctx) {
  if (!textObject || typeof textObject.text !== 'string') return document.createTextNode('');
  if (textObject.type === 'mrkdwn') return renderMrkdwn(textObject.text, ctx);
  const text = textObject.emoji === false ? textObject.text : withEmoji(textObject.text);
  return document.createTextNode(text);
}

/** A text object's plain words (for labels and accessible names). */
export function plainText(textObject) {
  if (!textObject || typeof textObject.text !== 'string') return '';
  return textObject.type === 'mrkdwn'
    ? decodeEntities(textObject.text.replace(/<[^|>]*\|([^>]*)>/g, '$1').replace(/[*_~`]/g, ''))
    : withEmoji(textObject.text);
}

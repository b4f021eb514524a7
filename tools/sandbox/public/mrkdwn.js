// @ts-check
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
/** @type {Readonly<Record<string, 'strong' | 'em' | 's'>>} */
const TAGS = { '*': 'strong', _: 'em', '~': 's' };

/**
 * How mentions are named: a person's or a channel's name by id, undefined when unknown.
 * @typedef {object} NameContext
 * @property {(id: string | undefined) => string | undefined} userName
 * @property {(id: string | undefined) => string | undefined} channelName
 */

/**
 * A Block Kit text object (`plain_text` or `mrkdwn`), as far as the page reads it.
 * @typedef {{ type?: string, text: string, emoji?: boolean }} TextObject
 */

/**
 * Whether something the app sent is a text object with text (anything else reads as none).
 * @param {unknown} value
 * @returns {value is TextObject}
 */
function isTextObject(value) {
  return (
    typeof value === 'object' && value !== null && 'text' in value && typeof value.text === 'string'
  );
}

/**
 * Undoes Slack's escaping of the three control characters.
 * @param {string} text
 */
export function decodeEntities(text) {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** @param {string} url */
function safeHref(url) {
  try {
    const parsed = new URL(url);
    return ['http:', 'https:', 'mailto:'].includes(parsed.protocol) ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

/** @param {number} n */
const pad = (n) => String(n).padStart(2, '0');

/** @type {Readonly<Record<number, string>>} */
const ORDINAL_ENDINGS = { 1: 'st', 2: 'nd', 3: 'rd' };

/** @param {number} day */
function ordinal(day) {
  const rest = day % 100;
  if (rest >= 11 && rest <= 13) return `${day}th`;
  return `${day}${ORDINAL_ENDINGS[day % 10] ?? 'th'}`;
}

/**
 * @param {Date} date
 * @param {Date} now
 */
function dayOffset(date, now) {
  /** @param {Date} d */
  const start = (d) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  return Math.round((start(date) - start(now)) / 86_400_000);
}

/**
 * Slack's date tokens in the reader's own time zone, times on the page's one clock.
 * @param {Date} date
 * @param {string} format
 * @param {Date} [now]
 */
function formatDate(date, format, now = new Date()) {
  /** @param {'long' | 'short'} style */
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
  /** @type {Record<number, string>} */
  const relativeDays = { 0: 'today', [-1]: 'yesterday', 1: 'tomorrow' };
  const relative = relativeDays[offset];
  const minutes = Math.round((now.getTime() - date.getTime()) / 60_000);
  const ago =
    Math.abs(minutes) < 60
      ? `${Math.abs(minutes)} minute${Math.abs(minutes) === 1 ? '' : 's'} ${minutes >= 0 ? 'ago' : 'from now'}`
      : plain.date_short;
  /** @type {Record<string, string>} */
  const tokens = {
    ...plain,
    date_pretty: relative ?? plain.date,
    date_short_pretty: relative ?? plain.date_short,
    date_long_pretty: relative ?? plain.date_long,
    ago,
  };
  return format.replace(/\{([a-z_]+)\}/g, (token, /** @type {string} */ name) =>
    Object.hasOwn(tokens, name) ? (tokens[name] ?? token) : token,
  );
}

/**
 * @param {string} body
 * @param {NameContext} ctx
 * @returns {Node}
 */
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

/**
 * Text with placeholders for code and entities, expanded into nodes.
 * @param {string} text
 * @param {Node[]} tokens
 * @returns {(Node | string)[]}
 */
function expand(text, tokens) {
  /** @type {(Node | string)[]} */
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

/**
 * @param {string} text
 * @param {Node[]} tokens
 * @param {number} [depth]
 * @returns {(Node | string)[]}
 */
function format(text, tokens, depth = 0) {
  const match = depth < 8 ? FORMATTING.exec(text) : null;
  const tag = match ? TAGS[match[1] ?? ''] : undefined;
  if (!match || !tag) return expand(text, tokens);
  return [
    ...expand(text.slice(0, match.index), tokens),
    h(tag, {}, format(match[2] ?? '', tokens, depth + 1)),
    ...format(text.slice(match.index + match[0].length), tokens, depth),
  ];
}

/**
 * @param {string} text
 * @param {NameContext} ctx
 */
function inline(text, ctx) {
  /** @type {Node[]} */
  const tokens = [];
  /** @param {Node} node */
  const placeholder = (node) => {
    tokens.push(node);
    return String.fromCharCode(PLACEHOLDER_BASE + tokens.length - 1);
  };
  const masked = text
    .replace(PLACEHOLDERS, '')
    .replace(
      /`([^`\n]+)`|<([^<>\n]+)>/g,
      (
        /** @type {string} */ _match,
        /** @type {string | undefined} */ code,
        /** @type {string} */ entity,
      ) =>
        tokens.length >= 6000
          ? _match
          : placeholder(
              code !== undefined ? h('code', {}, decodeEntities(code)) : entityNode(entity, ctx),
            ),
    );
  return format(masked, tokens);
}

/**
 * @param {string} text
 * @param {NameContext} ctx
 */
function paragraphs(text, ctx) {
  /** @type {(Node | string)[]} */
  const nodes = [];
  const lines = text.split('\n');
  /** @type {string[]} */
  let quote = [];
  /** @type {string[]} */
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
      quote.push(quoted[1] ?? '');
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
 * @param {unknown} text
 * @param {NameContext} ctx
 */
export function renderMrkdwn(text, ctx) {
  const fragment = document.createDocumentFragment();
  const source = String(text ?? '');
  let last = 0;
  for (const match of source.matchAll(/```([\s\S]*?)```/g)) {
    fragment.append(...paragraphs(source.slice(last, match.index), ctx));
    fragment.append(h('pre', {}, decodeEntities((match[1] ?? '').replace(/^\n/, ''))));
    last = match.index + match[0].length;
  }
  fragment.append(...paragraphs(source.slice(last), ctx));
  return fragment;
}

/**
 * A text object (`plain_text` or `mrkdwn`) as nodes.
 * @param {unknown} textObject
 * @param {NameContext} ctx
 * @returns {Node}
 */
export function renderText(textObject, ctx) {
  if (!isTextObject(textObject)) return document.createTextNode('');
  if (textObject.type === 'mrkdwn') return renderMrkdwn(textObject.text, ctx);
  const text = textObject.emoji === false ? textObject.text : withEmoji(textObject.text);
  return document.createTextNode(text);
}

/**
 * A text object's plain words (for labels and accessible names).
 * @param {unknown} textObject
 */
export function plainText(textObject) {
  if (!isTextObject(textObject)) return '';
  return textObject.type === 'mrkdwn'
    ? decodeEntities(textObject.text.replace(/<[^|>]*\|([^>]*)>/g, '$1').replace(/[*_~`]/g, ''))
    : withEmoji(textObject.text);
}

// @ts-check
/**
 * Block Kit's rich_text blocks: sections, preformatted text, quotes and lists, made of runs of
 * text, links, mentions, broadcasts and emoji, each with its style.
 */
import { h } from './dom.js';
import { emojiChar } from './emoji.js';

/** @import { Block } from './block-kit.js' */
/** @import { NameContext } from './mrkdwn.js' */

/**
 * A piece of a rich_text block: a section, preformatted text or a quote (runs of text), or a
 * list (sections, each runs of text).
 * @typedef {{ type: string, style?: string, elements?: unknown[] }} RichTextPart
 */

/**
 * One run of rich text: text, a link, a mention, an emoji, with its style.
 * @typedef {object} RichTextInline
 * @property {string} type
 * @property {string} [text]
 * @property {string} [url]
 * @property {string} [user_id]
 * @property {string} [channel_id]
 * @property {string} [range]
 * @property {string} [name]
 * @property {{ code?: boolean, bold?: boolean, italic?: boolean, strike?: boolean }} [style]
 */

/**
 * @param {RichTextInline[] | undefined} elements
 * @param {NameContext} ctx
 */
function richTextInline(elements, ctx) {
  return (elements ?? []).map((item) => {
    /** @type {Node} */
    let node;
    switch (item.type) {
      case 'text':
        node = document.createTextNode(item.text ?? '');
        break;
      case 'link': {
        const href = /^(https?:|mailto:)/.test(item.url ?? '') ? item.url : undefined;
        node = href
          ? h('a', { href, target: '_blank', rel: 'noopener noreferrer' }, item.text || item.url)
          : document.createTextNode(item.text || item.url || '');
        break;
      }
      case 'user':
        node = h(
          'span',
          { className: 'mention' },
          `@${ctx.userName(item.user_id) ?? item.user_id}`,
        );
        break;
      case 'channel':
        node = h(
          'span',
          { className: 'mention' },
          `#${ctx.channelName(item.channel_id) ?? item.channel_id}`,
        );
        break;
      case 'usergroup':
        node = h('span', { className: 'mention' }, '@group');
        break;
      case 'broadcast':
        node = h('span', { className: 'mention broadcast' }, `@${item.range}`);
        break;
      case 'emoji':
        node = document.createTextNode(emojiChar(item.name ?? '') ?? `:${item.name}:`);
        break;
      default:
        node = document.createTextNode(item.text ?? '');
    }
    const style = item.style ?? {};
    if (style.code) node = h('code', {}, node);
    if (style.bold) node = h('strong', {}, node);
    if (style.italic) node = h('em', {}, node);
    if (style.strike) node = h('s', {}, node);
    return node;
  });
}

/**
 * A section's, preformatted text's or quote's runs of text.
 * @param {RichTextPart} part
 */
const runs = (part) => /** @type {RichTextInline[] | undefined} */ (part.elements);

/**
 * A list's sections.
 * @param {RichTextPart} part
 */
const sections = (part) => /** @type {RichTextPart[]} */ (part.elements ?? []);

/**
 * A rich_text block as a node.
 * @param {Block} block
 * @param {NameContext} ctx
 */
export function richText(block, ctx) {
  const parts = /** @type {RichTextPart[]} */ (block.elements ?? []);
  return h(
    'div',
    { className: 'bk-rich-text' },
    parts.map((part) => {
      switch (part.type) {
        case 'rich_text_section':
          return h('span', {}, richTextInline(runs(part), ctx));
        case 'rich_text_preformatted':
          return h('pre', {}, richTextInline(runs(part), ctx));
        case 'rich_text_quote':
          return h('blockquote', {}, richTextInline(runs(part), ctx));
        case 'rich_text_list':
          return h(
            part.style === 'ordered' ? 'ol' : 'ul',
            {},
            sections(part).map((item) => h('li', {}, richTextInline(runs(item), ctx))),
          );
        default:
          return null;
      }
    }),
  );
}

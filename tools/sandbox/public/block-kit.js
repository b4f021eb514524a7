// @ts-check
/**
 * Block Kit, rendered from whatever the app sends: header, section (text, fields, accessory),
 * context, divider, actions, input, image, rich_text, and the elements in them (buttons,
 * selects, users_select, overflow menus, text inputs, date pickers, checkboxes, radio
 * buttons). Interactive elements are real form controls and buttons; acting on one calls
 * `ctx.onAction`, which sends Slack's block_actions to the app. A block type the simulator
 * does not know is named, never dropped silently. The form controls are block-kit-fields.js's,
 * rich text block-kit-rich-text.js's.
 */
import { control, keyOf } from './block-kit-fields.js';
import { richText } from './block-kit-rich-text.js';
import { h, menuKeys, uid } from './dom.js';
import { plainText, renderMrkdwn, renderText } from './mrkdwn.js';

/** @import { Field, FieldValue, Option } from './block-kit-fields.js' */
/** @import { NameContext } from './mrkdwn.js' */

// What the app sends is read as these shapes. The Slack double gives every block a `block_id`
// and every element an `action_id`, as Slack does; any other field may be missing.

/**
 * A confirmation dialog an element asks for before it acts.
 * @typedef {object} ConfirmDialog
 * @property {unknown} [title]
 * @property {{ text?: string }} [text]
 * @property {unknown} [confirm]
 * @property {unknown} [deny]
 * @property {string} [style]
 */

/**
 * A Block Kit element (button, select, input, picker...), as far as the page reads it.
 * @typedef {object} Element
 * @property {string} type
 * @property {string} action_id
 * @property {unknown} [text]
 * @property {unknown} [placeholder]
 * @property {string} [value]
 * @property {string} [url]
 * @property {string} [style]
 * @property {string} [accessibility_label]
 * @property {ConfirmDialog} [confirm]
 * @property {string} [alt_text]
 * @property {Option[]} [options]
 * @property {{ label?: unknown, options?: Option[] }[]} [option_groups]
 * @property {Option} [initial_option]
 * @property {Option[]} [initial_options]
 * @property {string} [initial_user]
 * @property {string[]} [initial_users]
 * @property {string} [initial_conversation]
 * @property {string} [initial_channel]
 * @property {string} [initial_date]
 * @property {string} [initial_time]
 * @property {unknown} [initial_value]
 * @property {boolean} [multiline]
 * @property {number} [max_length]
 * @property {number} [min_length]
 * @property {boolean} [is_decimal_allowed]
 * @property {number} [min_query_length]
 */

/**
 * A block, as far as the page reads it; `elements` depends on the type (an actions block's
 * elements, a context block's texts and images, a rich_text block's parts).
 * @typedef {object} Block
 * @property {string} type
 * @property {string} block_id
 * @property {unknown} [text]
 * @property {unknown[]} [fields]
 * @property {unknown} [accessory]
 * @property {unknown[]} [elements]
 * @property {Element} [element]
 * @property {unknown} [label]
 * @property {unknown} [hint]
 * @property {boolean} [optional]
 * @property {boolean} [dispatch_action]
 * @property {string} [alt_text]
 * @property {unknown} [title]
 */

/**
 * A legacy attachment.
 * @typedef {object} Attachment
 * @property {string} [color]
 * @property {string} [pretext]
 * @property {string} [title]
 * @property {string} [text]
 * @property {{ title?: string, value?: string }[]} [fields]
 * @property {unknown[]} [blocks]
 */

/**
 * Acting on an element: what Slack's block_actions carries for it.
 * @typedef {{ actionId: string, blockId: string, value?: FieldValue }} BlockAction
 */

/**
 * What blocks are drawn with: names, the people and channels selects offer, the confirmation
 * dialog, where fields are registered, block errors to show, a key prefix that makes `data-key`s
 * page-unique, and what acting on an element does.
 * @typedef {object} BlockContextExtra
 * @property {{ id: string, realName: string, isBot: boolean, elsewhere?: true }[]} people
 * @property {{ id: string, name: string }[]} [channels]
 * @property {(confirm: ConfirmDialog) => Promise<boolean>} confirm
 * @property {Map<string, Field>} [fields]
 * @property {Record<string, string>} [errors]
 * @property {string} [keyPrefix]
 * @property {(action: BlockAction) => unknown} onAction
 * @property {(query: { actionId: string, blockId: string, value: string }) => Promise<Option[] | null>} [suggest]
 *   Asks the app for an external select's options (block_suggestion); null when none came.
 * @property {Map<string, Option[]>} [suggested] The options the app last answered, by field key.
 * @typedef {NameContext & BlockContextExtra} BlockContext
 */

/**
 * @param {Element} element
 * @param {string} blockId
 * @param {BlockContext} ctx
 */
function button(element, blockId, ctx) {
  const style = element.style === 'primary' || element.style === 'danger' ? element.style : '';
  const label = plainText(element.text);
  const el = h(
    'button',
    {
      type: 'button',
      className: `bk-button ${style}`.trim(),
      'aria-label': element.accessibility_label || undefined,
      dataset: { key: keyOf(ctx, blockId, element.action_id), actionId: element.action_id },
      onclick: async () => {
        if (element.confirm && !(await ctx.confirm(element.confirm))) return;
        if (typeof element.url === 'string' && /^https?:\/\//.test(element.url)) {
          window.open(element.url, '_blank', 'noopener,noreferrer');
        }
        el.disabled = true;
        try {
          await ctx.onAction({ actionId: element.action_id, blockId, value: element.value });
        } finally {
          el.disabled = false;
        }
      },
    },
    label,
  );
  return el;
}

/**
 * @param {Element} element
 * @param {string} blockId
 * @param {BlockContext} ctx
 */
function overflow(element, blockId, ctx) {
  const menuId = uid('menu');
  const trigger = h(
    'button',
    {
      type: 'button',
      className: 'bk-overflow',
      'aria-haspopup': 'menu',
      'aria-expanded': 'false',
      'aria-controls': menuId,
      'aria-label': 'More options',
      dataset: { key: keyOf(ctx, blockId, element.action_id) },
    },
    '⋯',
  );
  const menu = h('div', { className: 'menu', role: 'menu', id: menuId, hidden: true });
  /** @param {boolean} refocus */
  const close = (refocus) => {
    menu.hidden = true;
    trigger.setAttribute('aria-expanded', 'false');
    if (refocus) trigger.focus();
  };
  for (const option of element.options ?? []) {
    menu.append(
      h(
        'button',
        {
          type: 'button',
          role: 'menuitem',
          tabindex: '-1',
          onclick: async () => {
            close(true);
            if (typeof option.url === 'string' && /^https?:\/\//.test(option.url)) {
              window.open(option.url, '_blank', 'noopener,noreferrer');
            }
            await ctx.onAction({ actionId: element.action_id, blockId, value: option.value });
          },
        },
        plainText(option.text),
      ),
    );
  }
  menuKeys(menu, close);
  trigger.addEventListener('click', () => {
    const open = menu.hidden;
    menu.hidden = !open;
    trigger.setAttribute('aria-expanded', String(open));
    if (open) /** @type {HTMLElement | null} */ (menu.querySelector('[role="menuitem"]'))?.focus();
  });
  return h('span', { className: 'menu-anchor' }, trigger, menu);
}

/**
 * An element outside an input block: acting on it sends block_actions at once.
 * @param {unknown} value
 * @param {string} blockId
 * @param {BlockContext} ctx
 * @param {string} [label]
 */
function interactive(value, blockId, ctx, label) {
  if (!value || typeof value !== 'object') return null;
  const element = /** @type {Element} */ (value);
  if (element.type === 'button') return button(element, blockId, ctx);
  if (element.type === 'overflow') return overflow(element, blockId, ctx);
  if (element.type === 'image') {
    return h(
      'span',
      { className: 'bk-image', role: 'img', 'aria-label': element.alt_text ?? '' },
      '🖼',
    );
  }
  const { el } = control(element, blockId, ctx, {
    label,
    onChange: (value) => ctx.onAction({ actionId: element.action_id, blockId, value }),
  });
  // An external select is a search box and a select: the select is the one named.
  const named = el.classList.contains('bk-external') ? el.querySelector('select') : el;
  if (named && (named.tagName === 'SELECT' || named.tagName === 'INPUT')) {
    named.setAttribute('aria-label', label || plainText(element.placeholder) || 'Choose');
  }
  return el;
}

/**
 * @param {Block} block
 * @param {BlockContext} ctx
 */
function inputBlock(block, ctx) {
  const element = block.element ?? /** @type {Element} */ ({});
  const labelId = uid('label');
  const hintId = block.hint ? uid('hint') : undefined;
  const error = ctx.errors?.[block.block_id];
  const errorId = error ? uid('error') : undefined;
  const { el, id } = control(element, block.block_id, ctx, {
    required: block.optional !== true,
    inInput: true,
    error,
    describedBy: [hintId, errorId].filter(Boolean).join(' '),
    dispatch: block.dispatch_action === true,
    label: plainText(block.label),
    onChange:
      block.dispatch_action === true
        ? (value) => ctx.onAction({ actionId: element.action_id, blockId: block.block_id, value })
        : undefined,
  });
  const isGroup = el.tagName === 'FIELDSET';
  const labelText = plainText(block.label);
  const label = isGroup
    ? h('legend', { id: labelId }, labelText)
    : h('label', { id: labelId, for: id }, labelText);
  if (block.optional === true) label.append(h('span', { className: 'optional' }, ' (optional)'));
  if (isGroup) el.prepend(label);
  return h(
    'div',
    { className: `bk-input${error ? ' has-error' : ''}`, dataset: { blockId: block.block_id } },
    isGroup ? null : label,
    el,
    block.hint ? h('p', { className: 'hint', id: hintId }, renderText(block.hint, ctx)) : null,
    error ? h('p', { className: 'field-error', id: errorId }, error) : null,
  );
}

/**
 * @param {Block} block
 * @param {BlockContext} ctx
 */
function section(block, ctx) {
  const accessory = block.accessory
    ? interactive(block.accessory, block.block_id, ctx, plainText(block.text))
    : null;
  return h(
    'div',
    { className: `bk-section${accessory ? ' with-accessory' : ''}` },
    h(
      'div',
      { className: 'bk-section-body' },
      block.text ? h('div', { className: 'bk-text' }, renderText(block.text, ctx)) : null,
      block.fields
        ? h(
            'div',
            { className: 'bk-fields' },
            block.fields.map((field) =>
              h('div', { className: 'bk-field' }, renderText(field, ctx)),
            ),
          )
        : null,
    ),
    accessory ? h('div', { className: 'bk-accessory' }, accessory) : null,
  );
}

/**
 * @param {Block} block
 * @param {BlockContext} ctx
 */
function contextBlock(block, ctx) {
  const elements = /** @type {{ type?: string, alt_text?: string }[]} */ (block.elements ?? []);
  return h(
    'div',
    { className: 'bk-context' },
    elements.map((element) =>
      element.type === 'image'
        ? h(
            'span',
            { className: 'bk-image', role: 'img', 'aria-label': element.alt_text ?? '' },
            '🖼',
          )
        : h('span', {}, renderText(element, ctx)),
    ),
  );
}

/**
 * One block as a node.
 * @param {unknown} value
 * @param {BlockContext} ctx
 */
export function renderBlock(value, ctx) {
  if (!value || typeof value !== 'object') return null;
  const block = /** @type {Block} */ (value);
  switch (block.type) {
    case 'header':
      return h(
        'div',
        { className: 'bk-header', role: 'heading', 'aria-level': '3' },
        renderText(block.text, ctx),
      );
    case 'section':
      return section(block, ctx);
    case 'context':
      return contextBlock(block, ctx);
    case 'divider':
      return h('hr', { className: 'bk-divider' });
    case 'actions':
      return h(
        'div',
        { className: 'bk-actions', role: 'group', 'aria-label': 'Actions' },
        (block.elements ?? []).map((element) => interactive(element, block.block_id, ctx)),
      );
    case 'input':
      return inputBlock(block, ctx);
    case 'image':
      return h(
        'figure',
        { className: 'bk-image-block' },
        h('span', { role: 'img', 'aria-label': block.alt_text ?? '' }, '🖼 '),
        h('figcaption', {}, plainText(block.title) || block.alt_text || ''),
      );
    case 'rich_text':
      return richText(block, ctx);
    default:
      return h(
        'p',
        { className: 'bk-unsupported' },
        `A ${String(block.type)} block (not shown in the simulator).`,
      );
  }
}

/**
 * Blocks as nodes.
 * @param {unknown[] | undefined} blocks
 * @param {BlockContext} ctx
 */
export function renderBlocks(blocks, ctx) {
  return (blocks ?? []).map((block) => renderBlock(block, ctx));
}

/**
 * A legacy attachment: colour bar, pretext, title, text, fields, and any blocks.
 * @param {unknown} value
 * @param {BlockContext} ctx
 */
export function renderAttachment(value, ctx) {
  const attachment = /** @type {Attachment} */ (value);
  const color = /^#?[0-9a-f]{3,6}$/i.test(attachment.color ?? '')
    ? `#${(attachment.color ?? '').replace('#', '')}`
    : undefined;
  /** @param {string} text */
  const md = (text) => h('div', { className: 'bk-text' }, renderMrkdwn(text, ctx));
  const body = h(
    'div',
    { className: 'attachment' },
    attachment.title ? h('strong', {}, attachment.title) : null,
    attachment.text ? md(attachment.text) : null,
    (attachment.fields ?? []).map((field) =>
      h(
        'div',
        { className: 'bk-field' },
        h('strong', {}, field.title ?? ''),
        md(field.value ?? ''),
      ),
    ),
    renderBlocks(attachment.blocks, ctx),
  );
  if (color) body.style.borderLeftColor = color;
  return h(
    'div',
    { className: 'attachment-wrap' },
    attachment.pretext ? md(attachment.pretext) : null,
    body,
  );
}

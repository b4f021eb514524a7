/**
 * Block Kit, rendered from whatever the app sends: header, section (text, fields, accessory),
 * context, divider, actions, input, image, rich_text, and the elements in them (buttons,
 * selects, users_select, overflow menus, text inputs, date pickers, checkboxes, radio
 * buttons). Interactive elements are real form controls and buttons; acting on one calls
 * `ctx.onAction`, which sends Slack's block_actions to the app. A block type the simulator
 * does not know is named, never dropped silently.
 */
import { h, menuKeys, uid } from './dom.js';
import { emojiChar } from './emoji.js';
import { plainText, renderMrkdwn, renderText } from './mrkdwn.js';

const REQUIRED = 'Please complete this required field.';

/** The key under which a field's value is kept across re-renders (`block_id/action_id`). */
export function fieldKey(blockId, actionId) {
  return `${blockId}/${actionId}`;
}

function keyOf(ctx, blockId, actionId) {
  return `${ctx.keyPrefix ?? ''}${fieldKey(blockId, actionId)}`;
}

function peopleOptions(ctx) {
  return ctx.people.filter((person) => !person.isBot);
}

function selectOptions(element, ctx, placeholder) {
  const type = element.type;
  const nodes = [];
  if (!type.startsWith('multi_')) {
    nodes.push(h('option', { value: '' }, placeholder || 'Select an option'));
  }
  if (type.includes('users_select')) {
    for (const person of peopleOptions(ctx)) {
      nodes.push(h('option', { value: person.id }, person.realName));
    }
    return nodes;
  }
  if (type.includes('conversations_select') || type.includes('channels_select')) {
    for (const channel of ctx.channels ?? []) {
      nodes.push(h('option', { value: channel.id }, `#${channel.name}`));
    }
    return nodes;
  }
  if (element.option_groups) {
    for (const group of element.option_groups) {
      nodes.push(
        h(
          'optgroup',
          { label: plainText(group.label) },
          (group.options ?? []).map((o) => h('option', { value: o.value }, plainText(o.text))),
        ),
      );
    }
    return nodes;
  }
  for (const option of element.options ?? []) {
    nodes.push(h('option', { value: option.value }, plainText(option.text)));
  }
  return nodes;
}

function initialOf(element) {
  switch (element.type) {
    case 'static_select':
    case 'external_select':
    case 'radio_buttons':
      return element.initial_option?.value ?? '';
    case 'multi_static_select':
    case 'multi_external_select':
    case 'checkboxes':
      return (element.initial_options ?? []).map((o) => o.value);
    case 'users_select':
      return element.initial_user ?? '';
    case 'multi_users_select':
      return element.initial_users ?? [];
    case 'conversations_select':
      return element.initial_conversation ?? '';
    case 'channels_select':
      return element.initial_channel ?? '';
    case 'datepicker':
      return element.initial_date ?? '';
    case 'timepicker':
      return element.initial_time ?? '';
    default:
      return typeof element.initial_value === 'string' ? element.initial_value : '';
  }
}

/**
 * A form control for a stateful element, registered in `ctx.fields` so the modal can read,
 * validate and restore it. `onChange` fires for elements that dispatch actions.
 */
function control(element, blockId, ctx, options) {
  const actionId = element.action_id;
  const id = uid('field');
  const key = keyOf(ctx, blockId, actionId);
  const placeholder = plainText(element.placeholder);
  const describedBy = options.describedBy || undefined;
  const common = {
    id,
    className: 'bk-control',
    'aria-describedby': describedBy,
    'aria-invalid': options.error ? 'true' : undefined,
    dataset: { key, blockId, actionId },
  };
  let el;
  let read;
  let write;
  const type = element.type;
  if (
    type === 'plain_text_input' ||
    type === 'email_text_input' ||
    type === 'url_text_input' ||
    type === 'number_input'
  ) {
    const inputType =
      { email_text_input: 'email', url_text_input: 'url', number_input: 'text' }[type] ?? 'text';
    const attrs = {
      ...common,
      placeholder: placeholder || undefined,
      maxlength: element.max_length,
      minlength: element.min_length,
      inputmode:
        type === 'number_input' ? (element.is_decimal_allowed ? 'decimal' : 'numeric') : undefined,
    };
    el = element.multiline
      ? h('textarea', { ...attrs, rows: 4 })
      : h('input', { ...attrs, type: inputType });
    el.value = initialOf(element);
    read = () => (el.value === '' ? null : el.value);
    write = (value) => {
      el.value = value ?? '';
    };
    if (options.dispatch && !element.multiline) {
      el.addEventListener('keydown', (event) => {
        if (event.key === 'Enter') {
          event.preventDefault();
          options.onChange?.(read());
        }
      });
    }
  } else if (type.endsWith('_select')) {
    const multiple = type.startsWith('multi_');
    el = h('select', { ...common, multiple }, selectOptions(element, ctx, placeholder));
    const initial = initialOf(element);
    write = (value) => {
      const wanted = new Set([value ?? []].flat().map(String));
      for (const option of el.options) option.selected = wanted.has(option.value);
      if (!multiple && wanted.size === 0) el.value = '';
    };
    write(initial);
    read = () =>
      multiple ? [...el.selectedOptions].map((o) => o.value) : el.value === '' ? null : el.value;
    el.addEventListener('change', () => options.onChange?.(read()));
  } else if (type === 'datepicker' || type === 'timepicker') {
    el = h('input', { ...common, type: type === 'datepicker' ? 'date' : 'time' });
    el.value = initialOf(element);
    read = () => (el.value === '' ? null : el.value);
    write = (value) => {
      el.value = value ?? '';
    };
    el.addEventListener('change', () => options.onChange?.(read()));
  } else if (type === 'checkboxes' || type === 'radio_buttons') {
    const inputType = type === 'checkboxes' ? 'checkbox' : 'radio';
    const name = uid('choice');
    const boxes = (element.options ?? []).map((option) =>
      h(
        'label',
        { className: 'choice' },
        h('input', { type: inputType, name, value: option.value }),
        ' ',
        renderText(option.text, ctx),
      ),
    );
    el = h('fieldset', { ...common, className: 'choices' }, boxes);
    const inputs = () => [...el.querySelectorAll('input')];
    read = () => {
      const chosen = inputs()
        .filter((i) => i.checked)
        .map((i) => i.value);
      return inputType === 'checkbox' ? chosen : (chosen[0] ?? null);
    };
    write = (value) => {
      const wanted = new Set([value ?? []].flat().map(String));
      for (const input of inputs()) input.checked = wanted.has(input.value);
    };
    write(initialOf(element));
    el.addEventListener('change', () => options.onChange?.(read()));
  } else {
    el = h(
      'p',
      { className: 'bk-unsupported' },
      `This ${type} element is not shown in the simulator.`,
    );
    read = () => null;
    write = () => undefined;
  }
  ctx.fields?.set(fieldKey(blockId, actionId), {
    blockId,
    actionId,
    type,
    el,
    read,
    write,
    required: options.required ?? false,
    inInput: options.inInput ?? false,
  });
  return { el, id };
}

function isEmpty(value) {
  return value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

/** Checks required inputs as Slack's client does before it submits; returns block errors. */
export function requiredErrors(fields) {
  const errors = {};
  for (const field of fields.values()) {
    if (field.inInput && field.required && isEmpty(field.read())) errors[field.blockId] = REQUIRED;
  }
  return errors;
}

/** The current values of the registered fields, as the sandbox's actions expect them. */
export function fieldValues(fields) {
  return [...fields.values()]
    .filter((field) => field.type !== 'button')
    .map((field) => ({ blockId: field.blockId, actionId: field.actionId, value: field.read() }));
}

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
    if (open) menu.querySelector('[role="menuitem"]')?.focus();
  });
  return h('span', { className: 'menu-anchor' }, trigger, menu);
}

/** An element outside an input block: acting on it sends block_actions at once. */
function interactive(element, blockId, ctx, label) {
  if (!element || typeof element !== 'object') return null;
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
    onChange: (value) => ctx.onAction({ actionId: element.action_id, blockId, value }),
  });
  if (el.tagName === 'SELECT' || el.tagName === 'INPUT') {
    el.setAttribute('aria-label', label || plainText(element.placeholder) || 'Choose');
  }
  return el;
}

function richTextInline(elements, ctx) {
  return (elements ?? []).map((item) => {
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
        node = document.createTextNode(emojiChar(item.name) ?? `:${item.name}:`);
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

function richText(block, ctx) {
  return h(
    'div',
    { className: 'bk-rich-text' },
    (block.elements ?? []).map((part) => {
      switch (part.type) {
        case 'rich_text_section':
          return h('span', {}, richTextInline(part.elements, ctx));
        case 'rich_text_preformatted':
          return h('pre', {}, richTextInline(part.elements, ctx));
        case 'rich_text_quote':
          return h('blockquote', {}, richTextInline(part.elements, ctx));
        case 'rich_text_list':
          return h(
            part.style === 'ordered' ? 'ol' : 'ul',
            {},
            (part.elements ?? []).map((item) => h('li', {}, richTextInline(item.elements, ctx))),
          );
        default:
          return null;
      }
    }),
  );
}

function inputBlock(block, ctx) {
  const element = block.element ?? {};
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

function contextBlock(block, ctx) {
  return h(
    'div',
    { className: 'bk-context' },
    (block.elements ?? []).map((element) =>
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

/** One block as a node. */
export function renderBlock(block, ctx) {
  if (!block || typeof block !== 'object') return null;
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

/** Blocks as nodes. */
export function renderBlocks(blocks, ctx) {
  return (blocks ?? []).map((block) => renderBlock(block, ctx));
}

/** A legacy attachment: colour bar, pretext, title, text, fields, and any blocks. */
export function renderAttachment(attachment, ctx) {
  const color = /^#?[0-9a-f]{3,6}$/i.test(attachment.color ?? '')
    ? `#${attachment.color.replace('#', '')}`
    : undefined;
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

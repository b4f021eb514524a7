// @ts-check
/**
 * Block Kit's stateful elements as form controls (text inputs, selects, date and time pickers,
 * checkboxes, radio buttons), registered by `block_id/action_id` so a modal or App Home can
 * read them, check required inputs as Slack's client does, and restore what was typed when a
 * view is drawn again. An external select asks the app for its options as the person types
 * (Slack's block_suggestion), through the context's `suggest`.
 */
import { h, uid } from './dom.js';
import { plainText, renderText } from './mrkdwn.js';

/** @import { BlockContext, Element } from './block-kit.js' */

/**
 * An option of a select, an overflow menu, checkboxes or radio buttons.
 * @typedef {{ text?: unknown, value: string, url?: string }} Option
 */

/**
 * A field's value: text, chosen values, or null when empty.
 * @typedef {string | string[] | null} FieldValue
 */

/**
 * A form control drawn for a stateful element, read and restored by its key.
 * @typedef {object} Field
 * @property {string} blockId
 * @property {string} actionId
 * @property {string} type
 * @property {HTMLElement} el
 * @property {() => FieldValue} read
 * @property {(value: FieldValue) => void} write
 * @property {boolean} required
 * @property {boolean} inInput
 */

const REQUIRED = 'Please complete this required field.';

// Slack's default `min_query_length` of an external select, and its wait between keystrokes.
const MIN_QUERY_LENGTH = 3;
const SEARCH_PAUSE_MS = 250;

/** @type {Readonly<Record<string, string>>} */
const INPUT_TYPES = { email_text_input: 'email', url_text_input: 'url', number_input: 'text' };

/**
 * The key under which a field's value is kept across re-renders (`block_id/action_id`).
 * @param {string} blockId
 * @param {string} actionId
 */
export function fieldKey(blockId, actionId) {
  return `${blockId}/${actionId}`;
}

/**
 * A control's `data-key`: its field key, made page-unique by the context's prefix.
 * @param {BlockContext} ctx
 * @param {string} blockId
 * @param {string} actionId
 */
export function keyOf(ctx, blockId, actionId) {
  return `${ctx.keyPrefix ?? ''}${fieldKey(blockId, actionId)}`;
}

/** @param {BlockContext} ctx */
function peopleOptions(ctx) {
  return ctx.people.filter((person) => !person.isBot && !person.elsewhere);
}

/**
 * @param {Element} element
 * @param {BlockContext} ctx
 * @param {string} placeholder
 */
function selectOptions(element, ctx, placeholder) {
  const type = element.type;
  /** @type {HTMLElement[]} */
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

/**
 * @param {Element} element
 * @returns {FieldValue}
 */
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
 * How a control is drawn: whether it is required and inside an input block, the error shown
 * with it, the ids that describe it, whether Enter dispatches (an input that dispatches
 * actions), and what a change does.
 * @typedef {object} ControlOptions
 * @property {boolean} [required]
 * @property {boolean} [inInput]
 * @property {string} [error]
 * @property {string} [describedBy]
 * @property {boolean} [dispatch]
 * @property {(value: FieldValue) => void} [onChange]
 * @property {string} [label] The field's name (an external select names its search box by it).
 */

/**
 * A form control for a stateful element, registered in `ctx.fields` so the modal can read,
 * validate and restore it. `onChange` fires for elements that dispatch actions.
 * @param {Element} element
 * @param {string} blockId
 * @param {BlockContext} ctx
 * @param {ControlOptions} options
 * @returns {{ el: HTMLElement, id: string }}
 */
export function control(element, blockId, ctx, options) {
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
  /** @type {HTMLElement} */
  let el;
  /** @type {() => FieldValue} */
  let read;
  /** @type {(value: FieldValue) => void} */
  let write;
  const type = element.type;
  if (
    type === 'plain_text_input' ||
    type === 'email_text_input' ||
    type === 'url_text_input' ||
    type === 'number_input'
  ) {
    const inputType = INPUT_TYPES[type] ?? 'text';
    const attrs = {
      ...common,
      placeholder: placeholder || undefined,
      maxlength: element.max_length,
      minlength: element.min_length,
      inputmode:
        type === 'number_input' ? (element.is_decimal_allowed ? 'decimal' : 'numeric') : undefined,
    };
    const input = element.multiline
      ? h('textarea', { ...attrs, rows: 4 })
      : h('input', { ...attrs, type: inputType });
    el = input;
    input.value = String(initialOf(element));
    read = () => (input.value === '' ? null : input.value);
    write = (value) => {
      input.value = String(value ?? '');
    };
    if (options.dispatch && !element.multiline) {
      el.addEventListener('keydown', (event) => {
        if (event.key === 'Enter') {
          event.preventDefault();
          options.onChange?.(read());
        }
      });
    }
  } else if (type === 'external_select' || type === 'multi_external_select') {
    ({ el, read, write } = externalSelect(element, blockId, ctx, common, options));
  } else if (type.endsWith('_select')) {
    const multiple = type.startsWith('multi_');
    const select = h('select', { ...common, multiple }, selectOptions(element, ctx, placeholder));
    el = select;
    const initial = initialOf(element);
    write = (value) => {
      const wanted = new Set([value ?? []].flat().map(String));
      for (const option of select.options) option.selected = wanted.has(option.value);
      if (!multiple && wanted.size === 0) select.value = '';
    };
    write(initial);
    read = () =>
      multiple
        ? [...select.selectedOptions].map((o) => o.value)
        : select.value === ''
          ? null
          : select.value;
    select.addEventListener('change', () => options.onChange?.(read()));
  } else if (type === 'datepicker' || type === 'timepicker') {
    const input = h('input', { ...common, type: type === 'datepicker' ? 'date' : 'time' });
    el = input;
    input.value = String(initialOf(element));
    read = () => (input.value === '' ? null : input.value);
    write = (value) => {
      input.value = String(value ?? '');
    };
    input.addEventListener('change', () => options.onChange?.(read()));
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
    const group = h('fieldset', { ...common, className: 'choices' }, boxes);
    el = group;
    const inputs = () => [...group.querySelectorAll('input')];
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
    group.addEventListener('change', () => options.onChange?.(read()));
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

/**
 * An external select: a search box and the select of what the app answered for its words
 * (block_suggestion, through `ctx.suggest`), asked once the words are `min_query_length` long
 * and the person pauses, or when the field is entered. The options last answered are kept in
 * `ctx.suggested`, so a redraw of the view keeps the choice; the initial option is always one.
 * @param {Element} element
 * @param {string} blockId
 * @param {BlockContext} ctx
 * @param {{ id: string, dataset: Record<string, string> } & Record<string, unknown>} common
 * @param {ControlOptions} options
 * @returns {{ el: HTMLElement, read: () => FieldValue, write: (value: FieldValue) => void }}
 */
function externalSelect(element, blockId, ctx, common, options) {
  const actionId = element.action_id;
  const key = keyOf(ctx, blockId, actionId);
  const multiple = element.type === 'multi_external_select';
  const placeholder = plainText(element.placeholder);
  const minLength = element.min_query_length ?? MIN_QUERY_LENGTH;
  const select = h('select', { ...common, multiple });
  /**
   * Shows the initial options and `answered`, keeping what is chosen.
   * @param {readonly Option[]} answered
   * @param {string} [empty] What the empty choice says instead of the placeholder.
   */
  const fill = (answered, empty) => {
    const chosen = new Set([...select.selectedOptions].map((o) => o.value));
    /** @type {Map<string, Option>} */
    const shown = new Map();
    const initial = [element.initial_option ?? [], element.initial_options ?? []].flat();
    for (const option of [...initial, ...answered]) {
      if (!shown.has(option.value)) shown.set(option.value, option);
    }
    select.replaceChildren(
      ...(multiple ? [] : [h('option', { value: '' }, empty || placeholder || 'Select an option')]),
      ...[...shown.values()].map((o) => h('option', { value: o.value }, plainText(o.text))),
    );
    for (const option of select.options) option.selected = chosen.has(option.value);
  };
  fill(ctx.suggested?.get(key) ?? []);
  /** @type {(value: FieldValue) => void} */
  const write = (value) => {
    const wanted = new Set([value ?? []].flat().map(String));
    for (const option of select.options) option.selected = wanted.has(option.value);
    if (!multiple && wanted.size === 0) select.value = '';
  };
  write(initialOf(element));
  const read = () =>
    multiple
      ? [...select.selectedOptions].map((o) => o.value)
      : select.value === ''
        ? null
        : select.value;
  select.addEventListener('change', () => options.onChange?.(read()));
  const suggest = ctx.suggest;
  if (!suggest) return { el: select, read, write };

  const search = h('input', {
    type: 'search',
    className: 'bk-control bk-search',
    placeholder: placeholder || 'Search',
    autocomplete: 'off',
    'aria-label': `Search: ${options.label || placeholder || 'options'}`,
    'aria-controls': common.id,
    dataset: { key: `${key}:search` },
  });
  // Only the newest question's answer is shown; a slower earlier one is dropped.
  let asked = 0;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let pause;
  const load = async () => {
    const words = search.value;
    if (words.length < minLength) return;
    asked += 1;
    const mine = asked;
    select.setAttribute('aria-busy', 'true');
    const answered = await suggest({ actionId, blockId, value: words });
    if (mine !== asked) return;
    select.removeAttribute('aria-busy');
    if (answered === null) {
      fill(ctx.suggested?.get(key) ?? [], 'Options could not be loaded');
      return;
    }
    ctx.suggested?.set(key, answered);
    fill(answered, answered.length === 0 ? 'No results' : '');
  };
  search.addEventListener('input', () => {
    clearTimeout(pause);
    pause = setTimeout(() => void load(), SEARCH_PAUSE_MS);
  });
  // Entering the field shows what there is to choose, as Slack's menu does when opened.
  const firstLook = () => {
    if (!ctx.suggested?.has(key)) void load();
  };
  search.addEventListener('focus', firstLook);
  select.addEventListener('focus', firstLook);
  const el = h('div', { className: 'bk-external' }, search, select);
  return { el, read, write };
}

/** @param {FieldValue} value */
function isEmpty(value) {
  return value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

/**
 * Checks required inputs as Slack's client does before it submits; returns block errors.
 * @param {Map<string, Field>} fields
 */
export function requiredErrors(fields) {
  /** @type {Record<string, string>} */
  const errors = {};
  for (const field of fields.values()) {
    if (field.inInput && field.required && isEmpty(field.read())) errors[field.blockId] = REQUIRED;
  }
  return errors;
}

/**
 * The current values of the registered fields, as the sandbox's actions expect them.
 * @param {Map<string, Field>} fields
 */
export function fieldValues(fields) {
  return [...fields.values()]
    .filter((field) => field.type !== 'button')
    .map((field) => ({ blockId: field.blockId, actionId: field.actionId, value: field.read() }));
}

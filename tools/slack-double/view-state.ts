/**
 * The values a person enters in a view, in the shapes Slack sends them: `view.state.values`
 * of a view_submission (`block_id → action_id → { type, value | selected_option | ... }`) and
 * the `actions` of a block_actions payload. Tests give plain strings; this looks the element up
 * in the stored view so a select's option carries its real text, and unknown options fail (an
 * external select's option is the one the app answered, when it did).
 */
import {
  type ElementSite,
  interactiveElements,
  isJsonObject,
  type JsonObject,
} from './block-kit.ts';
import { RequiredInputMissingError, UnknownInputError, UnknownOptionError } from './errors.ts';
import type { SlackView, ViewStateValues } from './workspace.ts';

/** What a test enters in an element: text, an option value, a user or channel id, or several. */
export type InputValue = string | number | readonly string[] | null;

/** Entered values keyed by `action_id` (or, for an input block, its `block_id`). */
export type SubmittedValues = Record<string, InputValue | undefined>;

function asList(given: InputValue | undefined): string[] | undefined {
  if (given === undefined || given === null) return undefined;
  if (Array.isArray(given)) return given.map(String);
  return [String(given)];
}

function asSingle(given: InputValue | undefined): string | null | undefined {
  if (given === undefined) return undefined;
  if (given === null) return null;
  if (Array.isArray(given)) return given[0] === undefined ? null : String(given[0]);
  return String(given);
}

function optionsOf(element: JsonObject): JsonObject[] {
  const options: JsonObject[] = [];
  if (Array.isArray(element.options)) options.push(...element.options.filter(isJsonObject));
  if (Array.isArray(element.option_groups)) {
    for (const group of element.option_groups) {
      if (isJsonObject(group) && Array.isArray(group.options)) {
        options.push(...group.options.filter(isJsonObject));
      }
    }
  }
  return options;
}

function option(
  element: JsonObject,
  actionId: string,
  value: string,
  external: readonly JsonObject[] = [],
): JsonObject {
  const type = String(element.type);
  if (type === 'external_select' || type === 'multi_external_select') {
    // External options come from the app at run time: one it answered is chosen as it was
    // given; otherwise the value stands for the text too.
    const answered = external.find((candidate) => candidate.value === value);
    if (answered) return structuredClone(answered);
    return { text: { type: 'plain_text', text: value, emoji: true }, value };
  }
  const found = optionsOf(element).find((candidate) => candidate.value === value);
  if (!found) throw new UnknownOptionError(actionId, value);
  return structuredClone(found);
}

const TEXT_LIKE = new Set([
  'plain_text_input',
  'email_text_input',
  'url_text_input',
  'number_input',
]);
const SINGLE_OPTION = new Set(['static_select', 'external_select', 'radio_buttons', 'overflow']);
const MULTI_OPTION = new Set(['multi_static_select', 'multi_external_select', 'checkboxes']);
const SINGLE_ID: Record<string, [field: string, initial: string]> = {
  users_select: ['selected_user', 'initial_user'],
  conversations_select: ['selected_conversation', 'initial_conversation'],
  channels_select: ['selected_channel', 'initial_channel'],
  datepicker: ['selected_date', 'initial_date'],
  timepicker: ['selected_time', 'initial_time'],
};
const MULTI_ID: Record<string, [field: string, initial: string]> = {
  multi_users_select: ['selected_users', 'initial_users'],
  multi_conversations_select: ['selected_conversations', 'initial_conversations'],
  multi_channels_select: ['selected_channels', 'initial_channels'],
};

function richText(text: string): JsonObject {
  return {
    type: 'rich_text',
    elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text }] }],
  };
}

/**
 * The element's value in Slack's shape (`{ type, value }`, `{ type, selected_option }`...).
 * Without a given value the element's initial value stands, as when a person leaves it as is.
 */
export function elementState(
  element: JsonObject,
  actionId: string,
  given?: InputValue,
  external?: readonly JsonObject[],
): JsonObject {
  const type = String(element.type);
  if (TEXT_LIKE.has(type)) {
    const single = asSingle(given);
    const initial = typeof element.initial_value === 'string' ? element.initial_value : null;
    return { type, value: single === undefined ? initial : single };
  }
  if (SINGLE_OPTION.has(type)) {
    const single = asSingle(given);
    if (single === undefined) {
      const initial = isJsonObject(element.initial_option) ? element.initial_option : null;
      return { type, selected_option: initial && structuredClone(initial) };
    }
    return {
      type,
      selected_option: single === null ? null : option(element, actionId, single, external),
    };
  }
  if (MULTI_OPTION.has(type)) {
    const list = asList(given);
    if (list === undefined) {
      const initial = Array.isArray(element.initial_options) ? element.initial_options : [];
      return { type, selected_options: structuredClone(initial) };
    }
    return {
      type,
      selected_options: list.map((value) => option(element, actionId, value, external)),
    };
  }
  const singleId = SINGLE_ID[type];
  if (singleId) {
    const [field, initialField] = singleId;
    const single = asSingle(given);
    const initial = typeof element[initialField] === 'string' ? element[initialField] : null;
    return { type, [field]: single === undefined ? initial : single };
  }
  const multiId = MULTI_ID[type];
  if (multiId) {
    const [field, initialField] = multiId;
    const list = asList(given);
    const initial = Array.isArray(element[initialField]) ? element[initialField] : [];
    return { type, [field]: list ?? structuredClone(initial) };
  }
  if (type === 'datetimepicker') {
    const single = asSingle(given);
    const initial =
      typeof element.initial_date_time === 'number' ? element.initial_date_time : null;
    return { type, selected_date_time: single === undefined ? initial : Number(single) };
  }
  if (type === 'rich_text_input') {
    const single = asSingle(given);
    if (single === undefined) {
      return { type, rich_text_value: element.initial_value ?? null };
    }
    return { type, rich_text_value: single === null ? null : richText(single) };
  }
  return { type, value: asSingle(given) ?? null };
}

function isEmpty(state: JsonObject): boolean {
  const { type: _type, ...fields } = state;
  return Object.values(fields).every(
    (value) => value === null || value === '' || (Array.isArray(value) && value.length === 0),
  );
}

function givenFor(site: ElementSite, values: SubmittedValues): InputValue | undefined {
  if (site.actionId in values) return values[site.actionId];
  if (site.inInput && site.blockId in values) return values[site.blockId];
  return undefined;
}

/**
 * The `view.state.values` a submission of the view carries. Every stateful element appears,
 * entered or not; a required input left empty throws `RequiredInputMissingError` because
 * Slack's client would not submit, and a key naming no element throws `UnknownInputError`.
 */
export function submissionState(
  view: SlackView,
  values: SubmittedValues,
  options: {
    allowEmptyRequired?: boolean;
    /** The options the app answered for an external select, by its action_id. */
    answered?: (actionId: string) => readonly JsonObject[] | undefined;
  } = {},
): ViewStateValues {
  const sites = interactiveElements(view.blocks).filter((site) => site.element.type !== 'button');
  for (const key of Object.keys(values)) {
    const known = sites.some((s) => s.actionId === key || (s.inInput && s.blockId === key));
    if (!known) throw new UnknownInputError(key, view.id);
  }
  const state: ViewStateValues = {};
  for (const site of sites) {
    const value = elementState(
      site.element,
      site.actionId,
      givenFor(site, values),
      options.answered?.(site.actionId),
    );
    const optional = site.block.optional === true;
    if (site.inInput && !optional && !options.allowEmptyRequired && isEmpty(value)) {
      throw new RequiredInputMissingError(site.blockId);
    }
    state[site.blockId] ??= {};
    (state[site.blockId] as Record<string, JsonObject>)[site.actionId] = value;
  }
  return state;
}

/**
 * The entry of a block_actions payload's `actions` for a person acting on this element: a
 * button's own value and text, or the chosen value in the element's state shape.
 */
export function actionEntry(
  site: ElementSite,
  actionTs: string,
  given?: InputValue,
  external?: readonly JsonObject[],
): JsonObject {
  const { element } = site;
  const base = { action_id: site.actionId, block_id: site.blockId, action_ts: actionTs };
  if (element.type === 'button') {
    const entry: JsonObject = { type: 'button', ...base, text: structuredClone(element.text) };
    const value = typeof element.value === 'string' ? element.value : asSingle(given);
    if (value !== undefined && value !== null) entry.value = value;
    if (typeof element.style === 'string') entry.style = element.style;
    return entry;
  }
  return { ...elementState(element, site.actionId, given, external), ...base };
}

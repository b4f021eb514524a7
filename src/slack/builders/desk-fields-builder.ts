/**
 * A desk's custom fields in Block Kit: one input per field, of the element its type maps to,
 * and reading what a person entered back into the platform's `custom_fields` values. Also what
 * a form keeps of what was typed when it is rebuilt (the desk changed), and the card's lines.
 */
import type { InputBlock, KnownBlock, Option, PlainTextOption, SectionBlock } from '@slack/types';
import type { CustomField, CustomFieldType } from '../../contract/schemas.ts';
import { CREATE_FIELDS } from '../ids.ts';
import { LIMITS, md, plain, safeMrkdwn, truncate } from './mrkdwn.ts';

/** The most desk fields one form shows: with the common inputs they stay within 100 blocks. */
export const DESK_FIELDS_MAX = 40;
/** Options of one select: Slack's 100 per group, in at most this many groups. */
const OPTION_GROUPS_MAX = 10;
/** Longest input label and hint Slack takes. */
const LABEL_MAX = 2000;
const HINT_MAX = 2000;
/** Longest text a plain_text_input takes. */
const TEXT_MAX = 3000;

/** A value of `custom_fields` as the form sends it. */
export type DeskFieldValue = string | number | string[];

/** One input's state as Slack sends it in `view.state.values` (the fields the form reads). */
export interface InputState {
  type?: string;
  value?: string | null;
  selected_option?: { value: string } | null;
  selected_options?: { value: string }[] | null;
  selected_date?: string | null;
  selected_user?: string | null;
}

/** A view's `state.values`: block id → action id → state. */
export type StateValues = Record<string, Record<string, InputState>>;

const TYPES: readonly CustomFieldType[] = [
  'text',
  'textarea',
  'number',
  'select',
  'multi_select',
  'date',
  'email',
];

/** The block id of a field's input: the same on every desk defining the key. */
export function deskFieldBlockId(key: string): string {
  return `${CREATE_FIELDS.customField.blockPrefix}${key}`;
}

/** The key of a desk field's block id, or undefined for any other block. */
export function deskFieldKey(blockId: string): string | undefined {
  const prefix = CREATE_FIELDS.customField.blockPrefix;
  return blockId.startsWith(prefix) ? blockId.slice(prefix.length) : undefined;
}

// The action id carries the type, so a key that is a select on one desk and text on another
// never has one's state read as the other's; and the key, as action ids are unique in a view.
function actionId(type: CustomFieldType, key: string): string {
  return `${CREATE_FIELDS.customField.actionPrefix}${type}.${key}`;
}

function typeOfAction(action: string): CustomFieldType | undefined {
  const prefix = CREATE_FIELDS.customField.actionPrefix;
  if (!action.startsWith(prefix)) return undefined;
  const type = action.slice(prefix.length).split('.', 1)[0];
  return TYPES.find((known) => known === type);
}

function knownType(field: CustomField): CustomFieldType | undefined {
  return TYPES.find((known) => known === field.type);
}

/**
 * The field's options as Slack can show them: option text cut to 75 characters, values longer
 * than Slack's 150 left out (cutting one would send a value the platform does not know), and
 * more than 100 spread over groups of 100.
 */
function selectOptions(
  field: CustomField,
):
  | { options: PlainTextOption[] }
  | { option_groups: { label: ReturnType<typeof plain>; options: PlainTextOption[] }[] }
  | undefined {
  const options = (field.options ?? [])
    .filter((option) => option.value.length > 0 && option.value.length <= LIMITS.optionValue)
    .map((option) => ({
      text: plain(option.label || option.value, LIMITS.optionText),
      value: option.value,
    }));
  if (options.length === 0) return undefined;
  if (options.length <= LIMITS.staticSelectOptions) return { options };
  const groups = [];
  for (
    let start = 0;
    start < options.length && groups.length < OPTION_GROUPS_MAX;
    start += LIMITS.staticSelectOptions
  ) {
    const chunk = options.slice(start, start + LIMITS.staticSelectOptions);
    groups.push({
      label: plain(`${start + 1}–${start + chunk.length}`, LIMITS.optionText),
      options: chunk,
    });
  }
  return { option_groups: groups };
}

function allOptions(element: Record<string, unknown>): Option[] {
  const { options, option_groups: groups } = element as {
    options?: Option[];
    option_groups?: { options: Option[] }[];
  };
  return [...(options ?? []), ...(groups ?? []).flatMap((group) => group.options)];
}

/** The element a field's type maps to, or undefined for a type the app cannot show. */
function fieldElement(field: CustomField): InputBlock['element'] | undefined {
  const type = knownType(field);
  if (!type) return undefined;
  const action_id = actionId(type, field.key);
  switch (type) {
    case 'text':
      return { type: 'plain_text_input', action_id, max_length: TEXT_MAX };
    case 'textarea':
      return { type: 'plain_text_input', action_id, multiline: true, max_length: TEXT_MAX };
    case 'number':
      return { type: 'number_input', action_id, is_decimal_allowed: false };
    case 'select': {
      const options = selectOptions(field);
      return options ? { type: 'static_select', action_id, ...options } : undefined;
    }
    case 'multi_select': {
      const options = selectOptions(field);
      return options ? { type: 'multi_static_select', action_id, ...options } : undefined;
    }
    case 'date':
      return { type: 'datepicker', action_id };
    case 'email':
      return { type: 'email_text_input', action_id };
  }
}

/**
 * The inputs of a desk's fields, in the platform's order, required where the platform requires
 * them, each showing what `state` holds for it (what was typed before the form was rebuilt).
 * Fields of a type the app does not know, or a select without options, are left out.
 */
export function deskFieldBlocks(
  fields: readonly CustomField[],
  state: StateValues = {},
  max: number = DESK_FIELDS_MAX,
): InputBlock[] {
  const blocks: InputBlock[] = [];
  const seen = new Set<string>();
  for (const field of fields) {
    if (blocks.length >= max) break;
    const block_id = deskFieldBlockId(field.key);
    // Block ids are unique in a view: a key defined twice shows once. Slack's ids hold 255.
    if (seen.has(block_id) || block_id.length > 200) continue;
    const element = fieldElement(field);
    if (!element) continue;
    seen.add(block_id);
    const block: InputBlock = {
      type: 'input',
      block_id,
      optional: !field.required,
      label: plain(field.name || field.key, LABEL_MAX),
      element,
      ...(field.help ? { hint: plain(field.help, HINT_MAX) } : {}),
    };
    blocks.push(withTypedValue(block, state[block_id]) as InputBlock);
  }
  return blocks;
}

/**
 * A block showing what the person entered in it (`state`, from the view being replaced) as its
 * initial value; the block as it is when its state is unknown. A cleared input starts empty.
 * Choices no longer offered are dropped, and a value of another element type is not carried.
 */
export function withTypedValue(
  block: KnownBlock,
  state: Record<string, InputState> | undefined,
): KnownBlock {
  if (block.type !== 'input' || !state) return block;
  const element = { ...block.element } as Record<string, unknown> & {
    type: string;
    action_id?: string;
  };
  const entered = element.action_id ? state[element.action_id] : undefined;
  if (!entered) return block;
  const set = (name: string, value: unknown) => {
    if (value === undefined || value === null || value === '') delete element[name];
    else element[name] = value;
  };
  switch (element.type) {
    case 'plain_text_input':
    case 'email_text_input':
    case 'number_input':
      set('initial_value', entered.value);
      break;
    case 'static_select': {
      const chosen = entered.selected_option?.value;
      set(
        'initial_option',
        allOptions(element).find((option) => option.value === chosen),
      );
      break;
    }
    case 'multi_static_select': {
      const chosen = new Set((entered.selected_options ?? []).map((option) => option.value));
      const kept = allOptions(element).filter((option) => chosen.has(option.value ?? ''));
      set('initial_options', kept.length > 0 ? kept : undefined);
      break;
    }
    case 'datepicker':
      set('initial_date', entered.selected_date);
      break;
    default:
      return block;
  }
  return { ...block, element } as KnownBlock;
}

/** The desk fields' values entered in a submitted form, by key; empty inputs are left out. */
export function readDeskFields(values: StateValues): Record<string, DeskFieldValue> {
  const read: Record<string, DeskFieldValue> = {};
  for (const [blockId, actions] of Object.entries(values)) {
    const key = deskFieldKey(blockId);
    if (key === undefined) continue;
    for (const [action, state] of Object.entries(actions)) {
      const type = typeOfAction(action);
      if (!type) continue;
      const value = stateValue(type, state);
      if (value !== undefined) read[key] = value;
    }
  }
  return read;
}

function stateValue(type: CustomFieldType, state: InputState): DeskFieldValue | undefined {
  switch (type) {
    case 'select':
      return state.selected_option?.value || undefined;
    case 'multi_select': {
      const chosen = (state.selected_options ?? []).map((option) => option.value);
      return chosen.length > 0 ? chosen : undefined;
    }
    case 'date':
      return state.selected_date || undefined;
    case 'number': {
      const text = state.value?.trim();
      if (!text) return undefined;
      // Slack checks the number; anything else goes as typed, for the platform to refuse on it.
      const number = Number(text);
      return Number.isFinite(number) ? number : text;
    }
    case 'textarea':
      return state.value?.trim() ? state.value : undefined;
    default:
      return state.value?.trim() || undefined;
  }
}

/** How a value shows on a card: a select's label rather than its value. */
function shownValue(field: CustomField, value: unknown): string | undefined {
  const label = (raw: unknown) =>
    field.options?.find((option) => option.value === raw)?.label ?? String(raw);
  if (value === undefined || value === null || value === '') return undefined;
  if (Array.isArray(value)) return value.length > 0 ? value.map(label).join(', ') : undefined;
  if (typeof value === 'object') return undefined;
  return label(value);
}

/**
 * The card's section of a ticket's custom field values, each under its field's name, in the
 * desk's order; keys the desk does not define (the app's own, such as the affected device) are
 * not shown. Undefined when the ticket has none to show.
 */
export function deskFieldsSection(
  values: Record<string, unknown> | null | undefined,
  fields: readonly CustomField[],
): SectionBlock | undefined {
  if (!values) return undefined;
  const lines = fields.flatMap((field) => {
    const shown = shownValue(field, values[field.key]);
    return shown === undefined
      ? []
      : [md(`*${safeMrkdwn(field.name || field.key, 100)}*\n${safeMrkdwn(shown, 500)}`)];
  });
  if (lines.length === 0) return undefined;
  // A section holds ten fields; more values than that share the last one's text.
  const shown = lines.slice(0, 10);
  if (lines.length > 10) {
    shown[9] = md(
      truncate(
        lines
          .slice(9)
          .map((line) => line.text)
          .join('\n'),
        LIMITS.sectionField,
      ),
    );
  }
  return { type: 'section', fields: shown };
}

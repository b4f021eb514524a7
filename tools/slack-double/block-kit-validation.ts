/**
 * The Block Kit and view limits Slack enforces, so that a message or modal the real Slack would
 * refuse is refused by the double too. Each check yields a message in Slack's own format
 * (`[ERROR] ... [json-pointer:/blocks/0/text]`), as in `response_metadata.messages`. Every
 * length is counted in UTF-16 code units (JavaScript's `length`), the stricter reading of
 * Slack's "characters": an emoji counts two.
 */
import { isJsonObject, type JsonObject } from './block-kit.ts';

const BLOCK_TYPES = new Set([
  'actions',
  'context',
  'divider',
  'file',
  'header',
  'image',
  'input',
  'markdown',
  'rich_text',
  'section',
  'table',
  'video',
]);

/** Slack's per-message block limit. */
export const MAX_MESSAGE_BLOCKS = 50;
/** Slack's per-view (modal, App Home) block limit. */
export const MAX_VIEW_BLOCKS = 100;
/** Slack refuses message text longer than this with `msg_too_long`. */
export const MAX_MESSAGE_TEXT = 40_000;
/**
 * Slack answers `msg_blocks_too_long` well before 50 sections of 3,000: its maintainers saw
 * it from about 12,000 characters of block text in one message (bolt-js issues 2509 and 2867;
 * Slack documents no figure), the documented cumulative limit of markdown blocks too.
 */
export const MAX_MESSAGE_BLOCK_TEXT = 12_000;

/** The text a message's blocks carry: every `text` string at any depth, in UTF-16 units. */
export function blockTextLength(value: unknown): number {
  if (Array.isArray(value)) {
    return value.reduce((sum: number, item: unknown) => sum + blockTextLength(item), 0);
  }
  if (!isJsonObject(value)) return 0;
  let sum = 0;
  for (const [key, field] of Object.entries(value)) {
    sum += key === 'text' && typeof field === 'string' ? field.length : blockTextLength(field);
  }
  return sum;
}

function tooLong(limit: number, pointer: string): string {
  return `[ERROR] must be less than ${limit + 1} characters [json-pointer:${pointer}]`;
}

function missing(field: string, pointer: string): string {
  return `[ERROR] missing required field: ${field} [json-pointer:${pointer}]`;
}

/** Checks a text object (`{ type: 'plain_text' | 'mrkdwn', text }`) and its length. */
function checkText(
  value: unknown,
  pointer: string,
  limit: number,
  plainOnly: boolean,
  problems: string[],
): void {
  if (!isJsonObject(value) || typeof value.text !== 'string') {
    problems.push(missing('text', pointer));
    return;
  }
  const allowed = plainOnly ? ['plain_text'] : ['plain_text', 'mrkdwn'];
  if (!allowed.includes(String(value.type))) {
    problems.push(`[ERROR] must be one of: ${allowed.join(', ')} [json-pointer:${pointer}/type]`);
  }
  if (value.text.length === 0) {
    problems.push(`[ERROR] must be more than 0 characters [json-pointer:${pointer}/text]`);
  }
  if (value.text.length > limit) problems.push(tooLong(limit, `${pointer}/text`));
}

function checkOptions(options: unknown, pointer: string, problems: string[], max = 100): void {
  if (!Array.isArray(options)) return;
  if (options.length > max) {
    problems.push(`[ERROR] must provide no more than ${max} items [json-pointer:${pointer}]`);
  }
  options.forEach((option, i) => {
    if (!isJsonObject(option)) return;
    checkText(option.text, `${pointer}/${i}/text`, 75, false, problems);
    if (option.description !== undefined) {
      checkText(option.description, `${pointer}/${i}/description`, 75, false, problems);
    }
    if (typeof option.value !== 'string') problems.push(missing('value', `${pointer}/${i}`));
    else if (option.value.length > 150) problems.push(tooLong(150, `${pointer}/${i}/value`));
    if (typeof option.url === 'string' && option.url.length > 3000) {
      problems.push(tooLong(3000, `${pointer}/${i}/url`));
    }
  });
}

function checkElement(
  element: JsonObject,
  pointer: string,
  actionIds: Set<string>,
  problems: string[],
): void {
  if (typeof element.type !== 'string') {
    problems.push(missing('type', pointer));
    return;
  }
  if (typeof element.action_id === 'string') {
    if (element.action_id.length > 255) problems.push(tooLong(255, `${pointer}/action_id`));
    if (actionIds.has(element.action_id)) {
      problems.push(`[ERROR] duplicate action_id: ${element.action_id} [json-pointer:${pointer}]`);
    }
    actionIds.add(element.action_id);
  }
  if (element.type === 'button') {
    checkText(element.text, `${pointer}/text`, 75, true, problems);
    if (typeof element.value === 'string' && element.value.length > 2000) {
      problems.push(tooLong(2000, `${pointer}/value`));
    }
    if (typeof element.url === 'string' && element.url.length > 3000) {
      problems.push(tooLong(3000, `${pointer}/url`));
    }
  }
  if (isJsonObject(element.confirm)) checkConfirm(element.confirm, `${pointer}/confirm`, problems);
  if (element.type === 'image') checkImage(element, pointer, problems);
  if (element.placeholder !== undefined) {
    checkText(element.placeholder, `${pointer}/placeholder`, 150, true, problems);
  }
  if (element.type === 'static_select' || element.type === 'multi_static_select') {
    if (!Array.isArray(element.options) && !Array.isArray(element.option_groups)) {
      problems.push(missing('options', pointer));
    }
    checkOptions(element.options, `${pointer}/options`, problems);
  }
  if (Array.isArray(element.option_groups)) {
    if (element.option_groups.length > 100) {
      problems.push(
        `[ERROR] must provide no more than 100 items [json-pointer:${pointer}/option_groups]`,
      );
    }
    element.option_groups.forEach((group, i) => {
      if (!isJsonObject(group)) return;
      checkText(group.label, `${pointer}/option_groups/${i}/label`, 75, true, problems);
      checkOptions(group.options, `${pointer}/option_groups/${i}/options`, problems);
    });
  }
  const optionLimits: Record<string, number> = { overflow: 5, checkboxes: 10, radio_buttons: 10 };
  const optionLimit = optionLimits[element.type];
  if (optionLimit !== undefined) {
    if (!Array.isArray(element.options)) problems.push(missing('options', pointer));
    checkOptions(element.options, `${pointer}/options`, problems, optionLimit);
  }
  if (element.type === 'plain_text_input') {
    if (typeof element.max_length === 'number' && element.max_length > 3000) {
      problems.push(`[ERROR] must be no more than 3000 [json-pointer:${pointer}/max_length]`);
    }
    if (typeof element.min_length === 'number' && element.min_length > 3000) {
      problems.push(`[ERROR] must be no more than 3000 [json-pointer:${pointer}/min_length]`);
    }
    if (typeof element.initial_value === 'string' && element.initial_value.length > 3000) {
      problems.push(tooLong(3000, `${pointer}/initial_value`));
    }
  }
}

/** A confirmation dialog: title 100, text 300, confirm and deny 30. */
function checkConfirm(confirm: JsonObject, pointer: string, problems: string[]): void {
  checkText(confirm.title, `${pointer}/title`, 100, true, problems);
  checkText(confirm.text, `${pointer}/text`, 300, false, problems);
  checkText(confirm.confirm, `${pointer}/confirm`, 30, true, problems);
  checkText(confirm.deny, `${pointer}/deny`, 30, true, problems);
}

/** An image block or element: its URL within 3,000, its alt text within 2,000. */
function checkImage(image: JsonObject, pointer: string, problems: string[]): void {
  if (typeof image.image_url === 'string' && image.image_url.length > 3000) {
    problems.push(tooLong(3000, `${pointer}/image_url`));
  }
  if (typeof image.alt_text !== 'string') problems.push(missing('alt_text', pointer));
  else if (image.alt_text.length > 2000) problems.push(tooLong(2000, `${pointer}/alt_text`));
}

function checkBlock(
  block: unknown,
  pointer: string,
  ids: { blocks: Set<string>; actions: Set<string> },
  problems: string[],
): void {
  if (!isJsonObject(block) || typeof block.type !== 'string') {
    problems.push(missing('type', pointer));
    return;
  }
  if (!BLOCK_TYPES.has(block.type)) {
    problems.push(`[ERROR] unsupported type: ${block.type} [json-pointer:${pointer}/type]`);
    return;
  }
  if (typeof block.block_id === 'string') {
    if (block.block_id.length > 255) problems.push(tooLong(255, `${pointer}/block_id`));
    if (ids.blocks.has(block.block_id)) {
      problems.push(`[ERROR] duplicate block_id: ${block.block_id} [json-pointer:${pointer}]`);
    }
    ids.blocks.add(block.block_id);
  }
  switch (block.type) {
    case 'section': {
      if (block.text === undefined && block.fields === undefined) {
        problems.push(missing('text', pointer));
      }
      if (block.text !== undefined) checkText(block.text, `${pointer}/text`, 3000, false, problems);
      if (Array.isArray(block.fields)) {
        if (block.fields.length > 10) {
          problems.push(
            `[ERROR] must provide no more than 10 items [json-pointer:${pointer}/fields]`,
          );
        }
        block.fields.forEach((field, i) => {
          checkText(field, `${pointer}/fields/${i}`, 2000, false, problems);
        });
      }
      if (isJsonObject(block.accessory)) {
        checkElement(block.accessory, `${pointer}/accessory`, ids.actions, problems);
      }
      break;
    }
    case 'header':
      checkText(block.text, `${pointer}/text`, 150, true, problems);
      break;
    case 'actions': {
      const elements = Array.isArray(block.elements) ? block.elements : [];
      if (elements.length === 0) problems.push(missing('elements', pointer));
      if (elements.length > 25) {
        problems.push(
          `[ERROR] must provide no more than 25 items [json-pointer:${pointer}/elements]`,
        );
      }
      elements.forEach((element, i) => {
        if (isJsonObject(element)) {
          checkElement(element, `${pointer}/elements/${i}`, ids.actions, problems);
        }
      });
      break;
    }
    case 'context': {
      const elements = Array.isArray(block.elements) ? block.elements : [];
      if (elements.length === 0) problems.push(missing('elements', pointer));
      if (elements.length > 10) {
        problems.push(
          `[ERROR] must provide no more than 10 items [json-pointer:${pointer}/elements]`,
        );
      }
      elements.forEach((element, i) => {
        if (!isJsonObject(element)) return;
        const at = `${pointer}/elements/${i}`;
        if (element.type === 'image') checkImage(element, at, problems);
        else checkText(element, at, 3000, false, problems);
      });
      break;
    }
    case 'image':
      checkImage(block, pointer, problems);
      if (block.title !== undefined)
        checkText(block.title, `${pointer}/title`, 2000, true, problems);
      break;
    case 'markdown':
      if (typeof block.text !== 'string') problems.push(missing('text', pointer));
      else if (block.text.length > MAX_MESSAGE_BLOCK_TEXT) {
        problems.push(tooLong(MAX_MESSAGE_BLOCK_TEXT, `${pointer}/text`));
      }
      break;
    case 'input': {
      checkText(block.label, `${pointer}/label`, 2000, true, problems);
      if (block.hint !== undefined) checkText(block.hint, `${pointer}/hint`, 2000, true, problems);
      if (!isJsonObject(block.element)) problems.push(missing('element', pointer));
      else checkElement(block.element, `${pointer}/element`, ids.actions, problems);
      break;
    }
    default:
      break;
  }
}

/** Problems with a list of blocks: count, known types, required fields, lengths, unique ids. */
export function blocksProblems(blocks: readonly unknown[], pointer: string, max: number): string[] {
  const problems: string[] = [];
  if (blocks.length > max) {
    problems.push(`[ERROR] must provide no more than ${max} items [json-pointer:${pointer}]`);
  }
  const ids = { blocks: new Set<string>(), actions: new Set<string>() };
  blocks.forEach((block, i) => {
    checkBlock(block, `${pointer}/${i}`, ids, problems);
  });
  return problems;
}

/**
 * Problems with a view: modal titles, close and submit of at most 24 characters, at most 100
 * blocks, private_metadata within 3,000 characters, a submit button whenever there is an input.
 */
export function viewProblems(view: JsonObject, surface: 'modal' | 'home'): string[] {
  const problems: string[] = [];
  if (view.type !== surface) {
    problems.push(`[ERROR] must be ${surface} [json-pointer:/view/type]`);
    return problems;
  }
  if (!Array.isArray(view.blocks)) {
    problems.push(missing('blocks', '/view'));
    return problems;
  }
  if (surface === 'modal') {
    checkText(view.title, '/view/title', 24, true, problems);
    if (view.close !== undefined) checkText(view.close, '/view/close', 24, true, problems);
    if (view.submit !== undefined) checkText(view.submit, '/view/submit', 24, true, problems);
    const hasInput = view.blocks.some((b) => isJsonObject(b) && b.type === 'input');
    if (hasInput && view.submit === undefined) {
      problems.push('[ERROR] a view with input blocks requires submit [json-pointer:/view/submit]');
    }
  }
  for (const [field, limit] of [
    ['private_metadata', 3000],
    ['callback_id', 255],
    ['external_id', 255],
  ] as const) {
    const value = view[field];
    if (value !== undefined && typeof value !== 'string') {
      problems.push(`[ERROR] must be a string [json-pointer:/view/${field}]`);
    } else if (typeof value === 'string' && value.length > limit) {
      problems.push(tooLong(limit, `/view/${field}`));
    }
  }
  problems.push(...blocksProblems(view.blocks, '/view/blocks', MAX_VIEW_BLOCKS));
  return problems;
}

/**
 * Problems with an app's answer to a `block_suggestion` (an external select's options): an
 * object with `options` (at most 100) or `option_groups` (at most 100, each with at most 100
 * options), each option's text plain_text within 75 characters and its value within 150. Slack
 * shows no options at all for an answer with any of these.
 */
export function optionsAnswerProblems(answer: unknown): string[] {
  const problems: string[] = [];
  if (!isJsonObject(answer)) return ['[ERROR] the options answer must be a JSON object'];
  const { options, option_groups: groups } = answer;
  if (!Array.isArray(options) && !Array.isArray(groups)) {
    return [missing('options', '')];
  }
  const plainOnly = (list: unknown, pointer: string) => {
    if (!Array.isArray(list)) return;
    checkOptions(list, pointer, problems);
    list.forEach((option, i) => {
      if (isJsonObject(option) && isJsonObject(option.text) && option.text.type !== 'plain_text') {
        problems.push(
          `[ERROR] must be one of: plain_text [json-pointer:${pointer}/${i}/text/type]`,
        );
      }
    });
  };
  plainOnly(options, '/options');
  if (Array.isArray(groups)) {
    if (groups.length > 100) {
      problems.push('[ERROR] must provide no more than 100 items [json-pointer:/option_groups]');
    }
    groups.forEach((group, i) => {
      if (!isJsonObject(group)) return;
      checkText(group.label, `/option_groups/${i}/label`, 75, true, problems);
      plainOnly(group.options, `/option_groups/${i}/options`);
    });
  }
  return problems;
}

/** Walking Block Kit blocks: finding interactive elements and filling in the ids Slack generates. */

/** A JSON object. */
export type JsonObject = Record<string, unknown>;

/** Whether a value is a plain JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// Elements that only display: everything else in an element position is interactive.
const DISPLAY_ONLY = new Set(['image', 'plain_text', 'mrkdwn']);

/** Where an interactive element sits: its block, its ids, and whether it is an input's element. */
export interface ElementSite {
  block: JsonObject;
  blockId: string;
  element: JsonObject;
  actionId: string;
  /** True for the `element` of an `input` block (what a view submission carries). */
  inInput: boolean;
}

function elementSlots(block: JsonObject): { element: JsonObject; inInput: boolean }[] {
  const slots: { element: JsonObject; inInput: boolean }[] = [];
  if (block.type === 'input' && isJsonObject(block.element)) {
    slots.push({ element: block.element, inInput: true });
  }
  if (block.type === 'section' && isJsonObject(block.accessory)) {
    slots.push({ element: block.accessory, inInput: false });
  }
  if (block.type === 'actions' && Array.isArray(block.elements)) {
    for (const element of block.elements) {
      if (isJsonObject(element)) slots.push({ element, inInput: false });
    }
  }
  return slots.filter(({ element }) => !DISPLAY_ONLY.has(String(element.type)));
}

/** Every interactive element of the blocks, in order. */
export function interactiveElements(blocks: readonly unknown[]): ElementSite[] {
  const sites: ElementSite[] = [];
  for (const block of blocks) {
    if (!isJsonObject(block)) continue;
    for (const { element, inInput } of elementSlots(block)) {
      sites.push({
        block,
        blockId: String(block.block_id ?? ''),
        element,
        actionId: String(element.action_id ?? ''),
        inInput,
      });
    }
  }
  return sites;
}

/**
 * A deep copy of the blocks with a `block_id` on every block and an `action_id` on every
 * interactive element, as Slack fills them in when it stores a message or a view.
 */
export function withGeneratedIds(blocks: readonly unknown[], newId: () => string): unknown[] {
  const copy = structuredClone(blocks) as unknown[];
  for (const block of copy) {
    if (!isJsonObject(block)) continue;
    if (typeof block.block_id !== 'string') block.block_id = newId();
    for (const { element } of elementSlots(block)) {
      if (typeof element.action_id !== 'string') element.action_id = newId();
    }
  }
  return copy;
}

/** The plain text of a text object (`{ type, text }`), or '' when there is none. */
export function textOf(textObject: unknown): string {
  return isJsonObject(textObject) && typeof textObject.text === 'string' ? textObject.text : '';
}

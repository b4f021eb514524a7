/** The create-ticket modal, and reading a submitted one back into a ticket. */
import type { KnownBlock, ModalView, PlainTextOption, View } from '@slack/types';
import type { Asset, CustomField, Desk, ValidationIssue } from '../../contract/schemas.ts';
import { TICKET_PRIORITIES } from '../../contract/schemas.ts';
import { CATALOG_FIELDS, CREATE_FIELDS, VIEWS } from '../ids.ts';
import {
  DESK_FIELDS_MAX,
  type DeskFieldValue,
  deskFieldBlockId,
  deskFieldBlocks,
  deskFieldKey,
  readDeskFields,
  type StateValues,
  withTypedValue,
} from './desk-fields-builder.ts';
import { LIMITS, md, plain, splitText, truncate } from './mrkdwn.ts';
import { priorityLabel } from './ticket-labels.ts';

/** Longest title the modal accepts; long titles get cut in every list they appear in. */
export const TITLE_MAX = 200;
/** Longest text one description input holds (Slack's plain_text_input maximum). */
export const DESCRIPTION_MAX = 3000;
/**
 * Continuation inputs at most, inside a modal's 100 blocks with the form's others: 243,000
 * characters in all, more than Slack delivers in one message (40,000) with its replies.
 */
const DESCRIPTION_MORE_MAX = 80;
/**
 * Blocks of the form besides the description's and the desk fields': context, title, desk,
 * priority, device and two notes.
 */
const OTHER_BLOCKS_MAX = 7;

/** What the modal starts with. */
export interface CreateModalInput {
  privateMetadata: string;
  desks: readonly Desk[];
  /** Desk slug to preselect, from the channel's routing. */
  deskSlug?: string | undefined;
  /** The preselected desk's custom fields, shown after the common inputs. */
  fields?: readonly CustomField[];
  assets?: readonly Asset[];
  title?: string;
  description?: string;
  /** A line of context above the form, already safe mrkdwn (e.g. where the message came from). */
  context?: string;
  /** Shown while desks and devices are still loading. */
  loading?: boolean;
  /**
   * Why the desks or the person's devices are not listed (the platform could not be asked, and
   * when to try again), already safe mrkdwn: the form still files without them.
   */
  listsNotice?: string;
}

const option = (text: string, value: string): PlainTextOption => ({
  text: plain(text, LIMITS.optionText),
  value: truncate(value, LIMITS.optionValue),
});

/** Desk options, subdesks after their parent and labelled "Parent › Sub". */
export function deskOptions(desks: readonly Desk[]): PlainTextOption[] {
  const bySlug = new Map(desks.map((d) => [d.slug, d]));
  const label = (d: Desk) => {
    const parent = d.parent_slug ? bySlug.get(d.parent_slug) : undefined;
    return parent ? `${parent.name} › ${d.name}` : d.name;
  };
  return desks
    .map((d) => ({ d, label: label(d) }))
    .sort((a, b) => a.label.localeCompare(b.label))
    .slice(0, LIMITS.staticSelectOptions)
    .map(({ d, label: text }) => option(text, d.slug));
}

/** Builds the create-ticket modal. */
export function buildCreateModal(input: CreateModalInput): ModalView {
  const blocks: KnownBlock[] = [];
  if (input.context) blocks.push({ type: 'context', elements: [md(input.context)] });
  blocks.push({
    type: 'input',
    block_id: CREATE_FIELDS.title.block,
    label: plain('Title', 50),
    element: {
      type: 'plain_text_input',
      action_id: CREATE_FIELDS.title.action,
      max_length: TITLE_MAX,
      placeholder: plain('What do you need help with?', 150),
      ...(input.title ? { initial_value: truncate(input.title, TITLE_MAX) } : {}),
    },
  });
  const fieldBlocks = deskFieldBlocks(input.fields ?? []);
  // A description longer than one input is spread over as many as it takes, so nothing the
  // person wrote or pasted is cut; the pieces are joined back on submission. The desk's fields
  // take their room from the continuations: a modal holds 100 blocks.
  const parts = splitText(input.description ?? '', DESCRIPTION_MAX).slice(
    0,
    Math.min(DESCRIPTION_MORE_MAX + 1, LIMITS.modalBlocks - OTHER_BLOCKS_MAX - fieldBlocks.length),
  );
  if (parts.length === 0) parts.push('');
  parts.forEach((part, index) => {
    const first = index === 0;
    blocks.push({
      type: 'input',
      block_id: first
        ? CREATE_FIELDS.description.block
        : `${CREATE_FIELDS.descriptionMore.blockPrefix}${index}`,
      optional: true,
      label: plain(
        first ? 'Description' : `Description, continued (${index + 1} of ${parts.length})`,
        50,
      ),
      element: {
        type: 'plain_text_input',
        action_id: first ? CREATE_FIELDS.description.action : CREATE_FIELDS.descriptionMore.action,
        multiline: true,
        max_length: DESCRIPTION_MAX,
        ...(first
          ? {
              placeholder: plain(
                'What happened, what you expected, anything you already tried',
                150,
              ),
            }
          : {}),
        ...(part ? { initial_value: part } : {}),
      },
    });
  });
  const desks = deskOptions(input.desks);
  if (desks.length > 0) {
    const initial = desks.find((o) => o.value === input.deskSlug);
    blocks.push({
      type: 'input',
      block_id: CREATE_FIELDS.desk.block,
      // Choosing a desk is heard at once, so the form swaps in that desk's fields.
      dispatch_action: true,
      optional: true,
      label: plain('Desk', 50),
      hint: plain('Leave it empty and the service desk routes it for you.', 150),
      element: {
        type: 'static_select',
        action_id: CREATE_FIELDS.desk.action,
        placeholder: plain('Choose a desk', 150),
        options: desks,
        ...(initial ? { initial_option: initial } : {}),
      },
    });
  }
  const priorities = TICKET_PRIORITIES.map((p) =>
    option(priorityLabel(p).replace(/^:[a-z_]+: /, ''), p),
  );
  blocks.push({
    type: 'input',
    block_id: CREATE_FIELDS.priority.block,
    optional: true,
    label: plain('Priority', 50),
    element: {
      type: 'static_select',
      action_id: CREATE_FIELDS.priority.action,
      options: priorities,
      ...(priorities[1] ? { initial_option: priorities[1] } : {}),
    },
  });
  const assets = input.assets ?? [];
  if (assets.length > 0) {
    blocks.push({
      type: 'input',
      block_id: CREATE_FIELDS.device.block,
      optional: true,
      label: plain('Affected device', 50),
      element: {
        type: 'static_select',
        action_id: CREATE_FIELDS.device.action,
        placeholder: plain('Choose one of your devices', 150),
        options: assets
          .slice(0, LIMITS.staticSelectOptions)
          .map((a) => option(a.serial_number ? `${a.name} (${a.serial_number})` : a.name, a.id)),
      },
    });
  }
  blocks.push(...fieldBlocks);
  if (input.loading) {
    blocks.push({ type: 'context', elements: [md('_Loading desks and your devices…_')] });
  }
  if (input.listsNotice) blocks.push({ type: 'context', elements: [md(input.listsNotice)] });
  return createModal(input.privateMetadata, blocks);
}

function createModal(privateMetadata: string, blocks: KnownBlock[]): ModalView {
  return {
    type: 'modal',
    callback_id: VIEWS.createTicket,
    title: plain('New ticket', LIMITS.modalTitle),
    submit: plain('File ticket', LIMITS.modalSubmit),
    close: plain('Cancel', LIMITS.modalSubmit),
    private_metadata: privateMetadata,
    blocks,
  };
}

/** The modal's values as Slack sends them in `view.state.values`. */
export type ViewStateValues = StateValues;

/**
 * The form rebuilt for another desk: that desk's fields replace the previous desk's, after the
 * common inputs, and every input shows what the person had entered (`state`, from the view's
 * block_actions), so nothing typed is lost; a key both desks define keeps its value.
 */
export function rebuildForDesk(
  view: Pick<View, 'blocks' | 'private_metadata'>,
  fields: readonly CustomField[],
  state: StateValues,
): ModalView {
  const kept = (view.blocks as KnownBlock[])
    .filter(
      (block) =>
        !('block_id' in block && block.block_id && deskFieldKey(block.block_id) !== undefined),
    )
    .map((block) =>
      'block_id' in block && block.block_id ? withTypedValue(block, state[block.block_id]) : block,
    );
  const room = Math.min(DESK_FIELDS_MAX, LIMITS.modalBlocks - kept.length);
  const fieldBlocks = deskFieldBlocks(fields, state, Math.max(0, room));
  // After the last input (the common ones), before the notes under the form.
  let at = 0;
  kept.forEach((block, index) => {
    if (block.type === 'input') at = index + 1;
  });
  return createModal(view.private_metadata ?? '', [
    ...kept.slice(0, at),
    ...fieldBlocks,
    ...kept.slice(at),
  ]);
}

/** What a person submitted in the create modal. */
export interface CreateForm {
  title: string;
  description: string | undefined;
  deskSlug: string | undefined;
  priority: string | undefined;
  assetId: string | undefined;
  /** The desk's fields that were filled in, by key. */
  customFields: Record<string, DeskFieldValue>;
}

/** Reads the create modal's submitted values. */
export function readCreateForm(values: ViewStateValues): CreateForm {
  const text = (f: { block: string; action: string }) =>
    values[f.block]?.[f.action]?.value?.trim() || undefined;
  const selected = (f: { block: string; action: string }) =>
    values[f.block]?.[f.action]?.selected_option?.value || undefined;
  // The continuation inputs in their order; joined as split (see `splitText`).
  const more = Object.keys(values)
    .filter((block) => block.startsWith(CREATE_FIELDS.descriptionMore.blockPrefix))
    .sort(
      (a, b) =>
        Number(a.slice(CREATE_FIELDS.descriptionMore.blockPrefix.length)) -
        Number(b.slice(CREATE_FIELDS.descriptionMore.blockPrefix.length)),
    )
    .map((block) => values[block]?.[CREATE_FIELDS.descriptionMore.action]?.value ?? '');
  const description = [
    values[CREATE_FIELDS.description.block]?.[CREATE_FIELDS.description.action]?.value ?? '',
    ...more,
  ]
    .join('')
    .trim();
  return {
    title: text(CREATE_FIELDS.title) ?? '',
    description: description || undefined,
    deskSlug: selected(CREATE_FIELDS.desk),
    priority: selected(CREATE_FIELDS.priority),
    assetId: selected(CREATE_FIELDS.device),
    customFields: readDeskFields(values),
  };
}

/** Local checks before anything is queued; keys are block ids, as `response_action: errors` wants. */
export function validateCreateForm(form: CreateForm): Record<string, string> | undefined {
  const errors: Record<string, string> = {};
  if (!form.title) errors[CREATE_FIELDS.title.block] = 'Give the ticket a title.';
  else if (Array.from(form.title).length > TITLE_MAX) {
    errors[CREATE_FIELDS.title.block] = `Keep the title under ${TITLE_MAX} characters.`;
  }
  if (form.priority && !(TICKET_PRIORITIES as readonly string[]).includes(form.priority)) {
    errors[CREATE_FIELDS.priority.block] = 'Choose one of the listed priorities.';
  }
  return Object.keys(errors).length > 0 ? errors : undefined;
}

/**
 * A platform 422 on the create form, each issue on the input its `loc` names, as
 * `response_action: errors` wants (keys are block ids of `blockIds`, the view's inputs). A
 * desk field's issue (`["body","custom_fields","<key>"]`) goes on that field's input; when the
 * form does not show it (its fields could not be loaded or swapped in), on the desk input,
 * naming the field, so the person can choose the desk again. Undefined when no issue has an
 * input to go on.
 */
export function platformIssuesToBlocks(
  issues: readonly ValidationIssue[],
  blockIds: ReadonlySet<string>,
  fieldName: (key: string) => string | undefined = () => undefined,
): Record<string, string> | undefined {
  const byField: Record<string, string> = {
    title: CREATE_FIELDS.title.block,
    description: CREATE_FIELDS.description.block,
    desk_id: CREATE_FIELDS.desk.block,
    priority: CREATE_FIELDS.priority.block,
    custom_fields: CREATE_FIELDS.device.block,
  };
  const errors: Record<string, string> = {};
  const add = (block: string | undefined, message: string) => {
    // The request form has no title or desk input: what is wrong with them is its item's.
    const target =
      block && blockIds.has(block)
        ? block
        : blockIds.has(CATALOG_FIELDS.item.block)
          ? CATALOG_FIELDS.item.block
          : undefined;
    if (target && !(target in errors)) errors[target] = truncate(message, 150);
  };
  for (const issue of issues) {
    const [where, field, key] = issue.loc;
    if (where !== 'body' || typeof field !== 'string') continue;
    if (field === 'custom_fields' && key !== undefined) {
      const block = deskFieldBlockId(String(key));
      if (blockIds.has(block)) add(block, issue.msg);
      else {
        const named = `${fieldName(String(key)) ?? String(key)}: ${issue.msg}`;
        const desk = CREATE_FIELDS.desk.block;
        add(blockIds.has(desk) ? desk : CREATE_FIELDS.title.block, named);
      }
      continue;
    }
    add(byField[field], issue.msg);
  }
  return Object.keys(errors).length > 0 ? errors : undefined;
}

/** A modal that stands in while the ticket is being filed, or says it has been. */
export function buildStatusModal(title: string, textMrkdwn: string): ModalView {
  return {
    type: 'modal',
    callback_id: `${VIEWS.createTicket}_status`,
    title: plain(title, LIMITS.modalTitle),
    close: plain('Close', LIMITS.modalSubmit),
    blocks: [{ type: 'section', text: md(truncate(textMrkdwn, LIMITS.sectionText)) }],
  };
}

/**
 * The request form: the create modal for a service-catalog item. The person searches the
 * catalog in an external select (its options come from `catalogOptions`), and the chosen item's
 * description and its desk's fields appear under it. It shares the create modal's callback id,
 * so its submission is the create form's: filed on the item's desk, titled with its name.
 */
import type { KnownBlock, ModalView, PlainTextOption, View } from '@slack/types';
import type { CatalogItem, CustomField } from '../../contract/schemas.ts';
import { CATALOG_FIELDS, CREATE_FIELDS, VIEWS } from '../ids.ts';
import {
  type CreateForm,
  DESCRIPTION_MAX,
  readCreateForm,
  rebuildForDesk,
  TITLE_MAX,
  type ViewStateValues,
} from './create-modal-builder.ts';
import { deskFieldBlocks } from './desk-fields-builder.ts';
import { LIMITS, md, plain, safeMrkdwn, truncate } from './mrkdwn.ts';

/** The custom-field key the chosen catalog item is filed under (the contract's reserved key). */
export const CATALOG_ITEM_FIELD = 'catalog_item_id';

/** The value of the options that stand in for items (the catalog loading, or failing). */
const NO_ITEM = 'none';
// An item's option value: its desk, then its id (ids are opaque; desk slugs never hold "|").
const SEPARATOR = '|';

/** Where the catalog stands when the form is drawn. */
export type CatalogState =
  | { kind: 'ready' }
  | { kind: 'loading' }
  /** The platform has no service catalog (404). */
  | { kind: 'absent' }
  | { kind: 'empty' }
  /** The catalog could not be read; `retryInMs` when the platform said when to ask again. */
  | { kind: 'unavailable'; retryInMs?: number | undefined };

/** What the request form shows. */
export interface RequestModalInput {
  privateMetadata: string;
  catalog: CatalogState;
  /** The chosen (or preselected) item. */
  item?: CatalogItem | undefined;
  /** The name of the item's desk, when known. */
  deskName?: string | undefined;
  /** The item's desk's custom fields. */
  fields?: readonly CustomField[];
}

/** An item as an option of the catalog select. */
export function catalogOption(item: CatalogItem): PlainTextOption {
  const value = `${item.desk_id ?? ''}${SEPARATOR}${item.id}`;
  return {
    text: plain(item.name || item.id, LIMITS.optionText),
    value: truncate(value, LIMITS.optionValue),
  };
}

/**
 * A lone option standing in for items: Slack shows only options under an external select, so
 * a catalog still loading or failing is said as one. Choosing it chooses nothing.
 */
export function placeholderOption(text: string): PlainTextOption {
  return { text: plain(text, LIMITS.optionText), value: NO_ITEM };
}

/** The item an option names: its id and desk; undefined for a placeholder. */
export function catalogChoice(
  value: string | undefined,
): { itemId: string; deskSlug: string | undefined } | undefined {
  if (!value) return undefined;
  const at = value.indexOf(SEPARATOR);
  if (at < 0 || at === value.length - 1) return undefined;
  return { itemId: value.slice(at + 1), deskSlug: value.slice(0, at) || undefined };
}

function stateNotice(state: CatalogState): string | undefined {
  switch (state.kind) {
    case 'ready':
      return undefined;
    case 'loading':
      return '_Loading the service catalog…_';
    case 'absent':
      return ':information_source: This service desk has no service catalog. Close this and use `/ticket` to ask for what you need.';
    case 'empty':
      return ':information_source: The service catalog is empty: there is nothing to request from it yet. Close this and use `/ticket` to ask for what you need.';
    case 'unavailable': {
      const seconds =
        state.retryInMs === undefined ? undefined : Math.max(1, Math.ceil(state.retryInMs / 1000));
      const when = seconds === undefined ? 'in a minute' : `in about ${seconds} seconds`;
      return `:hourglass_flowing_sand: The service catalog could not be loaded just now. Close this and try again ${when}, or use \`/ticket\` to ask for what you need.`;
    }
  }
}

function aboutBlock(item: CatalogItem, deskName: string | undefined): KnownBlock {
  const lines = [`*${safeMrkdwn(item.name, 200)}*`];
  if (item.description) lines.push(safeMrkdwn(item.description, 2_000));
  const desk = deskName ?? item.desk_id;
  if (desk) lines.push(`_Handled by ${safeMrkdwn(desk, 100)}_`);
  return {
    type: 'section',
    block_id: CATALOG_FIELDS.about.block,
    text: md(truncate(lines.join('\n'), LIMITS.sectionText)),
  };
}

function itemBlock(item: CatalogItem | undefined): KnownBlock {
  return {
    type: 'input',
    block_id: CATALOG_FIELDS.item.block,
    // Choosing an item is heard at once, so its description and desk's fields appear.
    dispatch_action: true,
    label: plain('What do you need?', 50),
    element: {
      type: 'external_select',
      action_id: CATALOG_FIELDS.item.action,
      placeholder: plain('Search the catalog: laptop, access, parking…', 150),
      min_query_length: 0,
      ...(item ? { initial_option: catalogOption(item) } : {}),
    },
  };
}

function detailsBlock(): KnownBlock {
  return {
    type: 'input',
    block_id: CREATE_FIELDS.description.block,
    optional: true,
    label: plain('Anything the desk should know?', 50),
    element: {
      type: 'plain_text_input',
      action_id: CREATE_FIELDS.description.action,
      multiline: true,
      max_length: DESCRIPTION_MAX,
      placeholder: plain('Who it is for, by when, anything special', 150),
    },
  };
}

function requestModal(privateMetadata: string, blocks: KnownBlock[], canSubmit: boolean) {
  return {
    type: 'modal',
    callback_id: VIEWS.createTicket,
    title: plain('Request something', LIMITS.modalTitle),
    ...(canSubmit ? { submit: plain('Request', LIMITS.modalSubmit) } : {}),
    close: plain(canSubmit ? 'Cancel' : 'Close', LIMITS.modalSubmit),
    private_metadata: privateMetadata,
    blocks,
  } satisfies ModalView;
}

/** Builds the request form. */
export function buildRequestModal(input: RequestModalInput): ModalView {
  const notice = stateNotice(input.catalog);
  const blocks: KnownBlock[] = [];
  if (input.catalog.kind === 'ready') {
    blocks.push(itemBlock(input.item));
    if (input.item) blocks.push(aboutBlock(input.item, input.deskName));
    blocks.push(detailsBlock());
    blocks.push(...deskFieldBlocks(input.fields ?? []));
  }
  if (notice) blocks.push({ type: 'section', text: md(notice) });
  return requestModal(input.privateMetadata, blocks, input.catalog.kind === 'ready');
}

/**
 * The request form rebuilt for the item the person chose: its description under the select,
 * its desk's fields in place of the previous item's (through the create form's desk rebuild),
 * every input keeping what was typed.
 */
export function rebuildForItem(
  view: Pick<View, 'blocks' | 'private_metadata'>,
  item: CatalogItem,
  deskName: string | undefined,
  fields: readonly CustomField[],
  state: ViewStateValues,
): ModalView {
  const blocks: KnownBlock[] = [];
  for (const block of view.blocks as KnownBlock[]) {
    const id = 'block_id' in block ? block.block_id : undefined;
    if (id === CATALOG_FIELDS.about.block) continue;
    if (id === CATALOG_FIELDS.item.block) {
      blocks.push(itemBlock(item), aboutBlock(item, deskName));
      continue;
    }
    blocks.push(block);
  }
  const rebuilt = rebuildForDesk({ ...view, blocks }, fields, state);
  return requestModal(rebuilt.private_metadata ?? '', rebuilt.blocks as KnownBlock[], true);
}

/**
 * A submitted request form read as a create form: titled with the chosen item's name (the kept
 * catalog's, else the option's), on its desk, with `custom_fields.catalog_item_id`; or the
 * error to show on the select when no item was chosen. Undefined for any other form.
 */
export function readRequestForm(
  values: ViewStateValues,
  items: readonly CatalogItem[] | undefined,
): { form: CreateForm } | { errors: Record<string, string> } | undefined {
  const select = values[CATALOG_FIELDS.item.block]?.[CATALOG_FIELDS.item.action];
  if (!select) return undefined;
  const chosen = catalogChoice(select.selected_option?.value);
  if (!chosen) {
    return {
      errors: { [CATALOG_FIELDS.item.block]: 'Choose an item of the catalog from the list.' },
    };
  }
  const kept = items?.find((item) => item.id === chosen.itemId);
  // Slack sends the chosen option whole, its text too (the state type declares only its value).
  const shown = (select.selected_option as { text?: { text?: string } } | null | undefined)?.text;
  const name = kept?.name || shown?.text || chosen.itemId;
  const form = readCreateForm(values);
  return {
    form: {
      ...form,
      title: truncate(name, TITLE_MAX),
      deskSlug: kept ? (kept.desk_id ?? undefined) : chosen.deskSlug,
      customFields: { ...form.customFields, [CATALOG_ITEM_FIELD]: chosen.itemId },
    },
  };
}

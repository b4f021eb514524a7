import type { KnownBlock } from '@slack/types';
import { describe, expect, it } from 'vitest';
import type { CatalogItem, CustomField } from '../../../src/contract/schemas.ts';
import { platformIssuesToBlocks } from '../../../src/slack/builders/create-modal-builder.ts';
import {
  buildRequestModal,
  catalogChoice,
  catalogOption,
  readRequestForm,
  rebuildForItem,
} from '../../../src/slack/builders/request-modal-builder.ts';

const laptop: CatalogItem = {
  id: 'cat_001',
  name: 'New laptop',
  description: 'A standard laptop with the company image.',
  desk_id: 'it-hardware',
};
const onboarding: CatalogItem = {
  id: 'cat_006',
  name: 'New hire onboarding',
  description: 'Accounts, equipment and a desk for a new colleague.',
  desk_id: 'hr',
};
const serial: CustomField = {
  key: 'serial_number',
  name: 'Serial number',
  desk_id: 'it-hardware',
  type: 'text',
  required: false,
};
const startDate: CustomField = {
  key: 'start_date',
  name: 'Start date',
  desk_id: 'hr',
  type: 'date',
  required: true,
};

const ids = (blocks: readonly unknown[]) =>
  (blocks as KnownBlock[]).map((block) => ('block_id' in block && block.block_id) || block.type);

const selected = (item: CatalogItem) => ({
  catalog_item: {
    catalog_item_select: {
      type: 'external_select',
      selected_option: catalogOption(item) as { value: string },
    },
  },
});

describe('the request form', () => {
  it('opens with the catalog select, heard at once, searching from the first keystroke', () => {
    const view = buildRequestModal({ privateMetadata: '{}', catalog: { kind: 'ready' } });
    expect(view.callback_id).toBe('create_ticket');
    expect(ids(view.blocks)).toEqual(['catalog_item', 'description']);
    expect(view.blocks[0]).toMatchObject({
      dispatch_action: true,
      element: { type: 'external_select', action_id: 'catalog_item_select', min_query_length: 0 },
    });
    expect(view.submit).toBeDefined();
  });

  it('shows a preselected item with its description, its desk by name and its desk’s fields', () => {
    const view = buildRequestModal({
      privateMetadata: '{}',
      catalog: { kind: 'ready' },
      item: laptop,
      deskName: 'Hardware',
      fields: [serial],
    });
    expect(ids(view.blocks)).toEqual([
      'catalog_item',
      'catalog_item_about',
      'description',
      'cf_serial_number',
    ]);
    expect(view.blocks[0]).toMatchObject({ element: { initial_option: catalogOption(laptop) } });
    const about = JSON.stringify(view.blocks[1]);
    expect(about).toContain('A standard laptop with the company image.');
    expect(about).toContain('Handled by Hardware');
  });

  it('escapes an item’s name and description', () => {
    const view = buildRequestModal({
      privateMetadata: '{}',
      catalog: { kind: 'ready' },
      item: { ...laptop, name: '<!channel> laptop', description: 'a <@U123> b' },
    });
    const about = JSON.stringify(view.blocks[1]);
    expect(about).not.toContain('<!channel>');
    expect(about).not.toContain('<@U123>');
  });

  it('says the catalog is empty, without a select or a submit button', () => {
    const view = buildRequestModal({ privateMetadata: '{}', catalog: { kind: 'empty' } });
    expect(JSON.stringify(view.blocks)).toContain('The service catalog is empty');
    expect(ids(view.blocks)).not.toContain('catalog_item');
    expect(view.submit).toBeUndefined();
  });

  it('says the service desk has no catalog', () => {
    const view = buildRequestModal({ privateMetadata: '{}', catalog: { kind: 'absent' } });
    expect(JSON.stringify(view.blocks)).toContain('This service desk has no service catalog');
  });

  it('says when the catalog can be asked for again when it cannot be loaded', () => {
    const view = buildRequestModal({
      privateMetadata: '{}',
      catalog: { kind: 'unavailable', retryInMs: 30_000 },
    });
    expect(JSON.stringify(view.blocks)).toContain('try again in about 30 seconds');
  });

  it('says it is loading while the catalog is read', () => {
    const view = buildRequestModal({ privateMetadata: '{}', catalog: { kind: 'loading' } });
    expect(JSON.stringify(view.blocks)).toContain('Loading the service catalog');
    expect(view.submit).toBeUndefined();
  });
});

describe('catalog options', () => {
  it('carries the item’s desk and id, read back as they were', () => {
    expect(catalogChoice(catalogOption(laptop).value)).toEqual({
      itemId: 'cat_001',
      deskSlug: 'it-hardware',
    });
  });

  it('reads an item without a desk', () => {
    expect(catalogChoice(catalogOption({ ...laptop, desk_id: null }).value)).toEqual({
      itemId: 'cat_001',
      deskSlug: undefined,
    });
  });

  it('keeps an id holding the separator whole', () => {
    expect(catalogChoice('it|cat|7')).toEqual({ itemId: 'cat|7', deskSlug: 'it' });
  });

  it('reads a placeholder as no item', () => {
    expect(catalogChoice('none')).toBeUndefined();
  });
});

describe('rebuildForItem', () => {
  it('swaps the previous item’s description and desk fields for the new item’s, keeping what was typed', () => {
    const before = buildRequestModal({
      privateMetadata: '{"channel":"C1"}',
      catalog: { kind: 'ready' },
      item: laptop,
      fields: [serial],
    });
    const view = rebuildForItem(before, onboarding, 'People', [startDate], {
      description: { description_input: { type: 'plain_text_input', value: 'Kim, sales team' } },
      cf_serial_number: { 'custom_field_text.serial_number': { value: 'SN1' } },
    });
    expect(ids(view.blocks)).toEqual([
      'catalog_item',
      'catalog_item_about',
      'description',
      'cf_start_date',
    ]);
    expect(view.blocks[0]).toMatchObject({
      element: { initial_option: catalogOption(onboarding) },
    });
    expect(JSON.stringify(view.blocks[1])).toContain('Handled by People');
    expect(view.blocks[2]).toMatchObject({ element: { initial_value: 'Kim, sales team' } });
    expect(view.private_metadata).toBe('{"channel":"C1"}');
    expect(view.title).toMatchObject({ text: 'Request something' });
    expect(view.submit).toMatchObject({ text: 'Request' });
  });
});

describe('readRequestForm', () => {
  it('reads the chosen item as a ticket on its desk, titled with its name and recording the item', () => {
    const read = readRequestForm(
      {
        ...selected(laptop),
        description: { description_input: { value: 'For Kim' } },
        cf_serial_number: { 'custom_field_text.serial_number': { value: 'SN1' } },
      },
      [laptop],
    );
    expect(read).toEqual({
      form: expect.objectContaining({
        title: 'New laptop',
        description: 'For Kim',
        deskSlug: 'it-hardware',
        customFields: { serial_number: 'SN1', catalog_item_id: 'cat_001' },
      }),
    });
  });

  it('takes the name and desk from the chosen option when the catalog is not kept here', () => {
    const read = readRequestForm(selected(onboarding), undefined);
    expect(read).toEqual({
      form: expect.objectContaining({ title: 'New hire onboarding', deskSlug: 'hr' }),
    });
  });

  it('asks for an item on the select when a placeholder was chosen', () => {
    const read = readRequestForm(
      {
        catalog_item: {
          catalog_item_select: { selected_option: { value: 'none' } },
        },
      },
      [laptop],
    );
    expect(read).toEqual({ errors: { catalog_item: expect.stringContaining('Choose an item') } });
  });

  it('leaves any other form alone', () => {
    expect(readRequestForm({ title: { title_input: { value: 'x' } } }, [laptop])).toBeUndefined();
  });
});

describe('a platform 422 on the request form', () => {
  const blocks = new Set(['catalog_item', 'description', 'cf_floor']);

  it('shows a desk field’s issue on its input', () => {
    const errors = platformIssuesToBlocks(
      [{ loc: ['body', 'custom_fields', 'floor'], msg: 'Not a number', type: 'type_error' }],
      blocks,
    );
    expect(errors).toEqual({ cf_floor: 'Not a number' });
  });

  it('shows an issue with a field the form does not show, or with the desk, on the item’s select', () => {
    const errors = platformIssuesToBlocks(
      [
        { loc: ['body', 'custom_fields', 'start_date'], msg: 'Field required', type: 'missing' },
        { loc: ['body', 'desk_id'], msg: 'Unknown desk', type: 'value_error' },
      ],
      blocks,
      () => 'Start date',
    );
    expect(errors).toEqual({ catalog_item: 'Start date: Field required' });
  });
});

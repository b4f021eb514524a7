import type { KnownBlock } from '@slack/types';
import { describe, expect, it } from 'vitest';
import type { CustomField } from '../../../src/contract/schemas.ts';
import {
  buildCreateModal,
  platformIssuesToBlocks,
  readCreateForm,
  rebuildForDesk,
  type ViewStateValues,
  validateCreateForm,
} from '../../../src/slack/builders/create-modal-builder.ts';

const desks = [
  { slug: 'it', name: 'IT' },
  { slug: 'it-hardware', name: 'Hardware', parent_slug: 'it' },
  { slug: 'hr', name: 'HR' },
];

describe('create modal', () => {
  it('preselects the desk the channel routes to', () => {
    const view = buildCreateModal({ privateMetadata: '{}', desks, deskSlug: 'hr' });
    const desk = view.blocks.find((b) => b.block_id === 'desk');
    expect(JSON.stringify(desk)).toContain(
      '"initial_option":{"text":{"type":"plain_text","text":"HR"',
    );
  });

  it('labels a subdesk with its parent', () => {
    const view = buildCreateModal({ privateMetadata: '{}', desks });
    expect(JSON.stringify(view)).toContain('IT › Hardware');
  });

  it('fills the title from the command text', () => {
    const view = buildCreateModal({
      privateMetadata: '{}',
      desks,
      title: 'Printer on 3rd floor jams',
    });
    expect(JSON.stringify(view.blocks[0])).toContain('"initial_value":"Printer on 3rd floor jams"');
  });

  it('offers the person’s devices only when they have some', () => {
    expect(JSON.stringify(buildCreateModal({ privateMetadata: '{}', desks }))).not.toContain(
      'device',
    );
    const view = buildCreateModal({
      privateMetadata: '{}',
      desks,
      assets: [{ id: 'a1', name: 'MacBook Pro', serial_number: 'C02X' }],
    });
    expect(JSON.stringify(view)).toContain('MacBook Pro (C02X)');
  });

  it('reads submitted values back', () => {
    const form = readCreateForm({
      title: { title_input: { value: '  Laptop is slow ' } },
      description: { description_input: { value: null } },
      desk: { desk_select: { selected_option: { value: 'it' } } },
      priority: { priority_select: { selected_option: { value: 'high' } } },
    });
    expect(form).toEqual({
      title: 'Laptop is slow',
      description: undefined,
      deskSlug: 'it',
      priority: 'high',
      assetId: undefined,
      customFields: {},
    });
  });

  it('spreads a description longer than one input over continuation inputs and reads it back whole', () => {
    const description = Array.from({ length: 1_500 }, (_, i) => `line ${i} of the log`).join('\n');
    const view = buildCreateModal({
      privateMetadata: '{}',
      desks: [],
      title: 'Crash log',
      description,
    });
    type TextInput = { block_id: string; element: { initial_value?: string; action_id: string } };
    const inputs = (view.blocks as (KnownBlock & Partial<TextInput>)[]).filter(
      (b): b is KnownBlock & TextInput =>
        b.type === 'input' && (b.block_id?.startsWith('description') ?? false),
    );
    expect(inputs.length).toBeGreaterThan(1);
    for (const input of inputs)
      expect(Array.from(input.element.initial_value ?? '').length).toBeLessThanOrEqual(3000);
    const values: ViewStateValues = { title: { title_input: { value: 'Crash log' } } };
    for (const input of inputs)
      values[input.block_id] = {
        [input.element.action_id]: { value: input.element.initial_value },
      };
    expect(readCreateForm(values).description).toBe(description);
    expect(validateCreateForm(readCreateForm(values))).toBeUndefined();
  });

  it('asks for a title when it is only whitespace', () => {
    const form = readCreateForm({ title: { title_input: { value: '   ' } } });
    expect(validateCreateForm(form)).toEqual({ title: 'Give the ticket a title.' });
  });

  it('puts a platform field error on the field its loc names', () => {
    const issues = [
      { loc: ['body', 'title'], msg: 'Field required', type: 'missing' },
      { loc: ['body', 'desk_id'], msg: 'Unknown desk', type: 'value_error' },
    ];
    expect(platformIssuesToBlocks(issues, new Set(['title', 'desk']))).toEqual({
      title: 'Field required',
      desk: 'Unknown desk',
    });
  });
});

const hrFields: CustomField[] = [
  { key: 'start_date', name: 'Start date', desk_id: 'hr', type: 'date', required: true },
  { key: 'manager_email', name: 'Manager’s email', desk_id: 'hr', type: 'email', required: true },
];
const itFields: CustomField[] = [
  {
    key: 'device_type',
    name: 'Device type',
    desk_id: 'it',
    type: 'select',
    required: false,
    options: [
      { value: 'laptop', label: 'Laptop' },
      { value: 'phone', label: 'Phone' },
    ],
  },
];

const blockIds = (blocks: readonly unknown[]) =>
  (blocks as KnownBlock[]).map((b) => ('block_id' in b ? b.block_id : b.type));

describe('create modal with desk fields', () => {
  it('shows the desk’s fields after the common inputs, before the notes', () => {
    const view = buildCreateModal({
      privateMetadata: '{}',
      desks,
      deskSlug: 'hr',
      fields: hrFields,
      loading: true,
    });
    expect(blockIds(view.blocks)).toEqual([
      'title',
      'description',
      'desk',
      'priority',
      'cf_start_date',
      'cf_manager_email',
      'context',
    ]);
  });

  it('hears the desk select at once, so the form can swap its fields', () => {
    const view = buildCreateModal({ privateMetadata: '{}', desks });
    const desk = view.blocks.find((b) => b.block_id === 'desk');
    expect(desk).toMatchObject({ type: 'input', dispatch_action: true });
  });

  it('keeps the form within Slack’s 100 blocks with a long description and many fields', () => {
    const fields = Array.from(
      { length: 40 },
      (_, i): CustomField => ({
        key: `k${i}`,
        name: `Field ${i}`,
        type: 'text',
        required: false,
      }),
    );
    const view = buildCreateModal({
      privateMetadata: '{}',
      desks,
      context: 'From a message',
      description: 'x'.repeat(3000 * 90),
      fields,
      assets: [{ id: 'a1', name: 'Laptop' }],
      loading: true,
      listsNotice: 'notice',
    });
    expect(view.blocks.length).toBeLessThanOrEqual(100);
    expect(view.blocks.filter((b) => b.block_id?.startsWith('cf_'))).toHaveLength(40);
  });

  it('swaps one desk’s fields for another’s, keeping every typed value', () => {
    const view = buildCreateModal({
      privateMetadata: '{"channel":"C1"}',
      desks,
      deskSlug: 'it',
      fields: itFields,
      listsNotice: 'a note',
    });
    const state: ViewStateValues = {
      title: { title_input: { value: 'New starter' } },
      description: { description_input: { value: 'Joins the sales team' } },
      desk: { desk_select: { selected_option: { value: 'hr' } } },
      priority: { priority_select: { selected_option: { value: 'high' } } },
      cf_device_type: {
        'custom_field_select.device_type': { selected_option: { value: 'laptop' } },
      },
    };
    const rebuilt = rebuildForDesk(view, hrFields, state);
    expect(blockIds(rebuilt.blocks)).toEqual([
      'title',
      'description',
      'desk',
      'priority',
      'cf_start_date',
      'cf_manager_email',
      'context',
    ]);
    expect(rebuilt.private_metadata).toBe('{"channel":"C1"}');
    expect(rebuilt.callback_id).toBe('create_ticket');
    const form = readCreateForm(submittedAsIs(rebuilt.blocks));
    expect(form).toMatchObject({
      title: 'New starter',
      description: 'Joins the sales team',
      deskSlug: 'hr',
      priority: 'high',
    });
  });

  it('keeps a value of a key both desks define', () => {
    const view = buildCreateModal({ privateMetadata: '{}', desks, fields: itFields });
    const hardware = [{ ...itFields[0], desk_id: 'it-hardware', required: true }] as CustomField[];
    const rebuilt = rebuildForDesk(view, hardware, {
      cf_device_type: {
        'custom_field_select.device_type': { selected_option: { value: 'phone' } },
      },
    });
    expect(readCreateForm(submittedAsIs(rebuilt.blocks)).customFields).toEqual({
      device_type: 'phone',
    });
  });

  it('drops the fields when the desk is cleared', () => {
    const view = buildCreateModal({ privateMetadata: '{}', desks, fields: hrFields });
    const rebuilt = rebuildForDesk(view, [], {});
    expect(blockIds(rebuilt.blocks).filter((id) => String(id).startsWith('cf_'))).toEqual([]);
  });

  it('puts a desk field’s 422 on its input', () => {
    const issues = [
      { loc: ['body', 'custom_fields', 'manager_email'], msg: 'Field required', type: 'missing' },
    ];
    expect(platformIssuesToBlocks(issues, new Set(['title', 'desk', 'cf_manager_email']))).toEqual({
      cf_manager_email: 'Field required',
    });
  });

  it('puts a 422 on a desk field the form does not show on the desk input, naming the field', () => {
    const issues = [
      { loc: ['body', 'custom_fields', 'start_date'], msg: 'Field required', type: 'missing' },
    ];
    expect(
      platformIssuesToBlocks(issues, new Set(['title', 'desk']), (key) =>
        key === 'start_date' ? 'Start date' : undefined,
      ),
    ).toEqual({ desk: 'Start date: Field required' });
  });

  it('puts it on the title when the form has no desk input either', () => {
    const issues = [{ loc: ['body', 'custom_fields', 'start_date'], msg: 'Bad', type: 'x' }];
    expect(platformIssuesToBlocks(issues, new Set(['title']))).toEqual({
      title: 'start_date: Bad',
    });
  });
});

/** The state a submission of these blocks carries when nobody changes anything. */
function submittedAsIs(blocks: readonly unknown[]): ViewStateValues {
  const values: ViewStateValues = {};
  for (const block of blocks as KnownBlock[]) {
    if (block.type !== 'input' || !block.block_id) continue;
    const element = block.element as unknown as Record<string, unknown> & { action_id: string };
    values[block.block_id] = {
      [element.action_id]: {
        value: (element.initial_value as string | undefined) ?? null,
        selected_option: (element.initial_option as { value: string } | undefined) ?? null,
        selected_date: (element.initial_date as string | undefined) ?? null,
      },
    };
  }
  return values;
}

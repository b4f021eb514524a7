import type { KnownBlock } from '@slack/types';
import { describe, expect, it } from 'vitest';
import {
  buildCreateModal,
  platformErrorsToBlocks,
  readCreateForm,
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
    expect(platformErrorsToBlocks({ title: 'Field required', desk_id: 'Unknown desk' })).toEqual({
      title: 'Field required',
      desk: 'Unknown desk',
    });
  });
});

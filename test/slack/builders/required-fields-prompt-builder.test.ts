import { describe, expect, it } from 'vitest';
import type { CustomField } from '../../../src/contract/schemas.ts';
import { readCreateForm } from '../../../src/slack/builders/create-modal-builder.ts';
import {
  buildDeskDetailsModal,
  buildDeskDetailsPrompt,
  decodeDeskDetailsMetadata,
  encodeDeskDetailsMetadata,
  fieldsToAsk,
} from '../../../src/slack/builders/required-fields-prompt-builder.ts';
import { ACTIONS, VIEWS } from '../../../src/slack/ids.ts';

type Block = {
  type: string;
  block_id?: string;
  optional?: boolean;
  element?: { initial_value?: string; action_id?: string };
  elements?: { action_id?: string; value?: string; text?: { text: string } }[];
};

const field = (key: string, required: boolean): CustomField => ({
  key,
  name: key.replace('_', ' '),
  desk_id: 'hr',
  type: 'text',
  required,
  options: null,
  help: null,
});

describe('buildDeskDetailsPrompt', () => {
  const prompt = buildDeskDetailsPrompt({
    deskName: 'People <!channel>',
    fieldNames: ['Start date', 'Manager’s email'],
    title: 'Laptop for <@U0BOB>',
    pendingKey: 'msg:C1:1.2',
  });

  it('names the desk and each field it needs, escaped', () => {
    expect(prompt.text).toContain('*People &lt;!channel&gt;* desk');
    expect(prompt.text).toContain('*Start date*, *Manager’s email*');
    expect(prompt.text).toContain('nothing you wrote is lost');
    expect(JSON.stringify(prompt.blocks)).toContain('Laptop for &lt;@U0BOB&gt;');
  });

  it('carries the kept filing’s key on its “Add the details” button', () => {
    const actions = (prompt.blocks as Block[]).find((b) => b.type === 'actions');
    expect(actions?.elements?.[0]).toMatchObject({
      action_id: ACTIONS.addDeskDetails,
      value: 'msg:C1:1.2',
      text: { text: 'Add the details' },
    });
  });
});

describe('buildDeskDetailsModal', () => {
  const fields = [field('start_date', true), field('team_name', false)];

  it('keeps the words and asks for the fields, without desk or priority choices', () => {
    const modal = buildDeskDetailsModal({
      privateMetadata: encodeDeskDetailsMetadata('msg:C1:1.2'),
      deskName: 'HR',
      fields,
      title: 'Laptop for Kim',
      description: 'She starts Monday',
    });
    expect(modal.callback_id).toBe(VIEWS.deskDetails);
    const blocks = modal.blocks as Block[];
    const ids = blocks.map((b) => b.block_id ?? b.type);
    expect(ids).toEqual(['context', 'title', 'description', 'cf_start_date', 'cf_team_name']);
    const byId = new Map(blocks.map((b) => [b.block_id, b]));
    expect(byId.get('title')?.element?.initial_value).toBe('Laptop for Kim');
    expect(byId.get('description')?.element?.initial_value).toBe('She starts Monday');
    expect(byId.get('cf_start_date')?.optional).toBe(false);
  });

  it('spreads a long description over inputs that read back whole', () => {
    const description = 'x'.repeat(7_000);
    const modal = buildDeskDetailsModal({
      privateMetadata: '{}',
      deskName: 'HR',
      fields,
      title: 'Long',
      description,
    });
    const values: Record<string, Record<string, { type: string; value: string }>> = {};
    for (const block of modal.blocks as Block[]) {
      const action = block.element?.action_id;
      if (block.block_id && action && block.element?.initial_value !== undefined) {
        values[block.block_id] = {
          [action]: { type: 'plain_text_input', value: block.element.initial_value },
        };
      }
    }
    expect(readCreateForm(values).description).toBe(description);
  });

  it('shows a notice under the form when one is given', () => {
    const modal = buildDeskDetailsModal({
      privateMetadata: '{}',
      deskName: 'HR',
      fields: [],
      title: 'T',
      notice: '_Loading…_',
    });
    expect(JSON.stringify((modal.blocks as Block[]).at(-1))).toContain('Loading');
  });
});

describe('fieldsToAsk', () => {
  it('asks for the required fields and any the platform named', () => {
    const fields = [field('a', true), field('b', false), field('c', false)];
    expect(fieldsToAsk(fields, ['c']).map((f) => f.key)).toEqual(['a', 'c']);
  });
});

describe('the details form’s metadata', () => {
  it('round-trips the kept filing’s key', () => {
    expect(decodeDeskDetailsMetadata(encodeDeskDetailsMetadata('msg:C1:1.2'))).toBe('msg:C1:1.2');
  });

  it('reads anything else as no key', () => {
    expect(decodeDeskDetailsMetadata('not json')).toBeUndefined();
    expect(decodeDeskDetailsMetadata('{"channel":"C1"}')).toBeUndefined();
    expect(decodeDeskDetailsMetadata(undefined)).toBeUndefined();
  });
});

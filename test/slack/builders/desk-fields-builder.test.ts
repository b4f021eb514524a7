import type { InputBlock, KnownBlock } from '@slack/types';
import { describe, expect, it } from 'vitest';
import type { CustomField } from '../../../src/contract/schemas.ts';
import {
  deskFieldBlocks,
  deskFieldsSection,
  readDeskFields,
  withTypedValue,
} from '../../../src/slack/builders/desk-fields-builder.ts';

const def = (overrides: Partial<CustomField> & Pick<CustomField, 'key' | 'type'>): CustomField => ({
  name: overrides.key,
  desk_id: 'it',
  required: false,
  ...overrides,
});

const options = (n: number, label = (i: number) => `Option ${i}`) =>
  Array.from({ length: n }, (_, i) => ({ value: `v${i}`, label: label(i) }));

const elementOf = (block: InputBlock | undefined) =>
  block?.element as unknown as Record<string, unknown> & { type: string };

describe('desk field inputs', () => {
  it.each([
    ['text', 'plain_text_input'],
    ['textarea', 'plain_text_input'],
    ['number', 'number_input'],
    ['select', 'static_select'],
    ['multi_select', 'multi_static_select'],
    ['date', 'datepicker'],
    ['email', 'email_text_input'],
  ] as const)('shows a %s field as a %s', (type, element) => {
    const [block] = deskFieldBlocks([def({ key: 'f', type, options: options(2) })]);
    expect(block?.block_id).toBe('cf_f');
    expect(elementOf(block).type).toBe(element);
    expect(elementOf(block).action_id).toBe(`custom_field_${type}.f`);
  });

  it('makes a textarea multiline and a number whole', () => {
    const [area, number] = deskFieldBlocks([
      def({ key: 'a', type: 'textarea' }),
      def({ key: 'n', type: 'number' }),
    ]);
    expect(elementOf(area).multiline).toBe(true);
    expect(elementOf(number).is_decimal_allowed).toBe(false);
  });

  it('requires the input exactly where the platform requires the field', () => {
    const [required, optional] = deskFieldBlocks([
      def({ key: 'r', type: 'text', required: true }),
      def({ key: 'o', type: 'text' }),
    ]);
    expect(required?.optional).toBe(false);
    expect(optional?.optional).toBe(true);
  });

  it('labels the input with the field’s name and shows its help as the hint', () => {
    const [block] = deskFieldBlocks([
      def({ key: 'start_date', name: 'Start date', type: 'date', help: 'The first day.' }),
    ]);
    expect(block?.label.text).toBe('Start date');
    expect(block?.hint?.text).toBe('The first day.');
  });

  it('cuts option text to Slack’s 75 characters', () => {
    const [block] = deskFieldBlocks([
      def({ key: 's', type: 'select', options: options(1, () => 'x'.repeat(200)) }),
    ]);
    const [option] = elementOf(block).options as { text: { text: string }; value: string }[];
    expect(option?.text.text.length).toBeLessThanOrEqual(75);
    expect(option?.value).toBe('v0');
  });

  it('spreads more than 100 options over groups of 100, none lost', () => {
    const [block] = deskFieldBlocks([def({ key: 's', type: 'select', options: options(250) })]);
    const groups = elementOf(block).option_groups as { options: unknown[] }[];
    expect(elementOf(block).options).toBeUndefined();
    expect(groups.map((group) => group.options.length)).toEqual([100, 100, 50]);
  });

  it('leaves out an option whose value Slack cannot carry, rather than send a cut one', () => {
    const [block] = deskFieldBlocks([
      def({
        key: 's',
        type: 'select',
        options: [
          { value: 'ok', label: 'OK' },
          { value: 'v'.repeat(151), label: 'Too long' },
        ],
      }),
    ]);
    expect((elementOf(block).options as unknown[]).length).toBe(1);
  });

  it('leaves out a field of a type it does not know and a select without options', () => {
    const blocks = deskFieldBlocks([
      def({ key: 'sig', type: 'signature' }),
      def({ key: 'empty', type: 'select', options: [] }),
      def({ key: 'ok', type: 'text' }),
    ]);
    expect(blocks.map((block) => block.block_id)).toEqual(['cf_ok']);
  });

  it('shows a key defined twice once', () => {
    const blocks = deskFieldBlocks([
      def({ key: 'a', type: 'text' }),
      def({ key: 'a', type: 'email' }),
    ]);
    expect(blocks).toHaveLength(1);
  });

  it('shows at most the given number of fields', () => {
    const many = Array.from({ length: 60 }, (_, i) => def({ key: `k${i}`, type: 'text' }));
    expect(deskFieldBlocks(many)).toHaveLength(40);
    expect(deskFieldBlocks(many, {}, 5)).toHaveLength(5);
  });

  it('starts each input with the value typed before the form was rebuilt', () => {
    const blocks = deskFieldBlocks(
      [
        def({ key: 't', type: 'text' }),
        def({ key: 's', type: 'select', options: options(3) }),
        def({ key: 'm', type: 'multi_select', options: options(3) }),
        def({ key: 'd', type: 'date' }),
        def({ key: 'n', type: 'number' }),
      ],
      {
        cf_t: { 'custom_field_text.t': { value: 'typed' } },
        cf_s: { 'custom_field_select.s': { selected_option: { value: 'v2' } } },
        cf_m: {
          'custom_field_multi_select.m': { selected_options: [{ value: 'v0' }, { value: 'v9' }] },
        },
        cf_d: { 'custom_field_date.d': { selected_date: '2026-12-01' } },
        cf_n: { 'custom_field_number.n': { value: '3' } },
      },
    );
    const [text, select, multi, date, number] = blocks.map(elementOf);
    expect(text?.initial_value).toBe('typed');
    expect(select?.initial_option).toMatchObject({ value: 'v2' });
    expect(multi?.initial_options).toEqual([expect.objectContaining({ value: 'v0' })]);
    expect(date?.initial_date).toBe('2026-12-01');
    expect(number?.initial_value).toBe('3');
  });

  it('does not carry a value typed into the same key of another type', () => {
    const [block] = deskFieldBlocks([def({ key: 'k', type: 'select', options: options(2) })], {
      cf_k: { 'custom_field_text.k': { value: 'v1' } },
    });
    expect(elementOf(block).initial_option).toBeUndefined();
  });
});

describe('what was typed, kept on rebuild', () => {
  const title: KnownBlock = {
    type: 'input',
    block_id: 'title',
    label: { type: 'plain_text', text: 'Title' },
    element: { type: 'plain_text_input', action_id: 'title_input', initial_value: 'old' },
  };

  it('sets a text input’s initial value to what was typed', () => {
    const block = withTypedValue(title, { title_input: { value: 'new' } }) as InputBlock;
    expect(elementOf(block).initial_value).toBe('new');
  });

  it('starts a cleared input empty', () => {
    const block = withTypedValue(title, { title_input: { value: null } }) as InputBlock;
    expect(elementOf(block).initial_value).toBeUndefined();
  });

  it('leaves an input whose state Slack did not send as it was', () => {
    expect(withTypedValue(title, undefined)).toBe(title);
  });
});

describe('reading desk fields back', () => {
  it('reads each type into the value the platform takes, leaving empty ones out', () => {
    expect(
      readDeskFields({
        title: { title_input: { value: 'not a desk field' } },
        cf_t: { 'custom_field_text.t': { value: ' Berlin ' } },
        cf_a: { 'custom_field_textarea.a': { value: 'line 1\nline 2' } },
        cf_n: { 'custom_field_number.n': { value: '42' } },
        cf_s: { 'custom_field_select.s': { selected_option: { value: 'laptop' } } },
        cf_m: {
          'custom_field_multi_select.m': { selected_options: [{ value: 'vpn' }, { value: 'sso' }] },
        },
        cf_d: { 'custom_field_date.d': { selected_date: '2026-12-01' } },
        cf_e: { 'custom_field_email.e': { value: 'lena@acme.example' } },
        cf_empty: { 'custom_field_text.empty': { value: '  ' } },
        cf_none: { 'custom_field_select.none': { selected_option: null } },
        cf_nomulti: { 'custom_field_multi_select.nomulti': { selected_options: [] } },
      }),
    ).toEqual({
      t: 'Berlin',
      a: 'line 1\nline 2',
      n: 42,
      s: 'laptop',
      m: ['vpn', 'sso'],
      d: '2026-12-01',
      e: 'lena@acme.example',
    });
  });
});

describe('custom fields on the card', () => {
  const fields = [
    def({
      key: 'device_type',
      name: 'Device type',
      type: 'select',
      options: [{ value: 'laptop', label: 'Laptop' }],
    }),
    def({
      key: 'systems',
      name: 'Systems',
      type: 'multi_select',
      options: [
        { value: 'vpn', label: 'VPN' },
        { value: 'sso', label: 'Single sign-on' },
      ],
    }),
    def({ key: 'floor', name: 'Floor', type: 'number' }),
    def({ key: 'office', name: 'Office', type: 'text' }),
  ];

  it('shows each value under its field’s name, a select by its label', () => {
    const section = deskFieldsSection(
      { device_type: 'laptop', systems: ['vpn', 'sso'], floor: 3, affected_asset_id: 'ast_1' },
      fields,
    );
    expect(section?.fields?.map((f) => f.text)).toEqual([
      '*Device type*\nLaptop',
      '*Systems*\nVPN, Single sign-on',
      '*Floor*\n3',
    ]);
  });

  it('shows nothing when the ticket has no value of its desk’s fields', () => {
    expect(deskFieldsSection({ affected_asset_id: 'ast_1' }, fields)).toBeUndefined();
    expect(deskFieldsSection(null, fields)).toBeUndefined();
  });

  it('escapes what the platform holds', () => {
    const section = deskFieldsSection({ office: '<!channel> *bold*' }, fields);
    expect(section?.fields?.[0]?.text).not.toContain('<!channel>');
  });
});

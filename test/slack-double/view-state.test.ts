import { describe, expect, it } from 'vitest';
import { interactiveElements } from '../../tools/slack-double/block-kit.ts';
import {
  RequiredInputMissingError,
  type SlackView,
  UnknownInputError,
  UnknownOptionError,
} from '../../tools/slack-double/index.ts';
import { actionEntry, submissionState } from '../../tools/slack-double/view-state.ts';

const high = { text: { type: 'plain_text', text: 'High' }, value: 'high' };
const low = { text: { type: 'plain_text', text: 'Low' }, value: 'low' };

function input(blockId: string, element: Record<string, unknown>, optional = false) {
  return {
    type: 'input',
    block_id: blockId,
    optional,
    label: { type: 'plain_text', text: blockId },
    element,
  };
}

function viewWith(blocks: unknown[]): SlackView {
  return {
    id: 'V0TEST',
    team_id: 'T0001',
    type: 'modal',
    title: { type: 'plain_text', text: 'Test' },
    close: null,
    submit: { type: 'plain_text', text: 'Send' },
    blocks,
    private_metadata: '',
    callback_id: 'test',
    external_id: '',
    state: { values: {} },
    hash: '1.abc',
    clear_on_close: false,
    notify_on_close: false,
    submit_disabled: false,
    root_view_id: 'V0TEST',
    previous_view_id: null,
    app_id: 'A0001',
    app_installed_team_id: 'T0001',
    bot_id: 'B0001',
  };
}

describe('view state in Slack shapes', () => {
  it('gives a plain text input its value', () => {
    const view = viewWith([input('title', { type: 'plain_text_input', action_id: 'title_input' })]);
    expect(submissionState(view, { title_input: 'VPN down' })).toEqual({
      title: { title_input: { type: 'plain_text_input', value: 'VPN down' } },
    });
  });

  it('gives a static select the whole chosen option, text included', () => {
    const view = viewWith([
      input('priority', { type: 'static_select', action_id: 'p', options: [low, high] }),
    ]);
    expect(submissionState(view, { p: 'high' })).toEqual({
      priority: { p: { type: 'static_select', selected_option: high } },
    });
  });

  it('finds options inside option groups', () => {
    const view = viewWith([
      input('priority', {
        type: 'static_select',
        action_id: 'p',
        option_groups: [{ label: { type: 'plain_text', text: 'All' }, options: [low, high] }],
      }),
    ]);
    expect(submissionState(view, { p: 'low' }).priority?.p?.selected_option).toEqual(low);
  });

  it('gives a users select the selected user', () => {
    const view = viewWith([input('who', { type: 'users_select', action_id: 'who_select' })]);
    expect(submissionState(view, { who_select: 'U0BOB' })).toEqual({
      who: { who_select: { type: 'users_select', selected_user: 'U0BOB' } },
    });
  });

  it('accepts the block_id of an input as the key', () => {
    const view = viewWith([input('title', { type: 'plain_text_input', action_id: 'title_input' })]);
    expect(submissionState(view, { title: 'Printer' }).title?.title_input?.value).toBe('Printer');
  });

  it('submits an untouched element with its initial value', () => {
    const view = viewWith([
      input('priority', {
        type: 'static_select',
        action_id: 'p',
        options: [low, high],
        initial_option: low,
      }),
      input('note', { type: 'plain_text_input', action_id: 'n', initial_value: 'draft' }),
    ]);
    const state = submissionState(view, {});
    expect(state.priority?.p?.selected_option).toEqual(low);
    expect(state.note?.n?.value).toBe('draft');
  });

  it('submits an untouched optional input as null', () => {
    const view = viewWith([
      input('who', { type: 'users_select', action_id: 'w' }, true),
      input('note', { type: 'plain_text_input', action_id: 'n' }, true),
    ]);
    expect(submissionState(view, {})).toEqual({
      who: { w: { type: 'users_select', selected_user: null } },
      note: { n: { type: 'plain_text_input', value: null } },
    });
  });

  it('refuses to submit with a required input left empty, as Slack client does', () => {
    const view = viewWith([input('title', { type: 'plain_text_input', action_id: 't' })]);
    expect(() => submissionState(view, {})).toThrow(RequiredInputMissingError);
  });

  it('refuses an option the select does not offer', () => {
    const view = viewWith([input('p', { type: 'static_select', action_id: 'p', options: [low] })]);
    expect(() => submissionState(view, { p: 'urgent' })).toThrow(UnknownOptionError);
  });

  it('refuses a value for an element the view does not have', () => {
    const view = viewWith([input('title', { type: 'plain_text_input', action_id: 't' })]);
    expect(() => submissionState(view, { t: 'x', typo: 'y' })).toThrow(UnknownInputError);
  });

  it('gives a button action its own value and text', () => {
    const blocks = [
      {
        type: 'actions',
        block_id: 'a',
        elements: [
          {
            type: 'button',
            action_id: 'close',
            text: { type: 'plain_text', text: 'Close' },
            value: 'IT-3',
          },
        ],
      },
    ];
    const [site] = interactiveElements(blocks);
    if (!site) throw new Error('no element');
    expect(actionEntry(site, '1.000001')).toEqual({
      type: 'button',
      action_id: 'close',
      block_id: 'a',
      action_ts: '1.000001',
      text: { type: 'plain_text', text: 'Close' },
      value: 'IT-3',
    });
  });
});

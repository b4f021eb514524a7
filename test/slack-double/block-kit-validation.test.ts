import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultIds, type SlackDouble, startSlackDouble } from '../../tools/slack-double/index.ts';
import { callApi } from './call-api.ts';

const ids = defaultIds;
const section = (text: string) => ({ type: 'section', text: { type: 'mrkdwn', text } });
const button = (text: string, actionId = 'go') => ({
  type: 'actions',
  elements: [{ type: 'button', action_id: actionId, text: { type: 'plain_text', text } }],
});

describe('Block Kit limits in the Slack double', () => {
  let double: SlackDouble;

  beforeEach(async () => {
    double = await startSlackDouble();
  });

  afterEach(async () => {
    await double.close();
  });

  const post = (blocks: unknown[]) =>
    callApi(double, 'chat.postMessage', { channel: ids.itHelp, text: 'x', blocks });

  it('counts section text in UTF-16 units, so 1,500 emoji and one letter are too long', async () => {
    const answer = await post([section(`${'🙂'.repeat(1500)}a`)]);
    expect(answer).toMatchObject({
      error: 'invalid_blocks',
      response_metadata: {
        messages: ['[ERROR] must be less than 3001 characters [json-pointer:/blocks/0/text/text]'],
      },
    });
  });

  it('takes a section of exactly 3,000 UTF-16 units', async () => {
    expect((await post([section('🙂'.repeat(1500))])).ok).toBe(true);
  });

  it('answers msg_blocks_too_long past 12,000 characters of block text in one message', async () => {
    const answer = await post([
      section('a'.repeat(3000)),
      ...Array(4).fill(section('b'.repeat(2500))),
    ]);
    expect(answer).toEqual({ ok: false, error: 'msg_blocks_too_long' });
  });

  it('takes 12,000 characters of block text in one message', async () => {
    const answer = await post(Array(4).fill(section('c'.repeat(3000))));
    expect(answer.ok).toBe(true);
  });

  it('refuses a header over 150 characters', async () => {
    const header = { type: 'header', text: { type: 'plain_text', text: 'h'.repeat(151) } };
    expect((await post([header])).error).toBe('invalid_blocks');
  });

  it('refuses a button label over 75 characters', async () => {
    expect((await post([button('b'.repeat(76))])).error).toBe('invalid_blocks');
  });

  it('refuses an action_id over 255 characters', async () => {
    expect((await post([button('ok', 'a'.repeat(256))])).error).toBe('invalid_blocks');
  });

  it('refuses a context element over 3,000 characters', async () => {
    const context = { type: 'context', elements: [{ type: 'mrkdwn', text: 'c'.repeat(3001) }] };
    expect((await post([context])).error).toBe('invalid_blocks');
  });

  it('refuses a confirmation dialog whose text is over 300 characters', async () => {
    const confirm = {
      title: { type: 'plain_text', text: 'Sure?' },
      text: { type: 'mrkdwn', text: 't'.repeat(301) },
      confirm: { type: 'plain_text', text: 'Yes' },
      deny: { type: 'plain_text', text: 'No' },
    };
    const actions = button('Close');
    (actions.elements[0] as Record<string, unknown>).confirm = confirm;
    expect((await post([actions])).error).toBe('invalid_blocks');
  });

  it('refuses an overflow menu of more than five options', async () => {
    const option = (i: number) => ({ text: { type: 'plain_text', text: `o${i}` }, value: `${i}` });
    const overflow = {
      type: 'actions',
      elements: [{ type: 'overflow', action_id: 'more', options: [0, 1, 2, 3, 4, 5].map(option) }],
    };
    expect((await post([overflow])).error).toBe('invalid_blocks');
  });

  it('refuses a modal of more than 100 blocks', async () => {
    const answer = await callApi(double, 'views.publish', {
      user_id: ids.alice,
      view: { type: 'home', blocks: Array(101).fill(section('x')) },
    });
    expect(answer).toMatchObject({
      error: 'invalid_arguments',
      response_metadata: {
        messages: ['[ERROR] must provide no more than 100 items [json-pointer:/view/blocks]'],
      },
    });
  });
});

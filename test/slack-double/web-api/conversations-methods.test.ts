import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  defaultIds,
  type SlackDouble,
  startSlackDouble,
} from '../../../tools/slack-double/index.ts';
import { callApi } from '../call-api.ts';

const ids = defaultIds;

describe('conversations.* in the Slack double', () => {
  let double: SlackDouble;

  beforeEach(async () => {
    double = await startSlackDouble();
  });

  afterEach(async () => {
    await double.close();
  });

  async function post(text: string, threadTs?: unknown): Promise<string> {
    const answer = await callApi(double, 'chat.postMessage', {
      channel: ids.itHelp,
      text,
      thread_ts: threadTs,
    });
    return String(answer.ts);
  }

  it('returns a thread parent first, then its replies oldest first', async () => {
    const parent = await post('parent');
    await post('elsewhere');
    await post('reply 1', parent);
    await post('reply 2', parent);
    const answer = await callApi(double, 'conversations.replies', {
      channel: ids.itHelp,
      ts: parent,
    });
    expect((answer.messages as { text: string }[]).map((m) => m.text)).toEqual([
      'parent',
      'reply 1',
      'reply 2',
    ]);
  });

  it('returns the whole thread when asked with the ts of a reply', async () => {
    const parent = await post('parent');
    const reply = await post('reply', parent);
    const answer = await callApi(double, 'conversations.replies', {
      channel: ids.itHelp,
      ts: reply,
    });
    expect((answer.messages as { ts: string }[]).map((m) => m.ts)).toEqual([parent, reply]);
  });

  it('answers thread_not_found for a ts that names no message', async () => {
    const answer = await callApi(double, 'conversations.replies', {
      channel: ids.itHelp,
      ts: '1.000001',
    });
    expect(answer.error).toBe('thread_not_found');
  });

  it('pages through replies with a cursor', async () => {
    const parent = await post('parent');
    for (const n of [1, 2, 3]) await post(`reply ${n}`, parent);
    const first = await callApi(double, 'conversations.replies', {
      channel: ids.itHelp,
      ts: parent,
      limit: 2,
    });
    const cursor = (first.response_metadata as { next_cursor: string }).next_cursor;
    const second = await callApi(double, 'conversations.replies', {
      channel: ids.itHelp,
      ts: parent,
      limit: 2,
      cursor,
    });
    expect(first.has_more).toBe(true);
    expect((second.messages as { text: string }[]).map((m) => m.text)).toEqual([
      'reply 2',
      'reply 3',
    ]);
    expect(second.has_more).toBe(false);
  });

  it('lists history newest first without thread replies', async () => {
    const parent = await post('first');
    await post('reply', parent);
    await post('second');
    const answer = await callApi(double, 'conversations.history', { channel: ids.itHelp });
    expect((answer.messages as { text: string }[]).map((m) => m.text)).toEqual(['second', 'first']);
  });

  it('refuses to read history of a channel the bot is not in', async () => {
    const answer = await callApi(double, 'conversations.history', { channel: ids.general });
    expect(answer.error).toBe('not_in_channel');
  });

  it('opens the same D... DM with a user every time', async () => {
    const first = await callApi(double, 'conversations.open', { users: ids.bob });
    const second = await callApi(double, 'conversations.open', { users: ids.bob });
    expect(first.channel).toEqual({ id: 'D0BOB' });
    expect(second.channel).toEqual(first.channel);
  });

  it('answers user_not_found when opening a DM with an unknown user', async () => {
    const answer = await callApi(double, 'conversations.open', { users: 'U0NOBODY' });
    expect(answer.error).toBe('user_not_found');
  });

  it('describes a public channel, telling whether the bot is a member', async () => {
    const itHelp = await callApi(double, 'conversations.info', { channel: ids.itHelp });
    const general = await callApi(double, 'conversations.info', { channel: ids.general });
    expect(itHelp.channel).toMatchObject({ id: ids.itHelp, name: 'it-help', is_member: true });
    expect(general.channel).toMatchObject({ name: 'general', is_member: false, is_private: false });
  });

  it('describes a DM with is_im and the other user', async () => {
    await callApi(double, 'conversations.open', { users: ids.alice });
    const answer = await callApi(double, 'conversations.info', { channel: 'D0ALICE' });
    expect(answer.channel).toMatchObject({ id: 'D0ALICE', is_im: true, user: ids.alice });
  });

  it('hides a private channel the bot is not in', async () => {
    const answer = await callApi(double, 'conversations.info', { channel: ids.hrPrivate });
    expect(answer.error).toBe('channel_not_found');
  });

  it('describes a private channel made public as public', async () => {
    double.workspace.setPrivate(ids.agentsPrivate, false);
    const answer = await callApi(double, 'conversations.info', { channel: ids.agentsPrivate });
    expect(answer.channel).toMatchObject({ is_private: false, is_channel: true });
  });

  it('lists a channel’s members page by page, and hides a private channel the bot is not in', async () => {
    const first = await callApi(double, 'conversations.members', {
      channel: ids.itHelp,
      limit: 2,
    });
    const cursor = (first.response_metadata as { next_cursor: string }).next_cursor;
    const rest = await callApi(double, 'conversations.members', {
      channel: ids.itHelp,
      limit: 100,
      cursor,
    });
    const all = [...(first.members as string[]), ...(rest.members as string[])];
    expect(all).toEqual(double.workspace.conversation(ids.itHelp)?.members);
    expect(cursor).not.toBe('');
    const hidden = await callApi(double, 'conversations.members', { channel: ids.hrPrivate });
    expect(hidden.error).toBe('channel_not_found');
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  defaultIds,
  type SlackDouble,
  startSlackDouble,
} from '../../../tools/slack-double/index.ts';
import { callApi } from '../call-api.ts';

const ids = defaultIds;
const section = (text: string) => ({ type: 'section', text: { type: 'mrkdwn', text } });

describe('chat.* in the Slack double', () => {
  let double: SlackDouble;
  let clock: number;

  beforeEach(async () => {
    clock = 1_700_000_000_000;
    double = await startSlackDouble({ now: () => clock });
  });

  afterEach(async () => {
    await double.close();
  });

  it('posts a message and answers with its ts, channel and the stored message', async () => {
    const answer = await callApi(double, 'chat.postMessage', {
      channel: ids.itHelp,
      text: 'Ticket IT-1 created',
      blocks: [section('*IT-1* created')],
    });
    expect(answer).toMatchObject({
      ok: true,
      channel: ids.itHelp,
      ts: '1700000000.000000',
      message: { type: 'message', user: ids.bot, bot_id: ids.botId, text: 'Ticket IT-1 created' },
    });
    expect(double.workspace.history(ids.itHelp)).toHaveLength(1);
  });

  it('gives strictly increasing ts strings even when the clock stands still', async () => {
    const first = await callApi(double, 'chat.postMessage', { channel: ids.itHelp, text: 'a' });
    const second = await callApi(double, 'chat.postMessage', { channel: ids.itHelp, text: 'b' });
    clock += 1;
    const third = await callApi(double, 'chat.postMessage', { channel: ids.itHelp, text: 'c' });
    expect([first.ts, second.ts, third.ts]).toEqual([
      '1700000000.000000',
      '1700000000.000001',
      '1700000000.001000',
    ]);
  });

  it('answers not_in_channel for a public channel the bot was not invited to', async () => {
    const answer = await callApi(double, 'chat.postMessage', { channel: ids.general, text: 'hi' });
    expect(answer).toEqual({ ok: false, error: 'not_in_channel' });
  });

  it('answers channel_not_found for a private channel the bot is not in', async () => {
    const answer = await callApi(double, 'chat.postMessage', { channel: ids.hrPrivate, text: 'x' });
    expect(answer).toEqual({ ok: false, error: 'channel_not_found' });
  });

  it('requires a channel', async () => {
    const answer = await callApi(double, 'chat.postMessage', { text: 'hi' });
    expect(answer.error).toBe('invalid_arguments');
    expect(double.takeViolations()).toEqual([
      expect.stringContaining('missing required field: channel'),
    ]);
  });

  it('answers no_text when there is neither text nor blocks', async () => {
    const answer = await callApi(double, 'chat.postMessage', { channel: ids.itHelp });
    expect(answer).toEqual({ ok: false, error: 'no_text' });
  });

  it('answers msg_too_long for text over 40,000 characters', async () => {
    const answer = await callApi(double, 'chat.postMessage', {
      channel: ids.itHelp,
      text: 'x'.repeat(40_001),
    });
    expect(answer).toEqual({ ok: false, error: 'msg_too_long' });
  });

  it('answers invalid_blocks for more than 50 blocks', async () => {
    const blocks = Array.from({ length: 51 }, (_, i) => section(`line ${i}`));
    const answer = await callApi(double, 'chat.postMessage', { channel: ids.itHelp, blocks });
    expect(answer.error).toBe('invalid_blocks');
    expect(answer.response_metadata).toEqual({
      messages: ['[ERROR] must provide no more than 50 items [json-pointer:/blocks]'],
    });
  });

  it('answers invalid_blocks for a section whose text is over 3,000 characters', async () => {
    const answer = await callApi(double, 'chat.postMessage', {
      channel: ids.itHelp,
      blocks: [section('y'.repeat(3001))],
    });
    expect(answer.error).toBe('invalid_blocks');
  });

  it('answers invalid_blocks_format when blocks is not a JSON array', async () => {
    const answer = await callApi(double, 'chat.postMessage', {
      channel: ids.itHelp,
      blocks: '{not json',
    });
    expect(answer.error).toBe('invalid_blocks_format');
  });

  it('gives blocks without a block_id one, as Slack does', async () => {
    const answer = await callApi(double, 'chat.postMessage', {
      channel: ids.itHelp,
      blocks: [section('hello')],
    });
    const message = answer.message as { blocks: { block_id?: unknown }[] };
    expect(typeof message.blocks[0]?.block_id).toBe('string');
  });

  it('keeps metadata, returned from history only with include_all_metadata', async () => {
    const metadata = { event_type: 'ticket_message', event_payload: { ticket_id: 'IT-1' } };
    await callApi(double, 'chat.postMessage', { channel: ids.itHelp, text: 'm', metadata });
    const plain = await callApi(double, 'conversations.history', { channel: ids.itHelp });
    const withMetadata = await callApi(double, 'conversations.history', {
      channel: ids.itHelp,
      include_all_metadata: true,
    });
    expect((plain.messages as { metadata?: unknown }[])[0]?.metadata).toBeUndefined();
    expect((withMetadata.messages as { metadata?: unknown }[])[0]?.metadata).toEqual(metadata);
  });

  it('answers invalid_metadata_schema for metadata without event_type', async () => {
    const answer = await callApi(double, 'chat.postMessage', {
      channel: ids.itHelp,
      text: 'm',
      metadata: { event_payload: {} },
    });
    expect(answer.error).toBe('invalid_metadata_schema');
  });

  it('posts a reply into the thread and counts it on the parent', async () => {
    const parent = await callApi(double, 'chat.postMessage', { channel: ids.itHelp, text: 'p' });
    const reply = await callApi(double, 'chat.postMessage', {
      channel: ids.itHelp,
      text: 'r',
      thread_ts: parent.ts,
    });
    expect(reply.message).toMatchObject({ thread_ts: parent.ts, parent_user_id: ids.bot });
    expect(double.workspace.message(ids.itHelp, String(parent.ts))).toMatchObject({
      reply_count: 1,
      latest_reply: reply.ts,
    });
  });

  it('posts to a user id in the bot DM with that user', async () => {
    const answer = await callApi(double, 'chat.postMessage', { channel: ids.alice, text: 'hi' });
    expect(answer.channel).toBe('D0ALICE');
  });

  it('stores an ephemeral message for a member of the channel and answers message_ts', async () => {
    const answer = await callApi(double, 'chat.postEphemeral', {
      channel: ids.itHelp,
      user: ids.alice,
      text: 'only you',
    });
    expect(answer).toMatchObject({ ok: true, message_ts: expect.any(String) });
    expect(double.workspace.ephemerals({ channel: ids.itHelp, user: ids.alice })).toMatchObject([
      { text: 'only you', ts: answer.message_ts, via: 'chat.postEphemeral' },
    ]);
    expect(double.workspace.history(ids.itHelp)).toEqual([]);
  });

  it('answers user_not_in_channel to an ephemeral message for someone outside the channel', async () => {
    const answer = await callApi(double, 'chat.postEphemeral', {
      channel: ids.agentsPrivate,
      user: ids.alice,
      text: 'x',
    });
    expect(answer.error).toBe('user_not_in_channel');
  });

  it('updates the bot message and marks it edited', async () => {
    const posted = await callApi(double, 'chat.postMessage', { channel: ids.itHelp, text: 'old' });
    const answer = await callApi(double, 'chat.update', {
      channel: ids.itHelp,
      ts: posted.ts,
      text: 'new',
    });
    expect(answer).toMatchObject({ ok: true, ts: posted.ts, text: 'new' });
    expect(double.workspace.message(ids.itHelp, String(posted.ts))).toMatchObject({
      text: 'new',
      edited: { user: ids.bot },
    });
  });

  it('answers message_not_found when updating a message that does not exist', async () => {
    const answer = await callApi(double, 'chat.update', {
      channel: ids.itHelp,
      ts: '1.000001',
      text: 'x',
    });
    expect(answer.error).toBe('message_not_found');
  });

  it('gives a permalink, with the thread for a reply', async () => {
    const parent = await callApi(double, 'chat.postMessage', { channel: ids.itHelp, text: 'p' });
    const reply = await callApi(double, 'chat.postMessage', {
      channel: ids.itHelp,
      text: 'r',
      thread_ts: parent.ts,
    });
    const parentLink = await callApi(double, 'chat.getPermalink', {
      channel: ids.itHelp,
      message_ts: parent.ts,
    });
    const replyLink = await callApi(double, 'chat.getPermalink', {
      channel: ids.itHelp,
      message_ts: reply.ts,
    });
    expect(parentLink.permalink).toBe('https://acme.slack.com/archives/C0ITHELP/p1700000000000000');
    expect(replyLink.permalink).toBe(
      `https://acme.slack.com/archives/C0ITHELP/p1700000000000001?thread_ts=${parent.ts}&cid=C0ITHELP`,
    );
  });

  it('adds a reaction once and answers already_reacted the second time', async () => {
    const posted = await callApi(double, 'chat.postMessage', { channel: ids.itHelp, text: 'm' });
    const args = { channel: ids.itHelp, timestamp: posted.ts, name: 'white_check_mark' };
    expect((await callApi(double, 'reactions.add', args)).ok).toBe(true);
    expect((await callApi(double, 'reactions.add', args)).error).toBe('already_reacted');
    expect(double.workspace.message(ids.itHelp, String(posted.ts))?.reactions).toEqual([
      { name: 'white_check_mark', users: [ids.bot], count: 1 },
    ]);
  });
});

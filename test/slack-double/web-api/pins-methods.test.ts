import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  defaultIds,
  type SlackDouble,
  startSlackDouble,
} from '../../../tools/slack-double/index.ts';
import { callApi } from '../call-api.ts';

const ids = defaultIds;

describe('pins.* in the Slack double', () => {
  let double: SlackDouble;

  beforeEach(async () => {
    double = await startSlackDouble();
  });

  afterEach(async () => {
    await double.close();
  });

  async function post(text: string): Promise<string> {
    const answer = await callApi(double, 'chat.postMessage', {
      channel: ids.agentsPrivate,
      text,
      metadata: { event_type: 'kept', event_payload: { n: 1 } },
    });
    return String(answer.ts);
  }

  it('lists the messages the bot pinned, newest pin first, without their metadata', async () => {
    const first = await post('first');
    const second = await post('second');
    expect(
      (await callApi(double, 'pins.add', { channel: ids.agentsPrivate, timestamp: first })).ok,
    ).toBe(true);
    await callApi(double, 'pins.add', { channel: ids.agentsPrivate, timestamp: second });
    const answer = await callApi(double, 'pins.list', { channel: ids.agentsPrivate });
    const items = answer.items as {
      type: string;
      created_by: string;
      message: Record<string, unknown>;
    }[];
    expect(items.map((i) => i.message.text)).toEqual(['second', 'first']);
    expect(items[0]).toMatchObject({ type: 'message', created_by: ids.bot });
    expect(items[0]?.message.metadata).toBeUndefined();
  });

  it('pins a message once, and unpins it', async () => {
    const ts = await post('pin me');
    await callApi(double, 'pins.add', { channel: ids.agentsPrivate, timestamp: ts });
    const again = await callApi(double, 'pins.add', { channel: ids.agentsPrivate, timestamp: ts });
    expect(again.error).toBe('already_pinned');
    const removed = await callApi(double, 'pins.remove', {
      channel: ids.agentsPrivate,
      timestamp: ts,
    });
    expect(removed.ok).toBe(true);
    const listed = await callApi(double, 'pins.list', { channel: ids.agentsPrivate });
    expect(listed.items).toEqual([]);
    const twice = await callApi(double, 'pins.remove', {
      channel: ids.agentsPrivate,
      timestamp: ts,
    });
    expect(twice.error).toBe('no_pin');
  });

  it('refuses to pin a message that is not there', async () => {
    const answer = await callApi(double, 'pins.add', {
      channel: ids.agentsPrivate,
      timestamp: '1.000001',
    });
    expect(answer.error).toBe('message_not_found');
  });

  it('answers channel_not_found for a private channel the bot is not in', async () => {
    const answer = await callApi(double, 'pins.list', { channel: 'G0NOWHERE' });
    expect(answer.error).toBe('channel_not_found');
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type AssistantThread,
  defaultIds,
  type SlackDouble,
  startSlackDouble,
} from '../../../tools/slack-double/index.ts';
import { callApi } from '../call-api.ts';

const ids = defaultIds;
const prompt = (n: number) => ({ title: `Prompt ${n}`, message: `Message ${n}` });

describe('assistant.threads.* in the Slack double', () => {
  let double: SlackDouble;
  let pane: AssistantThread;

  beforeEach(async () => {
    double = await startSlackDouble();
    pane = double.workspace.openAssistantThread(ids.alice);
  });

  afterEach(async () => {
    // Calls refused on purpose by Slack's description are this file's subject, not a failure.
    double.takeViolations();
    await double.close();
  });

  const at = () => ({ channel_id: pane.channel, thread_ts: pane.threadTs });
  const shown = () => double.workspace.assistantThread(pane.channel, pane.threadTs);

  it('keeps the status, the title and the prompts the app set on a pane conversation', async () => {
    expect(
      (await callApi(double, 'assistant.threads.setStatus', { ...at(), status: 'Working…' })).ok,
    ).toBe(true);
    expect(
      (await callApi(double, 'assistant.threads.setTitle', { ...at(), title: 'VPN down' })).ok,
    ).toBe(true);
    const prompts = [prompt(1), prompt(2)];
    const set = await callApi(double, 'assistant.threads.setSuggestedPrompts', {
      ...at(),
      prompts,
      title: 'Try',
    });
    expect(set.ok).toBe(true);
    expect(shown()).toMatchObject({
      status: 'Working…',
      title: 'VPN down',
      prompts,
      promptsTitle: 'Try',
    });
  });

  it('clears the status when the app posts in the conversation, as Slack does', async () => {
    await callApi(double, 'assistant.threads.setStatus', { ...at(), status: 'Working…' });
    await callApi(double, 'chat.postMessage', {
      channel: pane.channel,
      thread_ts: pane.threadTs,
      text: 'Here is your answer',
    });
    expect(shown()?.status).toBe('');
    expect(shown()?.statuses).toEqual(['Working…', '']);
  });

  it('refuses a call without channel_id or thread_ts', async () => {
    const noChannel = await callApi(double, 'assistant.threads.setStatus', {
      thread_ts: pane.threadTs,
      status: 'x',
    });
    const noThread = await callApi(double, 'assistant.threads.setTitle', {
      channel_id: pane.channel,
      title: 'x',
    });
    expect(noChannel).toMatchObject({ ok: false, error: 'invalid_arguments' });
    expect(noThread).toMatchObject({ ok: false, error: 'invalid_arguments' });
    expect(double.takeViolations()).toHaveLength(2);
  });

  it('refuses more than four prompts, and a prompt without its message', async () => {
    const five = await callApi(double, 'assistant.threads.setSuggestedPrompts', {
      ...at(),
      prompts: [1, 2, 3, 4, 5].map(prompt),
    });
    const halfMade = await callApi(double, 'assistant.threads.setSuggestedPrompts', {
      ...at(),
      prompts: [{ title: 'Only a title' }],
    });
    expect(five).toMatchObject({ ok: false, error: 'invalid_arguments' });
    expect(halfMade).toMatchObject({ ok: false, error: 'invalid_arguments' });
    expect(shown()?.prompts).toEqual([]);
  });

  it('refuses a thread that is no pane conversation with invalid_thread_ts', async () => {
    const dm = double.workspace.openIm(ids.bob);
    const posted = double.workspace.postMessage(dm, { user: ids.bob, text: 'hi' });
    const answer = await callApi(double, 'assistant.threads.setStatus', {
      channel_id: dm,
      thread_ts: posted.ts,
      status: 'Working…',
    });
    expect(answer).toMatchObject({ ok: false, error: 'invalid_thread_ts' });
  });

  it('refuses an argument the method does not take', async () => {
    const answer = await callApi(double, 'assistant.threads.setTitle', {
      ...at(),
      title: 'x',
      channel: pane.channel,
    });
    expect(answer).toMatchObject({ ok: false, error: 'unknown_argument' });
  });
});

/** The driver's external selects: Slack's options requests and what it does with the answers. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  defaultIds,
  type SlackDouble,
  SlackDriver,
  startSlackDouble,
  UnknownActionError,
} from '../../tools/slack-double/index.ts';
import { callApi } from './call-api.ts';
import {
  type FakeApp,
  type FakeReply,
  interactionPayload,
  type ReceivedRequest,
  startFakeApp,
} from './fake-app.ts';

const ids = defaultIds;
const SECRET = 'test-signing-secret';
const laptop = { text: { type: 'plain_text', text: 'New laptop' }, value: 'it|cat_1' };

describe('the Slack driver’s external selects', () => {
  let double: SlackDouble;
  let app: FakeApp;
  let driver: SlackDriver;
  let reply: (request: ReceivedRequest) => FakeReply;

  beforeEach(async () => {
    reply = () => ({});
    double = await startSlackDouble();
    app = await startFakeApp((request) => reply(request));
    driver = new SlackDriver({ appUrl: app.url, signingSecret: SECRET, double });
  });

  afterEach(async () => {
    await driver.close();
    await app.close();
    await double.close();
  });

  const answering = (body: unknown, status = 200) => {
    reply = () => ({
      status,
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    });
  };

  async function openForm(minQueryLength?: number): Promise<string> {
    const command = await driver.slashCommand({ userId: ids.alice, channelId: ids.itHelp });
    const opened = await callApi(double, 'views.open', {
      trigger_id: command.triggerId,
      view: {
        type: 'modal',
        callback_id: 'request',
        title: { type: 'plain_text', text: 'Request' },
        submit: { type: 'plain_text', text: 'Request' },
        blocks: [
          {
            type: 'input',
            block_id: 'item',
            dispatch_action: true,
            label: { type: 'plain_text', text: 'Item' },
            element: {
              type: 'external_select',
              action_id: 'item_select',
              ...(minQueryLength === undefined ? {} : { min_query_length: minQueryLength }),
            },
          },
        ],
      },
    });
    app.requests.length = 0;
    return (opened.view as { id: string }).id;
  }

  it('sends a block_suggestion with what was typed and shows the options answered', async () => {
    const viewId = await openForm(0);
    answering({ options: [laptop] });
    const result = await driver.blockSuggestion({
      userId: ids.alice,
      viewId,
      actionId: 'item_select',
      value: 'lap',
    });
    expect(interactionPayload(app.requests[0] as ReceivedRequest)).toMatchObject({
      type: 'block_suggestion',
      action_id: 'item_select',
      block_id: 'item',
      value: 'lap',
      user: { id: ids.alice },
      view: { id: viewId },
    });
    expect([result.sent, result.options, result.problems]).toEqual([true, [laptop], []]);
  });

  it('sends nothing while fewer characters than Slack’s default minimum of 3 are typed', async () => {
    const viewId = await openForm();
    const result = await driver.blockSuggestion({
      userId: ids.alice,
      viewId,
      actionId: 'item_select',
      value: 'la',
    });
    expect([result.sent, app.requests.length]).toEqual([false, 0]);
  });

  it('shows no options for an answer Slack refuses: an option text over 75 characters', async () => {
    const viewId = await openForm(0);
    answering({ options: [{ ...laptop, text: { type: 'plain_text', text: 'x'.repeat(76) } }] });
    const result = await driver.blockSuggestion({
      userId: ids.alice,
      viewId,
      actionId: 'item_select',
      value: '',
    });
    expect(result.options).toEqual([]);
    expect(result.problems.join()).toContain('/options/0/text/text');
  });

  it('shows no options for over 100 options, a mrkdwn text, or no options at all', async () => {
    const viewId = await openForm(0);
    const type = (body: unknown) => {
      answering(body);
      return driver.blockSuggestion({
        userId: ids.alice,
        viewId,
        actionId: 'item_select',
        value: '',
      });
    };
    const many = await type({ options: Array.from({ length: 101 }, () => laptop) });
    const mrkdwn = await type({ options: [{ ...laptop, text: { type: 'mrkdwn', text: 'x' } }] });
    const none = await type({});
    for (const result of [many, mrkdwn, none]) {
      expect(result.options).toEqual([]);
      expect(result.problems.length).toBeGreaterThan(0);
    }
  });

  it('shows no options when the app answers with an error', async () => {
    const viewId = await openForm(0);
    answering({ options: [laptop] }, 500);
    const result = await driver.blockSuggestion({
      userId: ids.alice,
      viewId,
      actionId: 'item_select',
      value: '',
    });
    expect(result.options).toEqual([]);
  });

  it('sends an answered option whole when the person chooses it', async () => {
    const viewId = await openForm(0);
    answering({ options: [laptop] });
    await driver.blockSuggestion({ userId: ids.alice, viewId, actionId: 'item_select', value: '' });
    reply = () => ({});
    await driver.blockAction({
      userId: ids.alice,
      viewId,
      actionId: 'item_select',
      value: 'it|cat_1',
    });
    const action = interactionPayload(app.requests.at(-1) as ReceivedRequest) as {
      actions: { selected_option: unknown }[];
    };
    expect(action.actions[0]?.selected_option).toEqual(laptop);
  });

  it('refuses typing into an element that is no external select', async () => {
    const viewId = await openForm(0);
    await expect(
      driver.blockSuggestion({ userId: ids.alice, viewId, actionId: 'nope', value: '' }),
    ).rejects.toBeInstanceOf(UnknownActionError);
  });
});

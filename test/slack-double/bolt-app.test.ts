import type { AddressInfo } from 'node:net';
import { App, LogLevel } from '@slack/bolt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  defaultIds,
  type SlackDouble,
  SlackDriver,
  startSlackDouble,
} from '../../tools/slack-double/index.ts';
import { eventually } from './eventually.ts';

const ids = defaultIds;
const SECRET = 'bolt-signing-secret';

/** What the Bolt app's listeners saw, for assertions. */
interface Seen {
  messages: Record<string, unknown>[];
  titles: string[];
}

describe('a real Bolt app driven by the driver and talking to the double', () => {
  let double: SlackDouble;
  let app: App;
  let driver: SlackDriver;
  let seen: Seen;

  beforeEach(async () => {
    seen = { messages: [], titles: [] };
    double = await startSlackDouble();
    app = new App({
      signingSecret: SECRET,
      token: ids.botToken,
      clientOptions: { slackApiUrl: double.apiUrl, retryConfig: { retries: 0 } },
      logLevel: LogLevel.ERROR,
    });
    app.command('/ticket', async ({ ack, body, client, respond }) => {
      await ack();
      await client.views.open({
        trigger_id: body.trigger_id,
        view: {
          type: 'modal',
          callback_id: 'ticket_create',
          title: { type: 'plain_text', text: 'New ticket' },
          submit: { type: 'plain_text', text: 'Create' },
          blocks: [
            {
              type: 'input',
              block_id: 'title',
              label: { type: 'plain_text', text: 'Title' },
              element: { type: 'plain_text_input', action_id: 'title_input' },
            },
          ],
        },
      });
      await respond({ text: 'Opening the form' });
    });
    app.view('ticket_create', async ({ ack, view }) => {
      const title = view.state.values.title?.title_input?.value ?? '';
      seen.titles.push(title);
      if (title.length < 3) {
        await ack({ response_action: 'errors', errors: { title: 'Too short' } });
        return;
      }
      await ack();
    });
    app.message(async ({ message }) => {
      seen.messages.push(message as unknown as Record<string, unknown>);
    });
    const server = await app.start({ port: 0, host: '127.0.0.1' });
    const { port } = server.address() as AddressInfo;
    driver = new SlackDriver({
      appUrl: `http://127.0.0.1:${port}/slack/events`,
      signingSecret: SECRET,
      double,
    });
  });

  afterEach(async () => {
    await driver.close();
    await app.stop();
    await double.close();
  });

  it('acks a slash command, opens the modal with its trigger id and replies on the response_url', async () => {
    const result = await driver.slashCommand({ userId: ids.alice, channelId: ids.itHelp });
    expect(result.status).toBe(200);
    const opened = await double.waitForCall('views.open');
    expect(opened.response.ok).toBe(true);
    const reply = await double.waitForResponseUrlPost();
    expect(reply).toMatchObject({ effect: 'ephemeral', body: { text: 'Opening the form' } });
  });

  it('hands the submitted values to the view listener and returns its errors ack', async () => {
    await driver.slashCommand({ userId: ids.alice, channelId: ids.itHelp });
    const opened = await double.waitForCall('views.open');
    const viewId = (opened.response.view as { id: string }).id;
    const refused = await driver.viewSubmission({ viewId, values: { title_input: 'no' } });
    const accepted = await driver.viewSubmission({ viewId, values: { title_input: 'VPN down' } });
    expect(seen.titles).toEqual(['no', 'VPN down']);
    expect(refused.body).toEqual({ response_action: 'errors', errors: { title: 'Too short' } });
    expect(accepted.status).toBe(200);
    expect(double.workspace.modalStack(ids.alice)).toEqual([]);
  });

  it('delivers a user message that the message listener receives', async () => {
    await driver.userPosts({ userId: ids.bob, channelId: ids.itHelp, text: 'printer jammed' });
    // Bolt acks an event before its listeners run.
    await eventually(() => seen.messages.length > 0);
    expect(seen.messages).toMatchObject([
      { text: 'printer jammed', user: ids.bob, channel: ids.itHelp, channel_type: 'channel' },
    ]);
  });

  it('is refused with 401 when the signature is bad', async () => {
    const result = await driver.slashCommand(
      { userId: ids.alice, channelId: ids.itHelp },
      { badSignature: true },
    );
    expect(result.status).toBe(401);
    expect(double.callsTo('views.open')).toHaveLength(0);
  });

  it('is refused with 401 when the timestamp is stale', async () => {
    const result = await driver.event(
      { type: 'message', channel: ids.itHelp, user: ids.bob, text: 'old', ts: '1.000001' },
      { staleTimestamp: true },
    );
    expect(result.status).toBe(401);
    expect(seen.messages).toEqual([]);
  });
});

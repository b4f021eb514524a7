import { webApi } from '@slack/bolt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultIds, type SlackDouble, startSlackDouble } from '../../tools/slack-double/index.ts';

const ids = defaultIds;

describe("Slack's own WebClient against the double", () => {
  let double: SlackDouble;
  let client: webApi.WebClient;

  beforeEach(async () => {
    double = await startSlackDouble();
    // No retries: an error answer must surface at once, not after the client's backoff.
    client = new webApi.WebClient(ids.botToken, {
      slackApiUrl: double.apiUrl,
      retryConfig: { retries: 0 },
    });
  });

  afterEach(async () => {
    await double.close();
  });

  it('posts a message with blocks and metadata the double stores', async () => {
    const result = await client.chat.postMessage({
      channel: ids.itHelp,
      text: 'Ticket IT-5 created',
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '*IT-5*' } }],
      metadata: { event_type: 'ticket_created', event_payload: { ticket_id: 'IT-5' } },
    });
    expect(result.ok).toBe(true);
    const stored = double.workspace.message(ids.itHelp, String(result.ts));
    expect(stored).toMatchObject({
      text: 'Ticket IT-5 created',
      blocks: [{ type: 'section', text: { text: '*IT-5*' } }],
      metadata: { event_type: 'ticket_created', event_payload: { ticket_id: 'IT-5' } },
    });
  });

  it('reads a user with users.info', async () => {
    const result = await client.users.info({ user: ids.agent });
    expect(result.user?.profile?.email).toBe('sam.rivera@acme.example');
    expect(result.user?.real_name).toBe('Sam Rivera');
  });

  it('surfaces a Slack error as the platform error the client throws', async () => {
    await expect(
      client.chat.postMessage({ channel: ids.general, text: 'hi' }),
    ).rejects.toMatchObject({
      code: webApi.ErrorCode.PlatformError,
      data: { ok: false, error: 'not_in_channel' },
    });
  });

  it('opens a modal sent as a JSON-encoded form field', async () => {
    const result = await client.views.open({
      trigger_id: double.issueTrigger(ids.alice),
      view: {
        type: 'modal',
        callback_id: 'ticket_create',
        title: { type: 'plain_text', text: 'New ticket' },
        blocks: [{ type: 'section', text: { type: 'plain_text', text: 'Hello' } }],
      },
    });
    expect(result.view?.callback_id).toBe('ticket_create');
    expect(double.callsTo('views.open')).toHaveLength(1);
  });
});

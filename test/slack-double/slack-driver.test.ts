import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  defaultIds,
  RetryLimitError,
  type SlackDouble,
  SlackDriver,
  startSlackDouble,
  UserNotInChannelError,
} from '../../tools/slack-double/index.ts';
import { callApi } from './call-api.ts';
import {
  type FakeApp,
  type FakeReply,
  interactionPayload,
  type ReceivedRequest,
  startFakeApp,
  verifiesWithSecret,
} from './fake-app.ts';

const ids = defaultIds;
const SECRET = 'test-signing-secret';

describe('the Slack driver', () => {
  let double: SlackDouble;
  let app: FakeApp;
  let driver: SlackDriver;
  let reply: (request: ReceivedRequest, index: number) => FakeReply;

  beforeEach(async () => {
    reply = () => ({});
    double = await startSlackDouble();
    app = await startFakeApp((request, index) => reply(request, index));
    driver = new SlackDriver({ appUrl: app.url, signingSecret: SECRET, double });
  });

  afterEach(async () => {
    await driver.close();
    await app.close();
    await double.close();
  });

  const only = (): ReceivedRequest => {
    const [request] = app.requests;
    if (!request) throw new Error('the app received nothing');
    return request;
  };

  describe('signing', () => {
    it('signs a request so that it verifies with the signing secret', async () => {
      await driver.slashCommand({ userId: ids.alice, channelId: ids.itHelp, text: 'help' });
      expect(verifiesWithSecret(SECRET, only())).toBe(true);
    });

    it('produces a signature that fails verification when asked for a bad one', async () => {
      await driver.slashCommand(
        { userId: ids.alice, channelId: ids.itHelp },
        { badSignature: true },
      );
      expect(only().headers['x-slack-signature']).toMatch(/^v0=[0-9a-f]{64}$/);
      expect(verifiesWithSecret(SECRET, only())).toBe(false);
    });

    it('produces a timestamp older than five minutes when asked for a stale one', async () => {
      await driver.event({ type: 'app_home_opened', user: ids.alice }, { staleTimestamp: true });
      const request = only();
      const age = Date.now() / 1000 - Number(request.headers['x-slack-request-timestamp']);
      expect(age).toBeGreaterThan(300);
      expect(verifiesWithSecret(SECRET, request)).toBe(false);
    });

    it('sends a raw malformed body, still signed', async () => {
      await driver.sendRaw({
        body: '{"type": "event_callback", ',
        contentType: 'application/json',
      });
      expect(only().rawBody).toBe('{"type": "event_callback", ');
      expect(verifiesWithSecret(SECRET, only())).toBe(true);
    });
  });

  describe('slash commands', () => {
    it('sends the form Slack sends, with a trigger id and response_url from the double', async () => {
      reply = () => ({
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: '{"text":"ok"}',
      });
      const result = await driver.slashCommand({
        userId: ids.alice,
        channelId: ids.itHelp,
        text: 'IT-12',
      });
      const request = only();
      expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
      const form = Object.fromEntries(new URLSearchParams(request.rawBody));
      expect(form).toMatchObject({
        command: '/ticket',
        text: 'IT-12',
        user_id: ids.alice,
        user_name: 'alice',
        channel_id: ids.itHelp,
        channel_name: 'it-help',
        team_id: ids.team,
        api_app_id: ids.app,
        trigger_id: result.triggerId,
        response_url: result.responseUrl,
      });
      expect(result.responseUrl.startsWith(`${double.url}/response/`)).toBe(true);
      expect(result).toMatchObject({ status: 200, body: { text: 'ok' } });
      expect(result.ackMs).toBeGreaterThanOrEqual(0);
    });

    it('issues a trigger id that views.open accepts', async () => {
      const result = await driver.slashCommand({ userId: ids.alice, channelId: ids.itHelp });
      const answer = await callApi(double, 'views.open', {
        trigger_id: result.triggerId,
        view: { type: 'modal', title: { type: 'plain_text', text: 'T' }, blocks: [] },
      });
      expect(answer.ok).toBe(true);
    });

    it('refuses a command from a user outside the channel', async () => {
      await expect(
        driver.slashCommand({ userId: ids.alice, channelId: ids.agentsPrivate }),
      ).rejects.toBeInstanceOf(UserNotInChannelError);
    });
  });

  describe('events', () => {
    it('wraps an event in an event_callback envelope', async () => {
      const delivery = await driver.event({ type: 'app_home_opened', user: ids.alice });
      const envelope = JSON.parse(only().rawBody) as Record<string, unknown>;
      expect(envelope).toMatchObject({
        type: 'event_callback',
        team_id: ids.team,
        api_app_id: ids.app,
        event_id: delivery.eventId,
        event: { type: 'app_home_opened', user: ids.alice, event_ts: expect.any(String) },
        authorizations: [{ team_id: ids.team, user_id: ids.bot, is_bot: true }],
      });
      expect(delivery.eventId).toMatch(/^Ev[A-Z0-9]{10}$/);
      expect(typeof envelope.event_time).toBe('number');
      expect(only().headers['x-slack-retry-num']).toBeUndefined();
    });

    it('delivers retries with the same event_id and the retry headers', async () => {
      const deliveries = await driver.deliverWithRetries(
        { type: 'app_home_opened', user: ids.bob },
        3,
      );
      const envelopes = app.requests.map((r) => JSON.parse(r.rawBody) as { event_id: string });
      expect(new Set(envelopes.map((e) => e.event_id)).size).toBe(1);
      expect(envelopes[0]?.event_id).toBe(deliveries[0]?.eventId);
      expect(app.requests.map((r) => r.headers['x-slack-retry-num'])).toEqual([
        undefined,
        '1',
        '2',
      ]);
      expect(app.requests.map((r) => r.headers['x-slack-retry-reason'])).toEqual([
        undefined,
        'http_timeout',
        'http_timeout',
      ]);
      expect(app.requests.every((r) => verifiesWithSecret(SECRET, r))).toBe(true);
    });

    it('refuses more deliveries than Slack makes (one and three retries)', async () => {
      await expect(
        driver.deliverWithRetries({ type: 'app_home_opened', user: ids.bob }, 5),
      ).rejects.toBeInstanceOf(RetryLimitError);
    });

    it('retries like Slack while the app answers with an error, then stops at the 2xx', async () => {
      reply = (_request, index) => ({ status: index < 2 ? 500 : 200 });
      const delivery = await driver.event(
        { type: 'app_home_opened', user: ids.bob },
        { simulateSlackRetries: { timeoutMs: 3000, delaysMs: [0, 0, 0] } },
      );
      expect(delivery.attempts?.map((a) => [a.retryNum, a.outcome, a.retryReason])).toEqual([
        [0, 'http_error', undefined],
        [1, 'http_error', 'http_error'],
        [2, 'acked', 'http_error'],
      ]);
      expect(delivery.status).toBe(200);
    });

    it('retries like Slack when the app does not answer in time', async () => {
      reply = (_request, index) => (index === 0 ? 'hang' : {});
      const delivery = await driver.event(
        { type: 'app_home_opened', user: ids.bob },
        // Long enough for the answering attempt on a loaded machine (100 ms once was not).
        { simulateSlackRetries: { timeoutMs: 1_000, delaysMs: [0] } },
      );
      expect(delivery.attempts?.map((a) => a.outcome)).toEqual(['http_timeout', 'acked']);
      expect(app.requests[1]?.headers['x-slack-retry-reason']).toBe('http_timeout');
      const ids2 = app.requests.map(
        (r) => (JSON.parse(r.rawBody) as { event_id: string }).event_id,
      );
      expect(ids2[0]).toBe(ids2[1]);
    });

    it('stops retrying when the app answers X-Slack-No-Retry: 1', async () => {
      reply = () => ({ status: 503, headers: { 'x-slack-no-retry': '1' } });
      const delivery = await driver.event(
        { type: 'app_home_opened', user: ids.bob },
        { simulateSlackRetries: { delaysMs: [0, 0, 0] } },
      );
      expect(delivery.attempts).toHaveLength(1);
      expect(app.requests).toHaveLength(1);
    });
  });

  describe('what users do', () => {
    it('stores a posted message and delivers a message event for it', async () => {
      const posted = await driver.userPosts({
        userId: ids.alice,
        channelId: ids.itHelp,
        text: 'My laptop is on fire',
      });
      const { event } = JSON.parse(only().rawBody) as { event: Record<string, unknown> };
      expect(event).toMatchObject({
        type: 'message',
        channel: ids.itHelp,
        channel_type: 'channel',
        user: ids.alice,
        text: 'My laptop is on fire',
        ts: posted.ts,
        event_ts: posted.ts,
      });
      expect(double.workspace.message(ids.itHelp, posted.ts)?.text).toBe('My laptop is on fire');
    });

    it('delivers a thread reply with thread_ts, visible through conversations.replies', async () => {
      const parent = await driver.userPosts({
        userId: ids.alice,
        channelId: ids.itHelp,
        text: 'p',
      });
      const reply = await driver.userPosts({
        userId: ids.agent,
        channelId: ids.itHelp,
        text: 'on it',
        threadTs: parent.ts,
      });
      const { event } = JSON.parse(app.requests[1]?.rawBody ?? '{}') as {
        event: Record<string, unknown>;
      };
      expect(event).toMatchObject({ thread_ts: parent.ts, parent_user_id: ids.alice });
      const replies = await callApi(double, 'conversations.replies', {
        channel: ids.itHelp,
        ts: parent.ts,
      });
      expect((replies.messages as { ts: string }[]).map((m) => m.ts)).toEqual([
        parent.ts,
        reply.ts,
      ]);
    });

    it('gives a direct message the channel_type im', async () => {
      const dm = double.workspace.openIm(ids.bob);
      await driver.userPosts({ userId: ids.bob, channelId: dm, text: 'help' });
      const { event } = JSON.parse(only().rawBody) as { event: Record<string, unknown> };
      expect(event).toMatchObject({ channel: dm, channel_type: 'im' });
    });

    it('gives a private channel message the channel_type group', async () => {
      await driver.userPosts({ userId: ids.agent, channelId: ids.agentsPrivate, text: 'note' });
      const { event } = JSON.parse(only().rawBody) as { event: Record<string, unknown> };
      expect(event.channel_type).toBe('group');
    });

    it('stores but does not deliver a message in a channel the bot is not in', async () => {
      const posted = await driver.userPosts({
        userId: ids.alice,
        channelId: ids.general,
        text: 'x',
      });
      expect(posted.delivery).toBeUndefined();
      expect(app.requests).toHaveLength(0);
      expect(double.workspace.message(ids.general, posted.ts)).toBeDefined();
    });

    it("echoes the app's own post as a message event with its bot_id and metadata", async () => {
      const metadata = { event_type: 'ticket_message', event_payload: { ticket_id: 'IT-4' } };
      const posted = await callApi(double, 'chat.postMessage', {
        channel: ids.itHelp,
        text: 'Agent replied',
        metadata,
      });
      await driver.messageEcho({ channelId: ids.itHelp, ts: String(posted.ts) });
      const { event } = JSON.parse(only().rawBody) as { event: Record<string, unknown> };
      expect(event).toMatchObject({
        type: 'message',
        bot_id: ids.botId,
        user: ids.bot,
        ts: posted.ts,
        metadata,
        channel_type: 'channel',
      });
    });

    it('delivers an edit as message_changed with the previous text', async () => {
      const posted = await driver.userPosts({
        userId: ids.alice,
        channelId: ids.itHelp,
        text: 'v1',
      });
      await driver.userEdits({
        userId: ids.alice,
        channelId: ids.itHelp,
        ts: posted.ts,
        text: 'v2',
      });
      const { event } = JSON.parse(app.requests[1]?.rawBody ?? '{}') as {
        event: Record<string, unknown>;
      };
      expect(event).toMatchObject({
        subtype: 'message_changed',
        message: { ts: posted.ts, text: 'v2', edited: { user: ids.alice } },
        previous_message: { text: 'v1' },
      });
    });

    it('delivers a reaction as reaction_added with the item and its author', async () => {
      const posted = await driver.userPosts({
        userId: ids.alice,
        channelId: ids.itHelp,
        text: 'x',
      });
      const reacted = await driver.userReacts({
        userId: ids.bob,
        channelId: ids.itHelp,
        ts: posted.ts,
        reaction: 'ticket',
      });
      const { event } = JSON.parse(app.requests[1]?.rawBody ?? '{}') as {
        event: Record<string, unknown>;
      };
      expect(reacted.added).toBe(true);
      expect(event).toMatchObject({
        type: 'reaction_added',
        user: ids.bob,
        reaction: 'ticket',
        item_user: ids.alice,
        item: { type: 'message', channel: ids.itHelp, ts: posted.ts },
      });
    });

    it('delivers a join and a leave of a channel the bot is in as member_joined_channel and member_left_channel', async () => {
      await driver.userJoins({ userId: ids.bob, channelId: ids.agentsPrivate });
      expect(double.workspace.isMember(ids.agentsPrivate, ids.bob)).toBe(true);
      await driver.userLeaves({ userId: ids.bob, channelId: ids.agentsPrivate });
      expect(double.workspace.isMember(ids.agentsPrivate, ids.bob)).toBe(false);
      const events = app.requests.map(
        (request) => (JSON.parse(request.rawBody) as { event: Record<string, unknown> }).event,
      );
      expect(events).toMatchObject([
        {
          type: 'member_joined_channel',
          user: ids.bob,
          channel: ids.agentsPrivate,
          channel_type: 'G',
        },
        {
          type: 'member_left_channel',
          user: ids.bob,
          channel: ids.agentsPrivate,
          channel_type: 'G',
        },
      ]);
    });

    it('delivers no membership event for a channel the bot is not in', async () => {
      expect(await driver.userJoins({ userId: ids.bob, channelId: ids.general })).toBeUndefined();
      expect(double.workspace.isMember(ids.general, ids.bob)).toBe(true);
      expect(app.requests).toEqual([]);
    });
  });

  describe('interactivity', () => {
    async function openTicketModal(): Promise<string> {
      const command = await driver.slashCommand({ userId: ids.alice, channelId: ids.itHelp });
      const opened = await callApi(double, 'views.open', {
        trigger_id: command.triggerId,
        view: {
          type: 'modal',
          callback_id: 'ticket_create',
          private_metadata: 'meta-1',
          title: { type: 'plain_text', text: 'New ticket' },
          submit: { type: 'plain_text', text: 'Create' },
          blocks: [
            {
              type: 'input',
              block_id: 'title',
              label: { type: 'plain_text', text: 'Title' },
              element: { type: 'plain_text_input', action_id: 'title_input' },
            },
            {
              type: 'input',
              block_id: 'priority',
              label: { type: 'plain_text', text: 'Priority' },
              element: {
                type: 'static_select',
                action_id: 'priority_select',
                options: [
                  { text: { type: 'plain_text', text: 'Low' }, value: 'low' },
                  { text: { type: 'plain_text', text: 'High' }, value: 'high' },
                ],
              },
            },
            {
              type: 'input',
              block_id: 'requester',
              optional: true,
              label: { type: 'plain_text', text: 'On behalf of' },
              element: { type: 'users_select', action_id: 'requester_select' },
            },
          ],
        },
      });
      app.requests.length = 0;
      return (opened.view as { id: string }).id;
    }

    it('builds view.state.values in Slack shapes from the opened view', async () => {
      const viewId = await openTicketModal();
      await driver.viewSubmission({
        viewId,
        values: { title_input: 'VPN down', priority_select: 'high', requester_select: ids.bob },
      });
      const payload = interactionPayload(only());
      expect(payload).toMatchObject({
        type: 'view_submission',
        user: { id: ids.alice },
        view: {
          id: viewId,
          callback_id: 'ticket_create',
          private_metadata: 'meta-1',
          hash: expect.any(String),
          state: {
            values: {
              title: { title_input: { type: 'plain_text_input', value: 'VPN down' } },
              priority: {
                priority_select: {
                  type: 'static_select',
                  selected_option: { text: { type: 'plain_text', text: 'High' }, value: 'high' },
                },
              },
              requester: { requester_select: { type: 'users_select', selected_user: ids.bob } },
            },
          },
        },
      });
    });

    it('returns the parsed ack of a submission refused with errors and keeps the view open', async () => {
      const viewId = await openTicketModal();
      reply = () => ({
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ response_action: 'errors', errors: { title: 'Too short' } }),
      });
      const result = await driver.viewSubmission({
        viewId,
        values: { title_input: 'x', priority_select: 'low' },
      });
      expect(result.body).toEqual({ response_action: 'errors', errors: { title: 'Too short' } });
      expect(result.responseAction).toBe('errors');
      expect(result.responseActionError).toBeUndefined();
      expect(double.workspace.modalStack(ids.alice).map((v) => v.id)).toEqual([viewId]);
    });

    it('closes the view on an empty ack', async () => {
      const viewId = await openTicketModal();
      await driver.viewSubmission({
        viewId,
        values: { title_input: 'VPN', priority_select: 'low' },
      });
      expect(double.workspace.modalStack(ids.alice)).toEqual([]);
    });

    it('replaces the view when the app acks with response_action update', async () => {
      const viewId = await openTicketModal();
      const next = {
        type: 'modal',
        title: { type: 'plain_text', text: 'Ticket IT-8 created' },
        blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'Done' } }],
      };
      reply = () => ({
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ response_action: 'update', view: next }),
      });
      const result = await driver.viewSubmission({
        viewId,
        values: { title_input: 'VPN', priority_select: 'low' },
      });
      expect(result.responseActionError).toBeUndefined();
      expect(double.workspace.view(viewId)?.title).toEqual(next.title);
    });

    it('reports a response_action errors naming a block that is not an input', async () => {
      const viewId = await openTicketModal();
      reply = () => ({
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ response_action: 'errors', errors: { nope: 'bad' } }),
      });
      const result = await driver.viewSubmission({
        viewId,
        values: { title_input: 'VPN', priority_select: 'low' },
      });
      expect(result.responseActionError?.error).toBe('invalid_arguments');
    });

    it('sends a message shortcut with the stored message and a usable trigger id', async () => {
      const posted = await driver.userPosts({
        userId: ids.bob,
        channelId: ids.itHelp,
        text: 'broken',
      });
      app.requests.length = 0;
      const result = await driver.messageShortcut({
        callbackId: 'ticket_from_message',
        userId: ids.alice,
        channelId: ids.itHelp,
        messageTs: posted.ts,
      });
      expect(interactionPayload(only())).toMatchObject({
        type: 'message_action',
        callback_id: 'ticket_from_message',
        trigger_id: result.triggerId,
        response_url: result.responseUrl,
        message_ts: posted.ts,
        message: { ts: posted.ts, user: ids.bob, text: 'broken' },
        channel: { id: ids.itHelp, name: 'it-help' },
        user: { id: ids.alice },
      });
    });

    it('sends a global shortcut with a trigger id', async () => {
      const result = await driver.globalShortcut({ callbackId: 'new_ticket', userId: ids.bob });
      expect(interactionPayload(only())).toMatchObject({
        type: 'shortcut',
        callback_id: 'new_ticket',
        trigger_id: result.triggerId,
        user: { id: ids.bob },
      });
    });

    it('sends a block action on a message button with its value and a response_url', async () => {
      const posted = await callApi(double, 'chat.postMessage', {
        channel: ids.itHelp,
        text: 'IT-3',
        blocks: [
          {
            type: 'actions',
            block_id: 'ticket_actions',
            elements: [
              {
                type: 'button',
                action_id: 'close_ticket',
                text: { type: 'plain_text', text: 'Close' },
                value: 'IT-3',
              },
            ],
          },
        ],
      });
      const result = await driver.blockAction({
        userId: ids.agent,
        channelId: ids.itHelp,
        messageTs: String(posted.ts),
        actionId: 'close_ticket',
      });
      expect(interactionPayload(only())).toMatchObject({
        type: 'block_actions',
        container: { type: 'message', message_ts: posted.ts, channel_id: ids.itHelp },
        actions: [
          { type: 'button', action_id: 'close_ticket', block_id: 'ticket_actions', value: 'IT-3' },
        ],
        response_url: result.responseUrl,
        message: { ts: posted.ts },
      });
    });
  });
  describe('workflow steps', () => {
    const step = {
      callbackId: 'create_service_desk_ticket',
      title: 'Create a service-desk ticket',
      inputParameters: [
        { name: 'title', type: 'string', is_required: true },
        { name: 'interactivity', type: 'slack#/types/interactivity' },
      ],
      outputParameters: [{ name: 'ticket_id', type: 'string', is_required: true }],
    };

    it('delivers function_executed with the run’s id, inputs and own token, the runner as the interactor', async () => {
      const { run } = await driver.runWorkflowStep({
        definition: step,
        inputs: { title: 'Laptop' },
        userId: ids.bob,
      });
      const body = JSON.parse(only().rawBody) as { event: Record<string, unknown> };
      expect(body.event).toMatchObject({
        type: 'function_executed',
        function: { callback_id: 'create_service_desk_ticket' },
        function_execution_id: run.executionId,
        bot_access_token: run.token,
        inputs: { title: 'Laptop', interactivity: { interactor: { id: ids.bob } } },
      });
      expect(double.runs.get(run.executionId)?.state).toBe('in_progress');
    });
  });
});

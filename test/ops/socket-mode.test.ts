/** In Socket Mode the app still serves /healthz, /readyz and /metrics on its HTTP port. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultIds } from '../../tools/slack-double/index.ts';
import { sample } from '../support/prometheus-text.ts';
import { APP_TOKEN, type Stack, startStack } from '../support/stack.ts';

const { alice, itHelp } = defaultIds;

describe('operations endpoints in Socket Mode', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ receiver: 'socket' });
    await stack.double.socketMode.waitForConnection();
  });
  afterAll(async () => {
    await stack.close();
  });

  it('opens its connection with the app-level token through apps.connections.open', () => {
    const opens = stack.double.callsTo('apps.connections.open');
    expect(opens.length).toBeGreaterThan(0);
    expect(opens.at(-1)?.response.ok).toBe(true);
    expect(stack.double.socketMode.connections).toBe(1);
    expect(JSON.stringify(stack.double.calls)).not.toContain(APP_TOKEN);
  });

  it('answers /healthz on its HTTP port', async () => {
    const health = await stack.app.get('/healthz');
    expect(health.status).toBe(200);
    expect(JSON.parse(health.text)).toEqual({ status: 'ok' });
  });

  it('answers /readyz on its HTTP port', async () => {
    const ready = await stack.app.get('/readyz');
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.text)).toMatchObject({ status: 'ready' });
  });

  it('answers /ticket help in the acknowledgement of a slash command envelope', async () => {
    const ack = await stack.app.socketDriver.slashCommand({
      userId: alice,
      channelId: itHelp,
      text: 'help',
    });
    expect(ack.payload).toMatchObject({ response_type: 'ephemeral' });
    expect(JSON.stringify(ack.payload)).toContain('/ticket');
  });

  it('opens the create modal for a plain /ticket sent over the WebSocket', async () => {
    const before = stack.double.callsTo('views.open').length;
    const ack = await stack.app.socketDriver.slashCommand({ userId: alice, channelId: itHelp });
    expect(ack.envelopeId).toBeTruthy();
    const call = await stack.double.waitForCall(
      'views.open',
      () => stack.double.callsTo('views.open').length > before,
    );
    expect(call.response.ok).toBe(true);
  });

  it('counts Socket Mode requests in /metrics', async () => {
    const text = (await stack.app.get('/metrics')).text;
    expect(
      sample(text, 'servicedesk_slack_requests_total', { kind: 'command', outcome: 'ok' }),
    ).toBeGreaterThanOrEqual(2);
  });
});

describe('acknowledgements in Socket Mode', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ receiver: 'socket' });
    await stack.double.socketMode.waitForConnection();
  });
  afterAll(async () => {
    if (stack.app.redis.status !== 'ready') await stack.app.redis.connect().catch(() => undefined);
    await stack.close();
  });

  it('leaves an event unacknowledged when its intent cannot be stored, so Slack delivers it again', async () => {
    const dm = stack.double.workspace.openIm(alice);
    const message = stack.double.workspace.postMessage(dm, {
      user: alice,
      text: 'Stored before acked',
    });
    stack.app.redis.disconnect();
    const delivery = stack.app.socketDriver.event({
      ...message,
      channel: dm,
      channel_type: 'im',
      event_ts: message.ts,
    });
    await expect(delivery).rejects.toThrow(/ack/i);
  });
});

/** The double's Socket Mode: apps.connections.open, the hello, envelopes and acks. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type SlackDouble,
  SocketAckTimeoutError,
  startSlackDouble,
} from '../../tools/slack-double/index.ts';
import { callApi } from './call-api.ts';

const APP_TOKEN = 'xapp-1-double-test';

/** A WebSocket client that records what the double sends and can ack envelopes. */
async function connect(url: string) {
  const received: Record<string, unknown>[] = [];
  const socket = new WebSocket(url);
  socket.addEventListener('message', (event) => {
    received.push(JSON.parse(String(event.data)) as Record<string, unknown>);
  });
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('error', reject, { once: true });
  });
  return { socket, received };
}

async function until<T>(check: () => T | undefined, what: string): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no ${what}`);
}

describe('Socket Mode in the double', () => {
  let double: SlackDouble;
  beforeEach(async () => {
    double = await startSlackDouble({ appToken: APP_TOKEN });
  });
  afterEach(async () => {
    await double.close();
  });

  it('hands out a WebSocket URL for the app-level token only', async () => {
    const opened = await callApi(double, 'apps.connections.open', {}, APP_TOKEN);
    expect(opened).toMatchObject({
      ok: true,
      url: expect.stringMatching(/^ws:\/\/127\.0\.0\.1:\d+\//),
    });
    const withBotToken = await callApi(double, 'apps.connections.open');
    expect(withBotToken).toMatchObject({ ok: false, error: 'not_allowed_token_type' });
    const wrong = await callApi(double, 'apps.connections.open', {}, 'xapp-1-wrong');
    expect(wrong).toMatchObject({ ok: false, error: 'invalid_auth' });
  });

  it('says hello on connect and takes each URL once', async () => {
    const opened = await callApi(double, 'apps.connections.open', {}, APP_TOKEN);
    const url = String(opened.url);
    const { socket, received } = await connect(url);
    const hello = await until(() => received.find((m) => m.type === 'hello'), 'hello');
    expect(hello).toMatchObject({ connection_info: { app_id: double.workspace.appId } });
    expect(double.socketMode.connections).toBe(1);
    await expect(connect(url)).rejects.toBeDefined();
    socket.close();
  });

  it('delivers an envelope and resolves with the app’s ack payload', async () => {
    const opened = await callApi(double, 'apps.connections.open', {}, APP_TOKEN);
    const { socket, received } = await connect(String(opened.url));
    await double.socketMode.waitForConnection();
    const acked = double.socketMode.deliver('slash_commands', { command: '/ticket', text: 'help' });
    const envelope = await until(
      () => received.find((m) => m.type === 'slash_commands'),
      'an envelope',
    );
    expect(envelope).toMatchObject({ accepts_response_payload: true, payload: { text: 'help' } });
    socket.send(JSON.stringify({ envelope_id: envelope.envelope_id, payload: { text: 'Hi' } }));
    await expect(acked).resolves.toMatchObject({ payload: { text: 'Hi' } });
    socket.close();
  });

  it('rejects a delivery the app does not acknowledge in time', async () => {
    const opened = await callApi(double, 'apps.connections.open', {}, APP_TOKEN);
    const { socket } = await connect(String(opened.url));
    await double.socketMode.waitForConnection();
    await expect(
      double.socketMode.deliver('events_api', { type: 'event_callback' }, { timeoutMs: 50 }),
    ).rejects.toBeInstanceOf(SocketAckTimeoutError);
    socket.close();
  });

  it('sends the token’s scopes in x-oauth-scopes when given them', async () => {
    const scoped = await startSlackDouble({ oauthScopes: ['chat:write', 'commands'] });
    const response = await fetch(`${scoped.apiUrl}auth.test`, {
      method: 'POST',
      headers: { authorization: `Bearer ${scoped.workspace.botToken}` },
    });
    expect(response.headers.get('x-oauth-scopes')).toBe('chat:write,commands');
    await response.arrayBuffer();
    await scoped.close();
  });
});

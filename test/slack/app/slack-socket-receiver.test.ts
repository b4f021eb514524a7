/**
 * The Socket Mode receiver under a real Bolt App, connected to the Slack double's Socket Mode:
 * when envelopes are acked and with what, and its HTTP port for the routes.
 */
import { App } from '@slack/bolt';
import { pino } from 'pino';
import { request } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isPortInUse } from '../../../src/port-in-use.ts';
import { boltLogger } from '../../../src/slack/app/bolt-logger.ts';
import { SlackSocketReceiver } from '../../../src/slack/app/slack-socket-receiver.ts';
import { type SlackDouble, startSlackDouble } from '../../../tools/slack-double/index.ts';
import { holdPort } from '../../support/held-port.ts';

const APP_TOKEN = 'xapp-1-receiver-test';
const logger = pino({ level: 'silent' });

let double: SlackDouble;
let app: App | undefined;
let receiver: SlackSocketReceiver;
let seen: string[];

beforeEach(async () => {
  double = await startSlackDouble({ appToken: APP_TOKEN });
  seen = [];
});
afterEach(async () => {
  await app?.stop();
  app = undefined;
  await double.close();
});

function build(port = 0): App {
  receiver = new SlackSocketReceiver({
    appToken: APP_TOKEN,
    apiUrl: double.apiUrl,
    routes: [
      {
        path: '/healthz',
        method: ['GET'],
        handler: (_req, res) => {
          res.writeHead(200);
          res.end('ok');
        },
      },
    ],
    port,
    logger,
    boltLogger: boltLogger(logger),
  });
  const built = new App({
    receiver,
    authorize: async () => ({ botToken: 'xoxb-test', botUserId: 'U0BOT', botId: 'B0BOT' }),
    logger: boltLogger(logger),
  });
  // As the app does: a listener's error is rethrown, so that the envelope stays unacked.
  built.error(async (error) => {
    throw error;
  });
  built.command('/held', async ({ ack }) => {
    await ack({ text: 'stored' });
    await new Promise((resolve) => setTimeout(resolve, 150));
    seen.push('finished');
  });
  built.command('/fails', async ({ ack }) => {
    await ack({ text: 'never sent' });
    throw new Error('the intent could not be stored');
  });
  built.command('/twice', async ({ ack }) => {
    await ack({ text: 'first' });
    await ack({ text: 'second' }).catch(() => seen.push('second ack refused'));
  });
  built.options('item_select', async ({ ack, payload }) => {
    seen.push(`options for ${payload.value}`);
    await ack({ options: [{ text: { type: 'plain_text', text: 'Laptop' }, value: 'cat_1' }] });
  });
  built.event('app_mention', async () => {
    seen.push('mention');
  });
  return built;
}

async function connected(): Promise<App> {
  app = build();
  await app.start();
  await double.socketMode.waitForConnection();
  return app;
}

async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 2_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function command(name: string): Record<string, unknown> {
  return {
    command: name,
    text: '',
    team_id: 'T0TEST',
    channel_id: 'C0TEST',
    user_id: 'U0ALICE',
    trigger_id: 'trigger',
    response_url: 'http://127.0.0.1:9/response',
  };
}

describe('the Socket Mode receiver', () => {
  it('acks an envelope only once the listener is done, with what it acked', async () => {
    await connected();
    const ack = await double.socketMode.deliver('slash_commands', command('/held'));
    expect(seen).toEqual(['finished']);
    expect(ack.payload).toEqual({ text: 'stored' });
  });

  it('leaves the envelope unacked when the listener fails, so that Slack delivers it again', async () => {
    await connected();
    const delivery = double.socketMode.deliver('slash_commands', command('/fails'), {
      timeoutMs: 500,
    });
    await expect(delivery).rejects.toThrow(/ack/i);
  });

  it('keeps the first ack and refuses a second', async () => {
    await connected();
    const ack = await double.socketMode.deliver('slash_commands', command('/twice'));
    expect(ack.payload).toEqual({ text: 'first' });
    expect(seen).toEqual(['second ack refused']);
  });

  it('acks an external select’s options request with the options its listener answered', async () => {
    await connected();
    const ack = await double.socketMode.deliver('interactive', {
      type: 'block_suggestion',
      user: { id: 'U0ALICE', team_id: 'T0TEST' },
      team: { id: 'T0TEST', domain: 'test' },
      action_id: 'item_select',
      block_id: 'item',
      value: 'lap',
      view: { id: 'V0TEST', callback_id: 'form', type: 'modal' },
    });
    expect(seen).toEqual(['options for lap']);
    expect(ack.payload).toEqual({
      options: [{ text: { type: 'plain_text', text: 'Laptop' }, value: 'cat_1' }],
    });
  });

  it('acks an event once its listeners are done', async () => {
    await connected();
    await double.socketMode.deliver('events_api', {
      type: 'event_callback',
      team_id: 'T0TEST',
      event_id: 'Ev1',
      event: { type: 'app_mention', user: 'U0ALICE', channel: 'C0TEST', text: 'hi', ts: '1.1' },
    });
    expect(seen).toEqual(['mention']);
  });

  it('acks an envelope of a shape the app does not route at once, the app not told', async () => {
    await connected();
    // (An event that is null never gets here: @slack/socket-mode reads its type first.)
    await double.socketMode.deliver('events_api', {
      type: 'event_callback',
      team_id: 'T0TEST',
      event: { type: 'app_mention', user: null, channel: 'C0TEST', text: 'hi', ts: '1.2' },
    });
    expect(seen).toEqual([]);
  });

  it('serves the routes on its HTTP port, known once started', async () => {
    await connected();
    const health = await request(`http://127.0.0.1:${receiver.port}/healthz`);
    expect([health.statusCode, await health.body.text()]).toEqual([200, 'ok']);
  });

  it('rejects its start when the port is taken, before opening a connection', async () => {
    const held = await holdPort();
    try {
      const error = await build(held.port)
        .start()
        .catch((e: unknown) => e);
      expect(isPortInUse(error)).toBe(true);
      expect(double.callsTo('apps.connections.open')).toEqual([]);
    } finally {
      await held.release();
    }
  });

  it('closes its connection and its port once stopped', async () => {
    const started = await connected();
    const port = receiver.port;
    await started.stop();
    app = undefined;
    await until(() => double.socketMode.connections === 0);
    await expect(request(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
  });
});

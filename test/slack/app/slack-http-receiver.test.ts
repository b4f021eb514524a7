/**
 * The HTTP receiver under a real Bolt App, over real HTTP: what Slack is answered and when, and
 * what the app and the operator are told.
 */
import { App } from '@slack/bolt';
import { pino } from 'pino';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { isPortInUse } from '../../../src/port-in-use.ts';
import { boltLogger } from '../../../src/slack/app/bolt-logger.ts';
import type { SignatureFailureReason } from '../../../src/slack/app/request-signature.ts';
import {
  SlackHttpReceiver,
  type SlackHttpReceiverOptions,
} from '../../../src/slack/app/slack-http-receiver.ts';
import { slackSignature } from '../../../tools/slack-double/index.ts';
import { holdPort } from '../../support/held-port.ts';

const SECRET = 'receiver-test-secret';
const FORM = 'application/x-www-form-urlencoded';
const logger = pino({ level: 'silent' });

interface Running {
  app: App;
  receiver: SlackHttpReceiver;
  failures: SignatureFailureReason[];
  /** What the listeners saw, in order. */
  seen: string[];
}

const running: Running[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) await r.app.stop();
});

async function start(options: Partial<SlackHttpReceiverOptions> = {}): Promise<Running> {
  const failures: SignatureFailureReason[] = [];
  const seen: string[] = [];
  const receiver = new SlackHttpReceiver({
    signingSecret: SECRET,
    endpoint: '/slack/events',
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
    port: 0,
    logger,
    boltLogger: boltLogger(logger),
    onSignatureFailure: (reason) => failures.push(reason),
    ...options,
  });
  const app = new App({
    receiver,
    authorize: async () => ({ botToken: 'xoxb-test', botUserId: 'U0BOT', botId: 'B0BOT' }),
    logger: boltLogger(logger),
  });
  // As the app does: a listener's error is rethrown, so that Slack is answered 500.
  app.error(async (error) => {
    throw error;
  });
  app.command('/held', async ({ ack, command }) => {
    await ack({ text: 'stored' });
    await new Promise((resolve) => setTimeout(resolve, 150));
    seen.push(`finished ${command.text}`);
  });
  app.command('/fails', async ({ ack }) => {
    await ack({ text: 'never sent' });
    throw new Error('the intent could not be stored');
  });
  app.command('/twice', async ({ ack }) => {
    await ack({ text: 'first' });
    await ack({ text: 'second' }).catch(() => seen.push('second ack refused'));
  });
  app.options('item_select', async ({ ack, payload }) => {
    seen.push(`options for ${payload.value}`);
    await ack({ options: [{ text: { type: 'plain_text', text: 'Laptop' }, value: 'cat_1' }] });
  });
  await app.start();
  const started = { app, receiver, failures, seen };
  running.push(started);
  return started;
}

function command(name: string, text = ''): string {
  return new URLSearchParams({
    command: name,
    text,
    team_id: 'T0TEST',
    channel_id: 'C0TEST',
    user_id: 'U0ALICE',
    trigger_id: 'trigger',
    response_url: 'http://127.0.0.1:9/response',
  }).toString();
}

async function post(
  r: Running,
  body: string,
  options: {
    contentType?: string;
    timestampSec?: number;
    secret?: string;
    unsigned?: boolean;
  } = {},
) {
  const timestamp = options.timestampSec ?? Math.floor(Date.now() / 1000);
  const headers: Record<string, string> = { 'content-type': options.contentType ?? FORM };
  if (!options.unsigned) {
    headers['x-slack-request-timestamp'] = String(timestamp);
    headers['x-slack-signature'] = slackSignature(options.secret ?? SECRET, timestamp, body);
  }
  const response = await request(`http://127.0.0.1:${r.receiver.port}/slack/events`, {
    method: 'POST',
    headers,
    body,
  });
  const text = await response.body.text();
  return { status: response.statusCode, text, at: r.seen.length };
}

describe('the HTTP receiver', () => {
  it('knows its port once started, and serves the routes on it beside Slack’s endpoint', async () => {
    const r = await start();
    expect(r.receiver.port).toBeGreaterThan(0);
    const health = await request(`http://127.0.0.1:${r.receiver.port}/healthz`);
    expect([health.statusCode, await health.body.text()]).toEqual([200, 'ok']);
  });

  it('answers Slack only once the listener is done, with what it acked', async () => {
    const r = await start();
    const answer = await post(r, command('/held', 'one'));
    expect(answer).toMatchObject({ status: 200, at: 1 });
    expect(JSON.parse(answer.text)).toEqual({ text: 'stored' });
  });

  it('answers 500, not the stored ack, when the listener fails after acking', async () => {
    const r = await start();
    const answer = await post(r, command('/fails'));
    expect(answer.status).toBe(500);
    expect(answer.text).not.toContain('never sent');
  });

  it('keeps the first ack and refuses a second', async () => {
    const r = await start();
    const answer = await post(r, command('/twice'));
    expect(JSON.parse(answer.text)).toEqual({ text: 'first' });
    expect(r.seen).toEqual(['second ack refused']);
  });

  it('refuses a request signed with another secret, reported as a mismatch', async () => {
    const r = await start();
    const answer = await post(r, command('/held'), { secret: 'another-secret' });
    expect(answer.status).toBe(401);
    expect(r.failures).toEqual(['mismatch']);
    expect(r.seen).toEqual([]);
  });

  it('refuses a request signed over five minutes ago, reported as stale', async () => {
    const r = await start();
    const answer = await post(r, command('/held'), {
      timestampSec: Math.floor(Date.now() / 1000) - 6 * 60,
    });
    expect([answer.status, r.failures]).toEqual([401, ['stale']]);
  });

  it('refuses a request signed over five minutes ahead, reported as stale', async () => {
    const r = await start();
    const answer = await post(r, command('/held'), {
      timestampSec: Math.floor(Date.now() / 1000) + 6 * 60,
    });
    expect([answer.status, r.failures, r.seen]).toEqual([401, ['stale'], []]);
  });

  it('refuses an unsigned request, reported as unsigned', async () => {
    const r = await start();
    const answer = await post(r, command('/held'), { unsigned: true });
    expect([answer.status, r.failures]).toEqual([401, ['unsigned']]);
  });

  it('answers 413 to a body past its limit', async () => {
    const r = await start({ bodyLimit: 1_000 });
    const answer = await post(r, command('/held', 'x'.repeat(2_000)));
    expect([answer.status, r.seen]).toEqual([413, []]);
  });

  it('answers 400 to a signed body that does not parse', async () => {
    const r = await start();
    const answer = await post(r, '{"type": "event_callback", ', {
      contentType: 'application/json',
    });
    expect(answer.status).toBe(400);
  });

  it('answers 400 to a signed body that parses to no object', async () => {
    const r = await start();
    const answers = await Promise.all(
      ['null', '42', '[1]'].map((body) => post(r, body, { contentType: 'application/json' })),
    );
    expect(answers.map((a) => a.status)).toEqual([400, 400, 400]);
  });

  it('answers a signed event of a shape the app does not route at once with 200, the app not told', async () => {
    const r = await start();
    const body = JSON.stringify({ type: 'event_callback', team_id: 'T0TEST', event: null });
    const answer = await post(r, body, { contentType: 'application/json' });
    expect([answer.status, r.seen]).toEqual([200, []]);
  });

  it('hands an external select’s options request to its listener and answers with its options', async () => {
    const r = await start();
    const payload = {
      type: 'block_suggestion',
      user: { id: 'U0ALICE', team_id: 'T0TEST' },
      team: { id: 'T0TEST', domain: 'test' },
      api_app_id: 'A0TEST',
      action_id: 'item_select',
      block_id: 'item',
      value: 'lap',
      container: { type: 'view', view_id: 'V0TEST' },
      view: { id: 'V0TEST', callback_id: 'form', type: 'modal' },
    };
    const answer = await post(
      r,
      new URLSearchParams({ payload: JSON.stringify(payload) }).toString(),
    );
    expect([answer.status, r.seen]).toEqual([200, ['options for lap']]);
    expect(JSON.parse(answer.text)).toEqual({
      options: [{ text: { type: 'plain_text', text: 'Laptop' }, value: 'cat_1' }],
    });
  });

  it('answers an options request without an action_id at once with 200, the app not told', async () => {
    const r = await start();
    const payload = { type: 'block_suggestion', user: { id: 'U0ALICE' }, value: 'lap' };
    const answer = await post(
      r,
      new URLSearchParams({ payload: JSON.stringify(payload) }).toString(),
    );
    expect([answer.status, r.seen]).toEqual([200, []]);
  });

  it('answers Slack’s URL verification with its challenge', async () => {
    const r = await start();
    const body = JSON.stringify({ type: 'url_verification', challenge: 'c-123', token: 't' });
    const answer = await post(r, body, { contentType: 'application/json' });
    expect([answer.status, JSON.parse(answer.text)]).toEqual([200, { challenge: 'c-123' }]);
  });

  it('answers Slack’s unsigned ssl_check with 200 and passes nothing on', async () => {
    const r = await start();
    const answer = await post(r, 'ssl_check=1&token=t', { unsigned: true });
    expect([answer.status, r.failures, r.seen]).toEqual([200, [], []]);
  });

  it('rejects its start with the listen error when the port is taken', async () => {
    const held = await holdPort();
    try {
      const error = await start({ port: held.port }).catch((e: unknown) => e);
      expect(isPortInUse(error)).toBe(true);
    } finally {
      await held.release();
    }
  });

  it('stops listening once stopped', async () => {
    const r = await start();
    const port = r.receiver.port;
    await r.app.stop();
    running.splice(running.indexOf(r), 1);
    await expect(request(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
    expect(r.receiver.port).toBeUndefined();
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DoubleClosedError,
  defaultIds,
  type SlackDouble,
  startSlackDouble,
  WaitTimeoutError,
} from '../../tools/slack-double/index.ts';
import { callApi } from './call-api.ts';

const ids = defaultIds;

describe('the Slack double server', () => {
  let double: SlackDouble;

  beforeEach(async () => {
    double = await startSlackDouble();
  });

  afterEach(async () => {
    await double.close();
  });

  it('listens on loopback and gives an API base ending in /api/', () => {
    expect(double.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(double.apiUrl).toBe(`${double.url}/api/`);
  });

  it('answers invalid_auth to an unknown token', async () => {
    const answer = await callApi(double, 'auth.test', {}, 'xoxb-someone-else');
    expect(answer).toEqual({ ok: false, error: 'invalid_auth' });
  });

  it('answers not_authed when no token is sent', async () => {
    const answer = await callApi(double, 'auth.test', {}, null);
    expect(answer).toEqual({ ok: false, error: 'not_authed' });
  });

  it('accepts the token in the form body as well as in the Authorization header', async () => {
    const body = new URLSearchParams({ token: ids.botToken }).toString();
    const response = await fetch(`${double.apiUrl}auth.test`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    expect(await response.json()).toMatchObject({ ok: true, user_id: ids.bot });
  });

  it('accepts JSON bodies', async () => {
    const response = await fetch(`${double.apiUrl}users.info`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ids.botToken}` },
      body: JSON.stringify({ user: ids.alice }),
    });
    expect(await response.json()).toMatchObject({ ok: true, user: { id: ids.alice } });
  });

  it('answers unknown_method to a method Slack’s Web API does not have', async () => {
    const answer = await callApi(double, 'chat.postMesage', { channel: ids.itHelp, text: 'x' });
    expect(answer).toMatchObject({ ok: false, error: 'unknown_method' });
    expect(double.takeViolations()).toEqual([
      "chat.postMesage: [ERROR] Slack's Web API has no method chat.postMesage",
    ]);
  });

  it('answers unknown_method, naming the gap, to a method Slack has and the double does not', async () => {
    const answer = await callApi(double, 'files.upload');
    expect(answer).toMatchObject({
      ok: false,
      error: 'unknown_method',
      response_metadata: { messages: [expect.stringContaining('does not implement files.upload')] },
    });
    expect(double.takeViolations()).toHaveLength(1);
  });

  it('answers auth.test with the team, the bot user and the bot id', async () => {
    const answer = await callApi(double, 'auth.test');
    expect(answer).toMatchObject({
      ok: true,
      team_id: ids.team,
      user_id: ids.bot,
      bot_id: ids.botId,
    });
  });

  it('accepts a configured bot token instead of the default one', async () => {
    const other = await startSlackDouble({ botToken: 'xoxb-configured' });
    try {
      expect((await callApi(other, 'auth.test', {}, 'xoxb-configured')).ok).toBe(true);
      expect((await callApi(other, 'auth.test', {}, ids.botToken)).error).toBe('invalid_auth');
    } finally {
      await other.close();
    }
  });

  it('records every call with its arguments and answer, without the token', async () => {
    await callApi(double, 'auth.test');
    await callApi(double, 'chat.postMessage', { channel: ids.itHelp, text: 'hello' });
    await callApi(double, 'chat.postMessage', { channel: ids.general, text: 'hello' });
    expect(double.calls.map((call) => call.method)).toEqual([
      'auth.test',
      'chat.postMessage',
      'chat.postMessage',
    ]);
    const [first, second] = double.callsTo('chat.postMessage');
    expect(first?.args).toEqual({ channel: ids.itHelp, text: 'hello' });
    expect(first?.response.ok).toBe(true);
    expect(second?.response).toEqual({ ok: false, error: 'not_in_channel' });
    expect(JSON.stringify(double.calls)).not.toContain(ids.botToken);
  });

  it('resolves waitForCall with a call made after the wait began', async () => {
    const waiting = double.waitForCall('chat.postMessage', (call) => call.args.text === 'late');
    await callApi(double, 'chat.postMessage', { channel: ids.itHelp, text: 'early' });
    await callApi(double, 'chat.postMessage', { channel: ids.itHelp, text: 'late' });
    const call = await waiting;
    expect(call.args.text).toBe('late');
  });

  it('resolves waitForCall at once with a matching call already made', async () => {
    await callApi(double, 'users.info', { user: ids.bob });
    const call = await double.waitForCall('users.info');
    expect(call.args.user).toBe(ids.bob);
  });

  it('rejects waitForCall with WaitTimeoutError when no call comes', async () => {
    await expect(double.waitForCall('views.open', undefined, 20)).rejects.toBeInstanceOf(
      WaitTimeoutError,
    );
  });

  it('rejects pending waits with DoubleClosedError when closed', async () => {
    const waiting = double.waitForCall('views.open', undefined, 10_000);
    await double.close();
    await expect(waiting).rejects.toBeInstanceOf(DoubleClosedError);
  });

  it('fails the next call to a method as told, then answers normally', async () => {
    double.failNext('chat.postMessage', 'fatal_error');
    const failed = await callApi(double, 'chat.postMessage', { channel: ids.itHelp, text: 'a' });
    const next = await callApi(double, 'chat.postMessage', { channel: ids.itHelp, text: 'b' });
    expect(failed).toEqual({ ok: false, error: 'fatal_error' });
    expect(next.ok).toBe(true);
    expect(double.callsTo('chat.postMessage').map((call) => call.injected)).toEqual([true, false]);
    expect(double.workspace.history(ids.itHelp).map((m) => m.text)).toEqual(['b']);
  });

  it('answers an injected ratelimited failure with HTTP 429 and Retry-After, as Slack does', async () => {
    double.failNext('chat.postMessage', 'ratelimited', { retryAfterSec: 7 });
    const response = await fetch(`${double.apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ids.botToken}` },
      body: new URLSearchParams({ channel: ids.itHelp, text: 'x' }),
    });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('7');
    expect(await response.json()).toEqual({ ok: false, error: 'ratelimited' });
  });

  it('fails as many calls in a row as asked', async () => {
    double.failNext('users.info', 'internal_error', { times: 2 });
    const answers = [];
    for (let i = 0; i < 3; i += 1)
      answers.push(await callApi(double, 'users.info', { user: ids.bob }));
    expect(answers.map((answer) => answer.ok)).toEqual([false, false, true]);
  });
});

describe('the response_url endpoint', () => {
  let double: SlackDouble;

  beforeEach(async () => {
    double = await startSlackDouble();
  });

  afterEach(async () => {
    await double.close();
  });

  const post = (url: string, body: unknown) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('records a reply and stores it as an ephemeral message for the user by default', async () => {
    const url = double.issueResponseUrl({
      source: 'slash_command',
      userId: ids.alice,
      channelId: ids.itHelp,
    });
    const response = await post(url, { text: 'Ticket IT-7 is open' });
    expect(response.status).toBe(200);
    const recorded = await double.waitForResponseUrlPost();
    expect(recorded).toMatchObject({ effect: 'ephemeral', body: { text: 'Ticket IT-7 is open' } });
    expect(double.workspace.ephemerals({ user: ids.alice }).map((e) => e.text)).toEqual([
      'Ticket IT-7 is open',
    ]);
    expect(double.workspace.history(ids.itHelp)).toEqual([]);
  });

  it('posts in the channel for response_type in_channel', async () => {
    const url = double.issueResponseUrl({
      source: 'slash_command',
      userId: ids.alice,
      channelId: ids.itHelp,
    });
    await post(url, { response_type: 'in_channel', text: 'Everyone: IT-7 is fixed' });
    expect(double.workspace.history(ids.itHelp).map((m) => [m.text, m.user])).toEqual([
      ['Everyone: IT-7 is fixed', ids.bot],
    ]);
  });

  it('replaces and then deletes the original message', async () => {
    const posted = await callApi(double, 'chat.postMessage', { channel: ids.itHelp, text: 'v1' });
    const ts = String(posted.ts);
    const url = double.issueResponseUrl({
      source: 'block_actions',
      userId: ids.agent,
      channelId: ids.itHelp,
      messageTs: ts,
    });
    await post(url, { replace_original: true, text: 'v2' });
    expect(double.workspace.message(ids.itHelp, ts)?.text).toBe('v2');
    await post(url, { delete_original: true });
    expect(double.workspace.message(ids.itHelp, ts)).toBeUndefined();
    expect(double.responseUrlPosts.map((p) => p.effect)).toEqual([
      'replace_original',
      'delete_original',
    ]);
  });

  it('refuses a reply without text or blocks with 400 no_text', async () => {
    const url = double.issueResponseUrl({
      source: 'slash_command',
      userId: ids.alice,
      channelId: ids.itHelp,
    });
    const response = await post(url, { response_type: 'ephemeral' });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ ok: false, error: 'no_text' });
  });

  it('refuses a sixth use of one response_url, as Slack allows five', async () => {
    const url = double.issueResponseUrl({
      source: 'slash_command',
      userId: ids.alice,
      channelId: ids.itHelp,
    });
    const statuses = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await post(url, { text: `reply ${i}` })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 404]);
  });

  it('answers 404 to a response_url it never issued', async () => {
    const response = await post(`${double.url}/response/abcdef`, { text: 'hi' });
    expect(response.status).toBe(404);
  });
});

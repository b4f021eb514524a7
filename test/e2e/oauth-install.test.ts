/**
 * Installing by OAuth, end to end over real HTTP: an admin visits /slack/install, approves on
 * the Slack double's consent screen and comes back to /slack/oauth_redirect with a code, which
 * the app exchanges (oauth.v2.access) for a workspace's bot token, or an organization's.
 * Events from each workspace are answered with that workspace's token (the double records
 * whose token each call carried); an uninstall removes one installation and leaves the other.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { defaultIds, SlackDriver, secondIds } from '../../tools/slack-double/index.ts';
import { eventually } from '../support/eventually.ts';
import {
  OAUTH_ENV,
  ROUTED_DESK,
  SIGNING_SECRET,
  type Stack,
  startStack,
} from '../support/stack.ts';

let stack: Stack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

/** Installs the app as an admin of `team` (a team id, or the enterprise id for org-wide). */
async function installByOAuth(on: Stack, team: string): Promise<{ status: number; text: string }> {
  const base = `http://127.0.0.1:${on.app.port}`;
  const start = await fetch(`${base}/slack/install`, { redirect: 'manual' });
  expect(start.status).toBe(302);
  const cookie = start.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  const consent = new URL(start.headers.get('location') ?? '');
  expect(consent.pathname).toBe('/oauth/v2/authorize');
  consent.searchParams.set('team', team);
  const approved = await fetch(consent, { redirect: 'manual' });
  expect(approved.status).toBe(302);
  const back = await fetch(approved.headers.get('location') ?? '', { headers: { cookie } });
  return { status: back.status, text: await back.text() };
}

function driverFor(on: Stack, workspaceIndex: number): SlackDriver {
  const workspace = on.double.workspaces[workspaceIndex];
  if (!workspace) throw new Error('no such workspace');
  return new SlackDriver({
    appUrl: `http://127.0.0.1:${on.app.port}/slack/events`,
    signingSecret: SIGNING_SECRET,
    double: on.double,
    workspace,
  });
}

/** The token owner of the Home published for `user`. */
async function homePublishedWith(on: Stack, user: string): Promise<string | undefined> {
  const call = await on.double.waitForCall(
    'views.publish',
    (c) => c.args.user_id === user && c.status === 200,
  );
  return call.tokenOf;
}

describe('installing by OAuth', () => {
  it('installs into two workspaces and answers each one’s events with its own token', async () => {
    stack = await startStack({ oauth: true });
    const first = await installByOAuth(stack, defaultIds.team);
    expect(first.status).toBe(200);
    expect((await installByOAuth(stack, secondIds.team)).status).toBe(200);
    const summaries = (await installationsOf(stack)).map((s) => `${s.kind}:${s.teamId}`).sort();
    expect(summaries).toEqual([`workspace:${defaultIds.team}`, `workspace:${secondIds.team}`]);

    const second = driverFor(stack, 1);
    try {
      await stack.driver.appHomeOpened({ userId: defaultIds.alice });
      await second.appHomeOpened({ userId: secondIds.elsa });
      expect(await homePublishedWith(stack, defaultIds.alice)).toBe(defaultIds.team);
      expect(await homePublishedWith(stack, secondIds.elsa)).toBe(secondIds.team);
    } finally {
      await second.close();
    }
  });

  it('installs org-wide and answers both workspaces with the organization’s token', async () => {
    stack = await startStack({ oauth: true });
    expect((await installByOAuth(stack, secondIds.enterprise)).status).toBe(200);
    const summaries = await installationsOf(stack);
    expect(summaries).toMatchObject([{ kind: 'org', enterpriseId: secondIds.enterprise }]);
    const second = driverFor(stack, 1);
    try {
      await stack.driver.appHomeOpened({ userId: defaultIds.alice });
      await second.appHomeOpened({ userId: secondIds.elsa });
      expect(await homePublishedWith(stack, defaultIds.alice)).toBe(secondIds.enterprise);
      expect(await homePublishedWith(stack, secondIds.elsa)).toBe(secondIds.enterprise);
    } finally {
      await second.close();
    }
  });

  it('removes one workspace’s installation on app_uninstalled and keeps answering the other', async () => {
    stack = await startStack({ oauth: true });
    await installByOAuth(stack, defaultIds.team);
    await installByOAuth(stack, secondIds.team);
    const uninstalled = await stack.driver.event({ type: 'app_uninstalled' });
    expect(uninstalled.status).toBe(200);
    await eventually(
      async () => (await installationsOf(stack as Stack)).length === 1,
      5_000,
      'the installation removed',
    );
    expect((await installationsOf(stack)).map((s) => s.teamId)).toEqual([secondIds.team]);
    expect(stack.logs.join('')).toContain('Slack installation removed');
    // Slack revoked the first workspace's token; its events now find no installation.
    stack.double.oauth.revoke(defaultIds.team);
    const before = stack.double.calls.length;
    const orphan = await stack.driver.appHomeOpened({ userId: defaultIds.alice });
    expect(orphan.status).not.toBe(200);
    expect(stack.double.calls.slice(before).filter((c) => c.tokenOf === defaultIds.team)).toEqual(
      [],
    );

    const second = driverFor(stack, 1);
    try {
      await second.appHomeOpened({ userId: secondIds.elsa });
      expect(await homePublishedWith(stack, secondIds.elsa)).toBe(secondIds.team);
    } finally {
      await second.close();
    }
  });

  it('removes the installation whose bot token Slack revoked (tokens_revoked), not on user tokens alone', async () => {
    stack = await startStack({ oauth: true });
    await installByOAuth(stack, defaultIds.team);
    await installByOAuth(stack, secondIds.team);
    const second = driverFor(stack, 1);
    try {
      await second.event({ type: 'tokens_revoked', tokens: { oauth: [secondIds.elsa] } });
      expect(await installationsOf(stack)).toHaveLength(2);
      await second.event({ type: 'tokens_revoked', tokens: { bot: [secondIds.bot] } });
      await eventually(
        async () => (await installationsOf(stack as Stack)).length === 1,
        5_000,
        'the installation removed',
      );
      expect((await installationsOf(stack)).map((s) => s.teamId)).toEqual([defaultIds.team]);
    } finally {
      await second.close();
    }
  });

  it('files a direct message as a ticket in the one workspace installed, its reply posted with that workspace’s token', async () => {
    stack = await startStack({ oauth: true });
    await installByOAuth(stack, secondIds.team);
    const second = driverFor(stack, 1);
    try {
      const workspace = stack.double.workspaces[1];
      const dm = workspace?.openIm(secondIds.elsa) ?? '';
      const sent = await second.userPosts({
        userId: secondIds.elsa,
        channelId: dm,
        text: 'The VPN drops every hour',
      });
      const reply = await stack.double.waitForCall(
        'chat.postMessage',
        (call) =>
          call.args.channel === dm && call.args.thread_ts === sent.ts && call.status === 200,
      );
      expect(reply.tokenOf).toBe(secondIds.team);
    } finally {
      await second.close();
    }
  });

  it('is ready once one installation answers auth.test, and not before', async () => {
    stack = await startStack({ oauth: true });
    expect((await stack.app.get('/readyz')).status).toBe(503);
    await installByOAuth(stack, secondIds.team);
    await eventually(
      async () => (await (stack as Stack).app.get('/readyz')).status === 200,
      5_000,
      'ready after the install',
    );
  });

  it('starts quietly with nothing installed: the triage channels wait for an install, and are read back and checked after it', async () => {
    stack = await startStack({
      oauth: true,
      deskTriageChannels: `${ROUTED_DESK}=${defaultIds.agentsPrivate}`,
    });
    const on = stack;
    const said = (text: string) => on.logs.some((line) => line.includes(text));
    await eventually(
      () => said('installed in no workspace yet') || undefined,
      5_000,
      'the triage tasks waiting for an install',
    );
    // A heal check every 100 ms meanwhile: still waiting, said once.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const errors = on.logs.filter((line) => JSON.parse(line).level >= 50);
    expect(errors).toEqual([]);
    const waiting = on.logs.filter((line) => line.includes('installed in no workspace yet'));
    // Once by the heal, once by the privacy look.
    expect(waiting).toHaveLength(2);
    expect(on.double.callsTo('conversations.info')).toEqual([]);

    await installByOAuth(on, defaultIds.team);
    await eventually(
      () => said('triage channels read back from their pinned records') || undefined,
      5_000,
      'the heal after the install',
    );
    await eventually(
      () =>
        on.double
          .callsTo('conversations.info')
          .some((call) => call.args.channel === defaultIds.agentsPrivate) || undefined,
      5_000,
      'the triage channel’s privacy checked after the install',
    );
    expect(on.logs.filter((line) => JSON.parse(line).level >= 50)).toEqual([]);
  });

  it('logs no token, client secret or token key while installing and answering', async () => {
    stack = await startStack({ oauth: true, logLevel: 'trace' });
    await installByOAuth(stack, defaultIds.team);
    await installByOAuth(stack, secondIds.enterprise);
    await stack.driver.appHomeOpened({ userId: defaultIds.alice });
    await homePublishedWith(stack, defaultIds.alice);
    const logs = stack.logs.join('\n');
    expect(logs.length).toBeGreaterThan(0);
    expect(logs).not.toMatch(/xox[bp]-[A-Za-z0-9]/);
    expect(logs).not.toContain(OAUTH_ENV.SLACK_CLIENT_SECRET);
    expect(logs).not.toContain(OAUTH_ENV.SLACK_TOKEN_KEY);
  });

  it('keeps no installation when Slack fails the code exchange (500 after one retry, or 429 with Retry-After)', async () => {
    stack = await startStack({ oauth: true });
    stack.double.failNext('oauth.v2.access', 'internal_error', { status: 500, times: 2 });
    const failed = await installByOAuth(stack, defaultIds.team);
    stack.double.failNext('oauth.v2.access', 'ratelimited', { retryAfterSec: 30 });
    const limited = await installByOAuth(stack, defaultIds.team);
    expect(failed.status).toBeGreaterThanOrEqual(400);
    expect(limited.status).toBeGreaterThanOrEqual(400);
    expect(await installationsOf(stack)).toEqual([]);
    // The admin starts again from /slack/install once Slack answers.
    expect((await installByOAuth(stack, defaultIds.team)).status).toBe(200);
    expect((await installationsOf(stack)).map((s) => s.teamId)).toEqual([defaultIds.team]);
  });

  it('refuses a redirect whose state it did not make', async () => {
    stack = await startStack({ oauth: true });
    const forged = await fetch(
      `http://127.0.0.1:${stack.app.port}/slack/oauth_redirect?code=code-1&state=forged.state`,
    );
    expect(forged.status).toBeGreaterThanOrEqual(400);
    expect(await installationsOf(stack)).toEqual([]);
    expect(stack.double.oauth.exchanges).toEqual([]);
  });
});

async function installationsOf(on: Stack) {
  const stores = on.app.installStores;
  if (!stores) throw new Error('not an OAuth stack');
  return (await stores.installations.list()).map((kept) => kept.summary);
}

/** The double's organization and OAuth exchange: what installing by OAuth talks to. */
import { afterEach, describe, expect, it } from 'vitest';
import {
  defaultIds,
  nthWorkspaceIds,
  type SlackDouble,
  SlackDriver,
  secondIds,
  startSlackDouble,
} from '../../tools/slack-double/index.ts';
import { slashCommandForm } from '../../tools/slack-double/slack-payloads.ts';
import { callApi } from './call-api.ts';
import { type FakeApp, startFakeApp } from './fake-app.ts';

let double: SlackDouble;
let app: FakeApp | undefined;
let driver: SlackDriver | undefined;
afterEach(async () => {
  await driver?.close();
  driver = undefined;
  await app?.close();
  app = undefined;
  await double.close();
});

/** Approves an install for `team` and returns the code Slack sends back. */
async function codeFor(team: string): Promise<string> {
  const url = new URL(`${double.url}/oauth/v2/authorize`);
  url.searchParams.set('team', team);
  url.searchParams.set('scope', 'chat:write,users:read');
  url.searchParams.set('state', 'st');
  url.searchParams.set('redirect_uri', 'http://app.example/slack/oauth_redirect');
  const answer = await fetch(url, { redirect: 'manual' });
  expect(answer.status).toBe(302);
  const back = new URL(answer.headers.get('location') ?? '');
  expect(back.searchParams.get('state')).toBe('st');
  return back.searchParams.get('code') ?? '';
}

const client = { client_id: '1.2', client_secret: 'shh' };

describe('the Slack double’s organization', () => {
  it('keeps one workspace, outside any organization, unless asked', async () => {
    double = await startSlackDouble();
    expect(double.workspaces).toHaveLength(1);
    expect(double.workspace.enterpriseId).toBeUndefined();
  });

  it('exchanges a code once for a workspace’s token, which then acts on that workspace', async () => {
    double = await startSlackDouble({ organization: {} });
    const code = await codeFor(secondIds.team);
    const access = await callApi(double, 'oauth.v2.access', { code, ...client }, null);
    expect(access).toMatchObject({
      ok: true,
      is_enterprise_install: false,
      team: { id: secondIds.team },
      enterprise: { id: secondIds.enterprise },
      scope: 'chat:write,users:read',
      bot_user_id: secondIds.bot,
    });
    const again = await callApi(double, 'oauth.v2.access', { code, ...client }, null);
    expect(again).toMatchObject({ ok: false, error: 'invalid_code' });
    const token = String(access.access_token);
    expect(await callApi(double, 'auth.test', {}, token)).toMatchObject({
      ok: true,
      team_id: secondIds.team,
    });
    expect(double.callsTo('auth.test')[0]?.tokenOf).toBe(secondIds.team);
  });

  it('installs org-wide for the enterprise id: one token for both workspaces', async () => {
    double = await startSlackDouble({ organization: {} });
    const code = await codeFor(secondIds.enterprise);
    const access = await callApi(double, 'oauth.v2.access', { code, ...client }, null);
    expect(access).toMatchObject({ ok: true, is_enterprise_install: true, team: null });
    const token = String(access.access_token);
    const posted = await callApi(
      double,
      'chat.postMessage',
      { channel: secondIds.euHelp, text: 'hi' },
      token,
    );
    expect(posted.ok).toBe(true);
    expect(double.workspaces[1]?.messages(secondIds.euHelp)).toHaveLength(1);
    expect(
      await callApi(double, 'chat.postMessage', { channel: defaultIds.itHelp, text: 'hi' }, token),
    ).toMatchObject({ ok: true });
    expect(await callApi(double, 'auth.test', {}, token)).toMatchObject({
      is_enterprise_install: true,
      enterprise_id: secondIds.enterprise,
    });
  });

  it('refuses a revoked token and an unknown team', async () => {
    double = await startSlackDouble({ organization: {} });
    const access = await callApi(
      double,
      'oauth.v2.access',
      { code: await codeFor(defaultIds.team), ...client },
      null,
    );
    double.oauth.revoke(defaultIds.team);
    expect(await callApi(double, 'auth.test', {}, String(access.access_token))).toMatchObject({
      ok: false,
      error: 'token_revoked',
    });
    const refused = await fetch(`${double.url}/oauth/v2/authorize?team=T9999&redirect_uri=x`, {
      redirect: 'manual',
    });
    expect(refused.status).toBe(400);
  });

  it('models an organization of N workspaces, each installed with a token acting on it alone', async () => {
    double = await startSlackDouble({ organization: { workspaces: 20 } });
    expect(double.workspaces).toHaveLength(20);
    expect(new Set(double.workspaces.map((each) => each.team.id)).size).toBe(20);
    expect(double.workspaces.every((each) => each.enterpriseId === secondIds.enterprise)).toBe(
      true,
    );
    const twentieth = nthWorkspaceIds(20);
    const access = await callApi(
      double,
      'oauth.v2.access',
      { code: await codeFor(twentieth.team), ...client },
      null,
    );
    expect(access).toMatchObject({
      ok: true,
      team: { id: twentieth.team },
      bot_user_id: twentieth.bot,
    });
    const token = String(access.access_token);
    const posted = await callApi(
      double,
      'chat.postMessage',
      { channel: defaultIds.itHelp, text: 'from the twentieth' },
      token,
    );
    expect(posted.ok).toBe(true);
    expect(double.workspaces[19]?.messages(defaultIds.itHelp)).toHaveLength(1);
    expect(double.workspace.messages(defaultIds.itHelp)).toHaveLength(0);
    expect(double.callsTo('chat.postMessage')[0]?.tokenOf).toBe(twentieth.team);
  });

  it('answers an injected 500 on the exchange for a workspace of a large organization, and the code still works once', async () => {
    double = await startSlackDouble({ organization: { workspaces: 5 } });
    const code = await codeFor(nthWorkspaceIds(5).team);
    double.failNext('oauth.v2.access', 'internal_error', { status: 500 });
    const failed = await callApi(double, 'oauth.v2.access', { code, ...client }, null);
    expect(failed).toMatchObject({ ok: false, error: 'internal_error' });
    const access = await callApi(double, 'oauth.v2.access', { code, ...client }, null);
    expect(access).toMatchObject({ ok: true, team: { id: nthWorkspaceIds(5).team } });
  });

  it('sends a slash command from a Grid workspace with its enterprise_id, and none outside one', async () => {
    double = await startSlackDouble({ organization: { workspaces: 3 } });
    const form = (index: number) => {
      const workspace = double.workspaces[index];
      const itHelp = workspace?.conversation(defaultIds.itHelp);
      if (!workspace || !itHelp) throw new Error('no such workspace');
      return slashCommandForm(
        { workspace, verificationToken: 'v' },
        {
          userId: nthWorkspaceIds(3).alice,
          conversation: itHelp,
          command: '/ticket',
          text: 'help',
          triggerId: 't',
          responseUrl: 'http://x',
        },
      );
    };
    expect(form(2)).toMatchObject({
      team_id: nthWorkspaceIds(3).team,
      enterprise_id: secondIds.enterprise,
    });
    await double.close();
    double = await startSlackDouble();
    expect(form(0).enterprise_id).toBeUndefined();
  });

  it('sends block actions, shortcuts and view submissions of an org-wide install as Slack does: the enterprise, and is_enterprise_install true', async () => {
    double = await startSlackDouble({ organization: {} });
    const fakeApp = await startFakeApp();
    app = fakeApp;
    const eu = double.workspaces[1];
    if (!eu) throw new Error('no second workspace');
    const euDriver = new SlackDriver({
      appUrl: fakeApp.url,
      signingSecret: 'org-wide-signing-secret',
      double,
      workspace: eu,
    });
    driver = euDriver;
    const posted = await callApi(
      double,
      'chat.postMessage',
      {
        channel: secondIds.euHelp,
        text: 'a card',
        blocks: [
          {
            type: 'actions',
            elements: [
              { type: 'button', action_id: 'take', text: { type: 'plain_text', text: 'Take' } },
            ],
          },
        ],
      },
      secondIds.botToken,
    );
    const messageTs = String(posted.ts);
    // Every interaction an admin's install can meet: a button, both shortcuts, a submission.
    const interact = async (token: string) => {
      const action = await euDriver.blockAction({
        userId: secondIds.elsa,
        actionId: 'take',
        channelId: secondIds.euHelp,
        messageTs,
      });
      const onMessage = await euDriver.messageShortcut({
        callbackId: 'file_ticket',
        userId: secondIds.elsa,
        channelId: secondIds.euHelp,
        messageTs,
      });
      const global = await euDriver.globalShortcut({
        callbackId: 'new_ticket',
        userId: secondIds.elsa,
      });
      const opened = await callApi(
        double,
        'views.open',
        {
          trigger_id: global.triggerId,
          view: { type: 'modal', title: { type: 'plain_text', text: 'New ticket' }, blocks: [] },
        },
        token,
      );
      expect(opened).toMatchObject({ ok: true });
      const submitted = await euDriver.viewSubmission({
        viewId: String((opened.view as { id: string }).id),
        userId: secondIds.elsa,
      });
      return [action, onMessage, global, submitted].map((sent) => sent.payload);
    };
    // Installed in the workspace alone: a Grid workspace's enterprise, not an org-wide install.
    for (const payload of await interact(secondIds.botToken)) {
      expect(payload).toMatchObject({
        is_enterprise_install: false,
        enterprise: { id: secondIds.enterprise },
        team: { id: secondIds.team, enterprise_id: secondIds.enterprise },
      });
    }
    const access = await callApi(
      double,
      'oauth.v2.access',
      { code: await codeFor(secondIds.enterprise), ...client },
      null,
    );
    expect(access).toMatchObject({ ok: true, is_enterprise_install: true });
    // The organization's token opens the modal where the trigger was issued: Acme EU.
    for (const payload of await interact(String(access.access_token))) {
      expect(payload).toMatchObject({
        is_enterprise_install: true,
        enterprise: { id: secondIds.enterprise },
        team: { id: secondIds.team },
      });
    }
    expect(eu.modalStack(secondIds.elsa)).toHaveLength(0);
    expect(double.callsTo('views.open').map((call) => call.response?.ok)).toEqual([true, true]);
  });

  it('sends interactions outside any organization with no enterprise', async () => {
    double = await startSlackDouble();
    const fakeApp = await startFakeApp();
    app = fakeApp;
    driver = new SlackDriver({
      appUrl: fakeApp.url,
      signingSecret: 'one-workspace-signing-secret',
      double,
      workspace: double.workspace,
    });
    const sent = await driver.globalShortcut({
      callbackId: 'new_ticket',
      userId: defaultIds.alice,
    });
    expect(sent.payload).toMatchObject({ is_enterprise_install: false, enterprise: null });
    expect((sent.payload.team as { enterprise_id?: string }).enterprise_id).toBeUndefined();
  });
});

/**
 * A driver playing the people of an organization's second workspace: the trigger a slash
 * command carries is that workspace's, so the app opens its modal with that workspace's token,
 * as Slack lets it (a trigger is good in the workspace that issued it).
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  type SlackDouble,
  SlackDriver,
  secondIds,
  startSlackDouble,
} from '../../tools/slack-double/index.ts';
import { callApi } from './call-api.ts';
import { type FakeApp, startFakeApp } from './fake-app.ts';

const SECRET = 'second-workspace-signing-secret';

let double: SlackDouble | undefined;
let app: FakeApp | undefined;
let driver: SlackDriver | undefined;
afterEach(async () => {
  await driver?.close();
  await app?.close();
  await double?.close();
});

describe('a driver for the organization’s second workspace', () => {
  it('gives a slash command a trigger that opens a modal in that workspace, with its token', async () => {
    double = await startSlackDouble({ organization: {} });
    app = await startFakeApp();
    const second = double.workspaces[1];
    if (!second) throw new Error('no second workspace');
    driver = new SlackDriver({
      appUrl: app.url,
      signingSecret: SECRET,
      double,
      workspace: second,
    });
    await driver.slashCommand({ userId: secondIds.elsa, channelId: secondIds.euHelp });
    const sent = new URLSearchParams(app.requests[0]?.rawBody ?? '');
    expect(sent.get('team_id')).toBe(secondIds.team);
    const opened = await callApi(
      double,
      'views.open',
      {
        trigger_id: sent.get('trigger_id'),
        view: { type: 'modal', title: { type: 'plain_text', text: 'New ticket' }, blocks: [] },
      },
      secondIds.botToken,
    );
    expect(opened).toMatchObject({ ok: true });
    expect(second.modalStack(secondIds.elsa)).toHaveLength(1);
    expect(double.workspace.modalStack(secondIds.elsa)).toHaveLength(0);
  });
});

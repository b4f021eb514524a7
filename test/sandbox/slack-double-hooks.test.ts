/**
 * What the Slack double gained for the simulator: a signal after each thing the app does, the
 * App Home event, and closing a modal (view_closed only for a view that asked for it).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  defaultIds,
  type SlackDouble,
  SlackDriver,
  startSlackDouble,
} from '../../tools/slack-double/index.ts';
import { callApi } from '../slack-double/call-api.ts';
import { type FakeApp, startFakeApp } from '../slack-double/fake-app.ts';

const SECRET = 'hooks-signing-secret';

describe('the Slack double for the simulator', () => {
  let double: SlackDouble;
  let app: FakeApp;
  let driver: SlackDriver;

  beforeEach(async () => {
    double = await startSlackDouble();
    app = await startFakeApp();
    driver = new SlackDriver({ appUrl: app.url, signingSecret: SECRET, double });
  });

  afterEach(async () => {
    await driver.close();
    await app.close();
    await double.close();
  });

  it('tells an activity listener after each Web API call the app makes', async () => {
    let heard = 0;
    const stop = double.onActivity(() => {
      heard += 1;
    });
    await callApi(double, 'chat.postMessage', { channel: defaultIds.itHelp, text: 'hello' });
    stop();
    await callApi(double, 'chat.postMessage', { channel: defaultIds.itHelp, text: 'again' });
    expect(heard).toBe(1);
  });

  it('delivers app_home_opened with the person’s DM and their published Home', async () => {
    double.workspace.publishHome(defaultIds.alice, { type: 'home', blocks: [] });
    await driver.appHomeOpened({ userId: defaultIds.alice, tab: 'home' });
    const envelope = JSON.parse(app.requests.at(-1)?.rawBody ?? '{}');
    expect(envelope.event).toMatchObject({
      type: 'app_home_opened',
      user: defaultIds.alice,
      channel: double.workspace.openIm(defaultIds.alice),
      tab: 'home',
      view: { type: 'home' },
    });
  });

  it('closes a modal without a word to the app unless the view asked to hear of it', async () => {
    const quiet = double.workspace.openModal(defaultIds.alice, { type: 'modal', blocks: [] });
    expect(await driver.viewClosed({ viewId: quiet.id })).toBeUndefined();
    expect(double.workspace.modalStack(defaultIds.alice)).toEqual([]);
    expect(app.requests).toHaveLength(0);
  });

  it('sends view_closed for a modal opened with notify_on_close', async () => {
    const view = double.workspace.openModal(defaultIds.alice, {
      type: 'modal',
      blocks: [],
      notify_on_close: true,
    });
    await driver.viewClosed({ viewId: view.id });
    const payload = JSON.parse(
      new URLSearchParams(app.requests.at(-1)?.rawBody ?? '').get('payload') ?? '{}',
    );
    expect(payload).toMatchObject({
      type: 'view_closed',
      user: { id: defaultIds.alice },
      view: { id: view.id },
      is_cleared: false,
    });
  });
});

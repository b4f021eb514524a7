/** The double's Enterprise Grid organization as the app meets it: shared people and channels. */
import { afterEach, describe, expect, it } from 'vitest';
import {
  defaultIds,
  type SlackDouble,
  secondIds,
  startSlackDouble,
} from '../../tools/slack-double/index.ts';
import { callApi } from './call-api.ts';

let double: SlackDouble;
afterEach(async () => {
  await double.close();
});

describe('the Slack double’s organization of two workspaces', () => {
  it('has Sam the agent in both workspaces under one user id and one email', async () => {
    double = await startSlackDouble({ organization: {} });
    for (const token of [defaultIds.botToken, secondIds.botToken]) {
      const found = await callApi(
        double,
        'users.lookupByEmail',
        { email: 'sam.rivera@acme.example' },
        token,
      );
      expect(found).toMatchObject({ ok: true, user: { id: defaultIds.agent } });
    }
  });

  it('has a private #eu-triage in Acme EU, with the bot and Sam, that Acme’s token cannot see', async () => {
    double = await startSlackDouble({ organization: {} });
    const there = await callApi(
      double,
      'conversations.info',
      { channel: secondIds.euTriage },
      secondIds.botToken,
    );
    expect(there).toMatchObject({ ok: true, channel: { is_private: true, name: 'eu-triage' } });
    const members = await callApi(
      double,
      'conversations.members',
      { channel: secondIds.euTriage },
      secondIds.botToken,
    );
    expect(members.members).toEqual(expect.arrayContaining([secondIds.bot, defaultIds.agent]));
    const fromAcme = await callApi(
      double,
      'conversations.info',
      { channel: secondIds.euTriage },
      defaultIds.botToken,
    );
    expect(fromAcme).toMatchObject({ ok: false, error: 'channel_not_found' });
  });

  it('has the org-wide #acme-all under one id in both workspaces', async () => {
    double = await startSlackDouble({ organization: {} });
    for (const token of [defaultIds.botToken, secondIds.botToken]) {
      const info = await callApi(
        double,
        'conversations.info',
        { channel: secondIds.orgWide },
        token,
      );
      expect(info).toMatchObject({ ok: true, channel: { name: 'acme-all' } });
    }
  });

  it('keeps one history of #acme-all, whichever workspace’s token writes or reads it', async () => {
    double = await startSlackDouble({ organization: {} });
    const posted = await callApi(
      double,
      'chat.postMessage',
      { channel: secondIds.orgWide, text: 'From Acme' },
      defaultIds.botToken,
    );
    const reply = await callApi(
      double,
      'chat.postMessage',
      { channel: secondIds.orgWide, text: 'From Acme EU', thread_ts: posted.ts },
      secondIds.botToken,
    );
    expect(reply.ok).toBe(true);
    const thread = double.workspaces[1]?.thread(secondIds.orgWide, String(posted.ts)) ?? [];
    expect(thread.map((m) => m.text)).toEqual(['From Acme', 'From Acme EU']);
    const members = await callApi(
      double,
      'conversations.members',
      { channel: secondIds.orgWide },
      defaultIds.botToken,
    );
    expect(members.members).toEqual(
      expect.arrayContaining([defaultIds.bot, defaultIds.alice, secondIds.bot, secondIds.elsa]),
    );
  });

  it('gives each workspace’s bot its own DM with a person of both, under distinct ids', async () => {
    double = await startSlackDouble({ organization: {} });
    const [acme, eu] = double.workspaces;
    const inAcme = acme?.openIm(defaultIds.agent);
    const inEu = eu?.openIm(defaultIds.agent);
    expect(inAcme).toBe(`D${defaultIds.agent.slice(1)}`);
    expect(inEu).not.toBe(inAcme);
  });
});

/**
 * Setting up triage channels with `/ticket triage`, over the real app, the emulator, the Slack
 * double and Redis. The IT desk's triage channel is the agents' private #it-agents (the double's
 * workspace has no #it-triage; a private channel the app is in is what a triage channel is).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultIds } from '../../tools/slack-double/index.ts';
import { type Replica, type Stack, startStack } from '../support/stack.ts';

const { agent, alice, agentsPrivate, bot, hrPrivate, itHelp } = defaultIds;

describe('/ticket triage', () => {
  let stack: Stack;
  let app: Replica;
  beforeAll(async () => {
    stack = await startStack();
    app = stack.app;
  });
  afterAll(async () => {
    await stack.close();
  });

  /** Runs `/ticket <text>` on the current replica; returns what the person was told. */
  async function command(userId: string, channelId: string, text: string): Promise<string> {
    const sent = await app.driver.slashCommand({ userId, channelId, text });
    expect(sent.status).toBe(200);
    const post = await stack.double.waitForResponseUrlPost(
      (p) => p.url === sent.responseUrl,
      5_000,
    );
    expect(post.body).toMatchObject({ response_type: 'ephemeral' });
    return String((post.body as { text?: unknown }).text);
  }

  it('an agent makes #it-agents the IT desk’s triage channel, and it survives a restart on the same Redis', async () => {
    const answer = await command(agent, agentsPrivate, 'triage it');
    expect(answer).toContain(`<#${agentsPrivate}> now triages *IT Support* (\`it\`)`);
    expect(answer).not.toContain('public');
    expect(await app.stores.triageChannels.channelFor('it')).toBe(agentsPrivate);

    await app.stop();
    app = await stack.addReplica();
    expect(await app.stores.triageChannels.channelFor('it')).toBe(agentsPrivate);
    expect(await command(agent, agentsPrivate, 'triage it')).toContain('already triages');
  });

  it('refuses a person who is not an agent, privately, and changes nothing', async () => {
    const before = await app.stores.triageChannels.all();
    const answer = await command(alice, itHelp, 'triage hr');
    expect(answer).toContain('Only service-desk agents');
    expect(await app.stores.triageChannels.all()).toEqual(before);
    expect(stack.double.workspace.messages(itHelp).map((m) => m.text)).not.toContain(answer);
  });

  it('refuses a public channel privately, saying why and to use a private one, and changes nothing', async () => {
    const before = await app.stores.triageChannels.all();
    const answer = await command(agent, itHelp, 'triage hr');
    expect(answer).toContain(`<#${itHelp}> is public`);
    expect(answer).toContain('internal note');
    expect(answer).toContain('Use a private channel');
    expect(answer).toContain('`/ticket triage hr` there');
    expect(answer).toContain('Nothing changed');
    expect(await app.stores.triageChannels.all()).toEqual(before);
    expect(await app.stores.triageChannels.channelFor('hr')).toBeUndefined();
  });

  it('off ends what the channel triages, and its desks go to the catch-all', async () => {
    // The people's private channel, with the app and an agent in it, takes tickets on no desk.
    stack.double.workspace.addMember(hrPrivate, bot);
    stack.double.workspace.addMember(hrPrivate, agent);
    await command(agent, hrPrivate, 'triage unrouted');
    const answer = await command(agent, agentsPrivate, 'triage off');
    expect(answer).toContain(`<#${agentsPrivate}> no longer triages *IT Support*`);
    expect(await app.stores.triageChannels.channelFor('it')).toBe(hrPrivate);
    expect(
      (await app.stores.triageChannels.all()).map(({ desk, channel }) => [desk, channel]),
    ).toEqual([['*', hrPrivate]]);
  });
});

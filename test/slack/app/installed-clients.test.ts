import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConversationHomeBook } from '../../../src/slack/app/conversation-homes.ts';
import {
  InstalledTokens,
  InstalledWebClient,
  idsNamedBy,
  WorkspaceScope,
} from '../../../src/slack/app/installed-clients.ts';
import { isTransient } from '../../../src/slack/outbox/transient-errors.ts';
import { createMemoryInstallStores } from '../../../src/store/memory-installations.ts';
import { createMemoryStores } from '../../../src/store/memory-stores.ts';
import { TokenCipher } from '../../../src/store/token-cipher.ts';
import {
  defaultIds,
  type SlackDouble,
  secondIds,
  startSlackDouble,
} from '../../../tools/slack-double/index.ts';
import { orgInstall, workspaceInstall } from '../../store/contract/installations-contract.ts';

let double: SlackDouble;
beforeEach(async () => {
  double = await startSlackDouble({ organization: {} });
});
afterEach(async () => {
  await double.close();
});

// The two workspaces installed with the double's own bot tokens.
async function setUp(clock: { now: number } = { now: Date.now() }) {
  const install = createMemoryInstallStores({
    cipher: new TokenCipher(randomBytes(32)),
    stateSecret: 'state-secret-0123456789',
  });
  const scope = new WorkspaceScope();
  const stores = createMemoryStores();
  const homes = new ConversationHomeBook({ homes: stores.homes });
  const tokens = new InstalledTokens({
    scope,
    installations: install.installations,
    claims: stores.claims,
    homes,
    now: () => clock.now,
  });
  const client = new InstalledWebClient(
    { slackApiUrl: double.apiUrl, rejectRateLimitedCalls: true, retryConfig: { retries: 0 } },
    tokens,
  );
  return { install, scope, tokens, client, homes };
}

// Both workspaces installed, and the homes of their help channels and people known.
async function setUpOrganization(clock?: { now: number }) {
  const set = await setUp(clock);
  await set.install.installations.storeInstallation(
    workspaceInstall(defaultIds.team, defaultIds.botToken),
  );
  await set.install.installations.storeInstallation(
    workspaceInstall(secondIds.team, secondIds.botToken),
  );
  await set.homes.note(defaultIds.itHelp, defaultIds.team);
  await set.homes.note(defaultIds.alice, defaultIds.team);
  await set.homes.note(secondIds.euHelp, secondIds.team);
  await set.homes.note(secondIds.elsa, secondIds.team);
  return set;
}

const first = { token: defaultIds.botToken, workspace: defaultIds.team };
const second = { token: secondIds.botToken, workspace: secondIds.team };

describe('the clients of an app installed by OAuth', () => {
  it('calls Slack with the token of the request’s workspace', async () => {
    const { scope, client } = await setUp();
    await scope.run(second, () => client.auth.test());
    await scope.run(first, () => client.auth.test());
    expect(double.callsTo('auth.test').map((call) => call.tokenOf)).toEqual([
      secondIds.team,
      defaultIds.team,
    ]);
  });

  it('a 429 with Retry-After holds the method in that workspace only', async () => {
    const { scope, client } = await setUp();
    double.failNext('chat.postMessage', 'ratelimited', { retryAfterSec: 30 });
    const post = { channel: defaultIds.itHelp, text: 'hello' };
    await expect(scope.run(first, () => client.chat.postMessage(post))).rejects.toMatchObject({
      code: 'slack_webapi_rate_limited_error',
    });
    // Held: nothing leaves for the first workspace until Retry-After has passed.
    await expect(scope.run(first, () => client.chat.postMessage(post))).rejects.toMatchObject({
      code: 'slack_webapi_rate_limited_error',
      retryAfter: expect.any(Number),
    });
    expect(double.callsTo('chat.postMessage')).toHaveLength(1);
    const other = await scope.run(second, () =>
      client.chat.postMessage({ channel: secondIds.euHelp, text: 'hello' }),
    );
    expect(other.ok).toBe(true);
    expect(double.callsTo('chat.postMessage').at(-1)?.tokenOf).toBe(secondIds.team);
  });

  it('passes Slack’s 500 to the caller, who retries', async () => {
    const { scope, client } = await setUp();
    double.failNext('auth.test', 'internal_error', { status: 500 });
    await expect(scope.run(first, () => client.auth.test())).rejects.toBeDefined();
    await expect(scope.run(first, () => client.auth.test())).resolves.toMatchObject({ ok: true });
  });

  it('runs work outside a request as a named workspace, with its token', async () => {
    const { install, tokens, client } = await setUp();
    await install.installations.storeInstallation(
      workspaceInstall(defaultIds.team, defaultIds.botToken),
    );
    await install.installations.storeInstallation(
      workspaceInstall(secondIds.team, secondIds.botToken),
    );
    await tokens.runAs({ teamId: secondIds.team }, () => client.auth.test());
    await tokens.runAs({ teamId: defaultIds.team }, () => client.auth.test());
    expect(double.callsTo('auth.test').map((call) => call.tokenOf)).toEqual([
      secondIds.team,
      defaultIds.team,
    ]);
    await expect(tokens.runAs({ teamId: 'T9999' }, () => client.auth.test())).rejects.toMatchObject(
      { code: 'STORE_INSTALLATION_NOT_FOUND' },
    );
  });

  it('outside a request, uses the only installation, and refuses to guess between several', async () => {
    const { install, client, tokens } = await setUp();
    await expect(client.auth.test()).rejects.toMatchObject({ code: 'slack_workspace_unknown' });
    await install.installations.storeInstallation(
      workspaceInstall(secondIds.team, secondIds.botToken),
    );
    await client.auth.test();
    expect(double.callsTo('auth.test').at(-1)?.tokenOf).toBe(secondIds.team);
    await install.installations.storeInstallation(
      workspaceInstall(defaultIds.team, defaultIds.botToken),
    );
    tokens.forget();
    await expect(client.auth.test()).rejects.toMatchObject({
      code: 'slack_workspace_unknown',
      installations: 2,
    });
  });
});

describe('the clients of an app installed in several workspaces of an organization', () => {
  it('outside any request, calls Slack with the token of the workspace the channel lives in', async () => {
    const { client } = await setUpOrganization();
    await client.chat.postMessage({ channel: secondIds.euHelp, text: 'to Acme EU' });
    await client.chat.postMessage({ channel: defaultIds.itHelp, text: 'to Acme' });
    expect(
      double.callsTo('chat.postMessage').map((call) => [call.tokenOf, call.response?.ok]),
    ).toEqual([
      [secondIds.team, true],
      [defaultIds.team, true],
    ]);
  });

  it('inside one workspace’s request, a call naming another workspace’s channel goes with that one’s token', async () => {
    const { scope, client } = await setUpOrganization();
    await scope.run(first, () =>
      client.chat.postMessage({ channel: secondIds.euHelp, text: 'a card for Acme EU' }),
    );
    await scope.run(first, () => client.auth.test());
    expect(double.callsTo('chat.postMessage').at(-1)?.tokenOf).toBe(secondIds.team);
    expect(double.callsTo('auth.test').at(-1)?.tokenOf).toBe(defaultIds.team);
  });

  it('finds a person’s workspace by user, user_id or users', async () => {
    const { client } = await setUpOrganization();
    await client.users.info({ user: secondIds.elsa });
    await client.conversations.open({ users: defaultIds.alice });
    await client.views.publish({ user_id: secondIds.elsa, view: { type: 'home', blocks: [] } });
    expect(double.callsTo('users.info').at(-1)?.tokenOf).toBe(secondIds.team);
    expect(double.callsTo('conversations.open').at(-1)?.tokenOf).toBe(defaultIds.team);
    expect(double.callsTo('views.publish').at(-1)?.tokenOf).toBe(secondIds.team);
  });

  it('inside a person’s own request, a call naming them goes with that workspace’s token, wherever they were noted last', async () => {
    const { scope, client, homes } = await setUpOrganization();
    // Sam is in both workspaces; Acme EU is where he was seen last.
    await homes.note(defaultIds.agent, secondIds.team);
    await scope.run({ ...first, actor: defaultIds.agent }, () =>
      client.views.publish({ user_id: defaultIds.agent, view: { type: 'home', blocks: [] } }),
    );
    await scope.run(first, () =>
      client.views.publish({ user_id: defaultIds.agent, view: { type: 'home', blocks: [] } }),
    );
    expect(double.callsTo('views.publish').map((call) => call.tokenOf)).toEqual([
      defaultIds.team,
      secondIds.team,
    ]);
  });

  it('stops the calls of work begun for a workspace that is then uninstalled, until a workspace installs again', async () => {
    const { scope, client, tokens } = await setUpOrganization();
    tokens.forget(defaultIds.team);
    await expect(scope.run(first, () => client.auth.test())).rejects.toMatchObject({
      code: 'slack_workspace_uninstalled',
    });
    expect(double.callsTo('auth.test')).toEqual([]);
    tokens.installed();
    await scope.run(first, () => client.auth.test());
    expect(double.callsTo('auth.test').map((call) => call.tokenOf)).toEqual([defaultIds.team]);
  });

  it('outside any request, a call naming a channel no workspace has, or nothing, still refuses to guess', async () => {
    const { client } = await setUpOrganization();
    await expect(
      client.chat.postMessage({ channel: 'C0NEVERSEEN', text: 'where?' }),
    ).rejects.toMatchObject({
      code: 'slack_workspace_unknown',
      installations: 2,
      channel: 'C0NEVERSEEN',
      message: expect.stringContaining('C0NEVERSEEN was found in none of the 2 workspaces'),
    });
    await expect(client.auth.test()).rejects.toMatchObject({ code: 'slack_workspace_unknown' });
    expect(double.callsTo('chat.postMessage')).toEqual([]);
  });

  it('reads the agents’ user group in the workspace that holds it, even for another workspace’s request, finding it once', async () => {
    const { scope, client } = await setUpOrganization();
    const read = () =>
      scope.run(second, () => client.usergroups.users.list({ usergroup: defaultIds.agentsGroup }));
    expect((await read()).users).toEqual([defaultIds.agent]);
    expect((await read()).users).toEqual([defaultIds.agent]);
    // One look in each workspace in turn (Acme, the oldest, holds it), then the reads.
    expect(double.callsTo('usergroups.users.list').map((call) => call.tokenOf)).toEqual([
      defaultIds.team,
      defaultIds.team,
      defaultIds.team,
    ]);
  });

  it('looking for the agents’ user group, passes over a workspace that answers 500 and finds it in the next', async () => {
    const { scope, client, install } = await setUpOrganization();
    // Acme installed again, so Acme EU is the oldest: it is asked first, and fails.
    await install.installations.deleteInstallation({
      teamId: defaultIds.team,
      enterpriseId: undefined,
      isEnterpriseInstall: false,
    });
    await install.installations.storeInstallation(
      workspaceInstall(defaultIds.team, defaultIds.botToken),
    );
    double.failNext('usergroups.users.list', 'internal_error', { status: 500 });
    const users = await scope.run(second, () =>
      client.usergroups.users.list({ usergroup: defaultIds.agentsGroup }),
    );
    expect(users.users).toEqual([defaultIds.agent]);
    expect(double.callsTo('usergroups.users.list').map((call) => call.tokenOf)).toEqual([
      secondIds.team,
      defaultIds.team,
      defaultIds.team,
    ]);
  });

  it('a 429 in one workspace holds that workspace’s calls only, outside any request too', async () => {
    const { client } = await setUpOrganization();
    double.failNext('chat.postMessage', 'ratelimited', {
      retryAfterSec: 30,
      when: (args) => args.channel === secondIds.euHelp,
    });
    const toEu = { channel: secondIds.euHelp, text: 'to Acme EU' };
    await expect(client.chat.postMessage(toEu)).rejects.toMatchObject({
      code: 'slack_webapi_rate_limited_error',
    });
    await expect(client.chat.postMessage(toEu)).rejects.toMatchObject({
      code: 'slack_webapi_rate_limited_error',
      retryAfter: expect.any(Number),
    });
    // The second refusal was the hold's: nothing more left for Acme EU.
    expect(double.callsTo('chat.postMessage')).toHaveLength(1);
    const toAcme = await client.chat.postMessage({ channel: defaultIds.itHelp, text: 'to Acme' });
    expect(toAcme.ok).toBe(true);
    expect(double.callsTo('chat.postMessage').at(-1)?.tokenOf).toBe(defaultIds.team);
  });

  it('passes Slack’s 500 on a call routed to another workspace to the caller', async () => {
    const { client } = await setUpOrganization();
    double.failNext('chat.postMessage', 'internal_error', { status: 500 });
    await expect(
      client.chat.postMessage({ channel: secondIds.euHelp, text: 'to Acme EU' }),
    ).rejects.toBeDefined();
    expect(double.callsTo('chat.postMessage').at(-1)?.tokenOf).toBe(secondIds.team);
    await expect(
      client.chat.postMessage({ channel: secondIds.euHelp, text: 'to Acme EU' }),
    ).resolves.toMatchObject({ ok: true });
  });

  it('fails a call naming a channel of a workspace with no installation, and of one just uninstalled, without calling Slack', async () => {
    const { client, install, homes, tokens } = await setUpOrganization();
    await homes.note('C0GONE', 'T0GONE');
    await expect(client.chat.postMessage({ channel: 'C0GONE', text: 'x' })).rejects.toMatchObject({
      code: 'slack_workspace_uninstalled',
    });
    await install.installations.deleteInstallation({
      teamId: secondIds.team,
      enterpriseId: undefined,
      isEnterpriseInstall: false,
    });
    tokens.forget(secondIds.team, await homes.forget(secondIds.team));
    const before = double.calls.length;
    await expect(
      client.chat.postMessage({ channel: secondIds.euHelp, text: 'x' }),
    ).rejects.toMatchObject({ code: 'slack_workspace_uninstalled', workspace: secondIds.team });
    expect(double.calls.length).toBe(before);
    await client.chat.postMessage({ channel: defaultIds.itHelp, text: 'still here' });
    expect(double.callsTo('chat.postMessage').at(-1)?.tokenOf).toBe(defaultIds.team);
  });

  it('fails an uninstalled workspace’s call for good: the outbox keeps the platform write and does not retry it', async () => {
    const { client, homes } = await setUpOrganization();
    await homes.note('C0GONE', 'T0GONE');
    const failed = await client.chat
      .postMessage({ channel: 'C0GONE', text: 'x' })
      .catch((error: unknown) => error);
    expect(failed).toMatchObject({ code: 'slack_workspace_uninstalled', id: 'C0GONE' });
    expect(isTransient(failed)).toBe(false);
  });

  it('reads the installations afresh before failing a call for a workspace installed a moment ago elsewhere', async () => {
    const { client, install, homes } = await setUp();
    await install.installations.storeInstallation(
      workspaceInstall(defaultIds.team, defaultIds.botToken),
    );
    await homes.note(defaultIds.itHelp, defaultIds.team);
    await homes.note(secondIds.euHelp, secondIds.team);
    // The list is read now, without Acme EU...
    await client.chat.postMessage({ channel: defaultIds.itHelp, text: 'to Acme' });
    // ...which another process installs right after.
    await install.installations.storeInstallation(
      workspaceInstall(secondIds.team, secondIds.botToken),
    );
    const sent = await client.chat.postMessage({ channel: secondIds.euHelp, text: 'to Acme EU' });
    expect(sent.ok).toBe(true);
    expect(double.callsTo('chat.postMessage').at(-1)?.tokenOf).toBe(secondIds.team);
  });

  it('serves a workspace with no install of its own by its organization’s org-wide install', async () => {
    const { client, install, homes } = await setUp();
    await install.installations.storeInstallation(
      orgInstall(secondIds.enterprise, secondIds.botToken),
    );
    await install.installations.storeInstallation(workspaceInstall('T0OTHER', defaultIds.botToken));
    await homes.note(secondIds.euHelp, secondIds.team);
    await client.chat.postMessage({ channel: secondIds.euHelp, text: 'hello' });
    expect(double.callsTo('chat.postMessage').at(-1)?.tokenOf).toBe(secondIds.team);
  });

  it('outside any request, finds a person by email in whichever workspace knows them', async () => {
    const { client } = await setUpOrganization();
    const elsa = await client.users.lookupByEmail({ email: 'elsa@acme.example' });
    const alice = await client.users.lookupByEmail({ email: 'alice@acme.example' });
    expect(elsa.user?.id).toBe(secondIds.elsa);
    expect(alice.user?.id).toBe(defaultIds.alice);
    await expect(
      client.users.lookupByEmail({ email: 'nobody@acme.example' }),
    ).rejects.toMatchObject({ data: { error: 'users_not_found' } });
    // Acme was asked first each time (installed first); Acme EU only when Acme did not know.
    expect(double.callsTo('users.lookupByEmail').map((call) => call.tokenOf)).toEqual([
      defaultIds.team,
      secondIds.team,
      defaultIds.team,
      defaultIds.team,
      secondIds.team,
    ]);
  });

  it('looking a person up by email, passes over a workspace that answers 429, and holds only that one', async () => {
    const { client } = await setUpOrganization();
    double.failNext('users.lookupByEmail', 'ratelimited', { retryAfterSec: 30 });
    const elsa = await client.users.lookupByEmail({ email: 'elsa@acme.example' });
    expect(elsa.user?.id).toBe(secondIds.elsa);
    // Acme is held now: Alice, whom only Acme knows, is not found meanwhile, and the caller
    // sees the 429 rather than "not found".
    await expect(client.users.lookupByEmail({ email: 'alice@acme.example' })).rejects.toMatchObject(
      { code: 'slack_webapi_rate_limited_error' },
    );
    expect(double.callsTo('users.lookupByEmail').map((call) => call.tokenOf)).toEqual([
      defaultIds.team,
      secondIds.team,
      secondIds.team,
    ]);
  });

  it('looking a person up by email, asks the next workspace when one answers 500', async () => {
    const { client } = await setUpOrganization();
    double.failNext('users.lookupByEmail', 'internal_error', { status: 500 });
    const elsa = await client.users.lookupByEmail({ email: 'elsa@acme.example' });
    expect(elsa.user?.id).toBe(secondIds.elsa);
    double.failNext('users.lookupByEmail', 'internal_error', { status: 500, times: 2 });
    await expect(client.users.lookupByEmail({ email: 'alice@acme.example' })).rejects.toMatchObject(
      { code: 'slack_webapi_http_error' },
    );
  });

  it('outside any request, finds the workspace of a channel no record places by asking each, notes it, and asks no more', async () => {
    const { client, homes } = await setUpOrganization();
    const sent = await client.chat.postMessage({ channel: secondIds.euTriage, text: 'a card' });
    expect(sent.ok).toBe(true);
    // Acme, installed first, was asked first and does not see it; Acme EU does.
    expect(
      double.callsTo('conversations.info').map((call) => [call.tokenOf, call.response?.ok]),
    ).toEqual([
      [defaultIds.team, false],
      [secondIds.team, true],
    ]);
    expect(double.callsTo('chat.postMessage').at(-1)?.tokenOf).toBe(secondIds.team);
    expect(await homes.homeOf(secondIds.euTriage)).toBe(secondIds.team);
    await client.chat.postMessage({ channel: secondIds.euTriage, text: 'another card' });
    expect(double.callsTo('conversations.info')).toHaveLength(2);
    expect(double.callsTo('chat.postMessage').at(-1)?.tokenOf).toBe(secondIds.team);
  });

  it('inside a request, a channel no record places goes with the request’s token, unasked', async () => {
    const { scope, client } = await setUpOrganization();
    await scope.run(first, () =>
      client.conversations.history({ channel: defaultIds.agentsPrivate }),
    );
    expect(double.callsTo('conversations.info')).toEqual([]);
    expect(double.callsTo('conversations.history').at(-1)?.tokenOf).toBe(defaultIds.team);
  });

  it('looks for a channel found nowhere at most once a minute, and at once after an install', async () => {
    const clock = { now: Date.now() };
    const { client, tokens } = await setUpOrganization(clock);
    const post = () => client.chat.postMessage({ channel: 'C0NEVERSEEN', text: 'where?' });
    await expect(post()).rejects.toMatchObject({ code: 'slack_workspace_unknown' });
    await expect(post()).rejects.toMatchObject({ code: 'slack_workspace_unknown' });
    // Two callers at once share one lookup.
    clock.now += 61_000;
    await Promise.all([
      expect(post()).rejects.toMatchObject({ code: 'slack_workspace_unknown' }),
      expect(post()).rejects.toMatchObject({ code: 'slack_workspace_unknown' }),
    ]);
    expect(double.callsTo('conversations.info')).toHaveLength(4);
    tokens.installed();
    await expect(post()).rejects.toMatchObject({ code: 'slack_workspace_unknown' });
    expect(double.callsTo('conversations.info')).toHaveLength(6);
  });

  it('looking for a channel, passes over a workspace that answers 429 and holds only that one', async () => {
    const { client } = await setUpOrganization();
    double.failNext('conversations.info', 'ratelimited', { retryAfterSec: 30 });
    const sent = await client.chat.postMessage({ channel: secondIds.euTriage, text: 'a card' });
    expect(sent.ok).toBe(true);
    expect(double.callsTo('conversations.info').map((call) => call.tokenOf)).toEqual([
      defaultIds.team,
      secondIds.team,
    ]);
    // Acme's lookups are held: #it-agents (Acme's, never placed) is looked for in Acme EU only,
    // and the caller sees the 429 (tried again later), not "found nowhere".
    await expect(
      client.conversations.history({ channel: defaultIds.agentsPrivate }),
    ).rejects.toMatchObject({ code: 'slack_webapi_rate_limited_error' });
    expect(double.callsTo('conversations.info').map((call) => call.tokenOf)).toEqual([
      defaultIds.team,
      secondIds.team,
      secondIds.team,
    ]);
    // Within the minute, the failed lookup is held, with no call to Slack.
    await expect(
      client.conversations.history({ channel: defaultIds.agentsPrivate }),
    ).rejects.toMatchObject({
      code: 'slack_webapi_rate_limited_error',
      retryAfter: expect.any(Number),
    });
    expect(double.callsTo('conversations.info')).toHaveLength(3);
    expect(double.callsTo('conversations.history')).toEqual([]);
  });

  it('looking for a channel, asks the next workspace when one answers 500, and passes the 500 on when none has it', async () => {
    const clock = { now: Date.now() };
    const { client } = await setUpOrganization(clock);
    double.failNext('conversations.info', 'internal_error', { status: 500 });
    const sent = await client.chat.postMessage({ channel: secondIds.euTriage, text: 'a card' });
    expect(sent.ok).toBe(true);
    expect(double.callsTo('chat.postMessage').at(-1)?.tokenOf).toBe(secondIds.team);
    double.failNext('conversations.info', 'internal_error', { status: 500, times: 2 });
    await expect(
      client.conversations.history({ channel: defaultIds.agentsPrivate }),
    ).rejects.toMatchObject({ code: 'slack_webapi_http_error' });
    clock.now += 61_000;
    const read = await client.conversations.history({ channel: defaultIds.agentsPrivate });
    expect(read.ok).toBe(true);
    expect(double.callsTo('conversations.history').at(-1)?.tokenOf).toBe(defaultIds.team);
  });

  it('reads the conversations and people a call names, channel first', () => {
    expect(idsNamedBy({ channel: 'C1', user: 'U1' })).toEqual(['C1', 'U1']);
    expect(idsNamedBy({ users: 'U1,U2' })).toEqual(['U1', 'U2']);
    expect(idsNamedBy({ users: ['U3'], user_id: 'U4' })).toEqual(['U4', 'U3']);
    expect(idsNamedBy({ email: 'a@b' })).toEqual([]);
  });
});

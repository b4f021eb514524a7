import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { ConversationHomeBook } from '../../../src/slack/app/conversation-homes.ts';
import {
  InstalledTokens,
  InstalledWebClient,
  WorkspaceScope,
} from '../../../src/slack/app/installed-clients.ts';
import {
  adoptingRecords,
  forgetWorkspace,
  recordsOfEveryWorkspace,
} from '../../../src/slack/app/workspace-records.ts';
import { TriageChannelRecords } from '../../../src/slack/tickets/triage-channel-records.ts';
import { createMemoryInstallStores } from '../../../src/store/memory-installations.ts';
import { createMemoryStores } from '../../../src/store/memory-stores.ts';
import { TokenCipher } from '../../../src/store/token-cipher.ts';
import { defaultIds, secondIds, startSlackDouble } from '../../../tools/slack-double/index.ts';
import { workspaceInstall } from '../../store/contract/installations-contract.ts';

function setUp() {
  const stores = createMemoryStores();
  const { installations } = createMemoryInstallStores({
    cipher: new TokenCipher(randomBytes(32)),
    stateSecret: 'state-secret-0123456789',
  });
  const homes = new ConversationHomeBook({ homes: stores.homes });
  const tokens = new InstalledTokens({
    scope: new WorkspaceScope(),
    installations,
    claims: stores.claims,
    homes,
  });
  const adopting = adoptingRecords(installations, {
    homes,
    tokens,
    stores,
    logger: pino({ level: 'silent' }),
  });
  return { stores, installations, homes, adopting };
}

// Records a deployment installed in T0001 alone kept before homes were.
async function todaysRecords(stores: ReturnType<typeof createMemoryStores>) {
  await stores.links.link('IT-1', { channel: 'C0ITHELP', threadTs: '1.1' });
  await stores.triageChannels.set('it', 'C0AGENTS');
  await stores.channelModes.set('C0GENERAL', 'off');
}

describe('a workspace’s records', () => {
  it('are the lone workspace’s once a second one installs', async () => {
    const { stores, adopting } = setUp();
    await adopting.storeInstallation(workspaceInstall('T0001'));
    await todaysRecords(stores);
    expect(await stores.homes.homeOf('C0ITHELP')).toBeUndefined();
    await adopting.storeInstallation(workspaceInstall('T0002'));
    for (const channel of ['C0ITHELP', 'C0AGENTS', 'C0GENERAL']) {
      expect(await stores.homes.homeOf(channel)).toBe('T0001');
    }
    expect((await adopting.list()).map((kept) => kept.summary.teamId).sort()).toEqual([
      'T0001',
      'T0002',
    ]);
  });

  it('get no home on a first install, a reinstall of the same workspace, or a third', async () => {
    const { stores, adopting } = setUp();
    await todaysRecords(stores);
    await adopting.storeInstallation(workspaceInstall('T0001'));
    await adopting.storeInstallation(workspaceInstall('T0001'));
    expect(await stores.homes.homeOf('C0ITHELP')).toBeUndefined();
    await adopting.storeInstallation(workspaceInstall('T0002'));
    await stores.links.link('IT-2', { channel: 'C0EUHELP', threadTs: '2.2' });
    await adopting.storeInstallation(workspaceInstall('T0003'));
    expect(await stores.homes.homeOf('C0EUHELP')).toBeUndefined();
  });

  it('keep a home already noted when a second workspace installs', async () => {
    const { stores, homes, adopting } = setUp();
    await adopting.storeInstallation(workspaceInstall('T0001'));
    await todaysRecords(stores);
    await homes.note('C0AGENTS', 'T0002');
    await adopting.storeInstallation(workspaceInstall('T0002'));
    expect(await stores.homes.homeOf('C0AGENTS')).toBe('T0002');
  });

  it('are removed, and only they, when their workspace uninstalls the app', async () => {
    const { stores, homes } = setUp();
    await stores.links.link('IT-1', { channel: 'C0ITHELP', threadTs: '1.1' });
    await stores.links.link('IT-1', { channel: 'C0EUTRIAGE', threadTs: '1.2', triage: true });
    await stores.links.link('IT-2', { channel: 'D0ELSA0002', threadTs: '2.1' });
    await stores.triageChannels.set('it', 'C0EUTRIAGE');
    await stores.triageChannels.set('hr', 'C0AGENTS');
    await stores.channelModes.set('C0EUHELP', 'auto');
    await stores.channelModes.set('C0ITHELP', 'off');
    for (const id of ['C0ITHELP', 'C0AGENTS', 'U0ALICE']) await homes.note(id, 'T0001');
    for (const id of ['C0EUTRIAGE', 'D0ELSA0002', 'C0EUHELP', 'U0ELSA']) {
      await homes.note(id, 'T0002');
    }

    const removed = await forgetWorkspace('T0002', { homes, stores });
    expect(removed).toEqual({
      ids: ['C0EUHELP', 'C0EUTRIAGE', 'D0ELSA0002', 'U0ELSA'],
      links: 2,
      triage: 1,
      modes: 1,
    });
    expect(await stores.links.threadsForTicket('IT-1')).toEqual([
      { channel: 'C0ITHELP', threadTs: '1.1' },
    ]);
    expect(await stores.links.threadsForTicket('IT-2')).toEqual([]);
    expect(await stores.triageChannels.channelFor('it')).toBeUndefined();
    expect(await stores.triageChannels.channelFor('hr')).toBe('C0AGENTS');
    expect(await stores.channelModes.channels()).toEqual(['C0ITHELP']);
    expect(await stores.homes.homeOf('C0ITHELP')).toBe('T0001');
    expect(await stores.homes.homeOf('U0ELSA')).toBeUndefined();
  });
});

// Both workspaces installed, each with a triage record its bot pinned; their read-back.
async function pinnedInBoth(double: Awaited<ReturnType<typeof startSlackDouble>>) {
  const stores = createMemoryStores();
  const { installations } = createMemoryInstallStores({
    cipher: new TokenCipher(randomBytes(32)),
    stateSecret: 'state-secret-0123456789',
  });
  await installations.storeInstallation(workspaceInstall(defaultIds.team, defaultIds.botToken));
  await installations.storeInstallation(workspaceInstall(secondIds.team, secondIds.botToken));
  const homes = new ConversationHomeBook({ homes: stores.homes });
  const scope = new WorkspaceScope();
  const tokens = new InstalledTokens({ scope, installations, claims: stores.claims, homes });
  const client = new InstalledWebClient(
    { slackApiUrl: double.apiUrl, retryConfig: { retries: 0 } },
    tokens,
  );
  const make = () => new TriageChannelRecords({ client, paceMs: 0 });
  // Pinned by each workspace's bot, as `/ticket triage` run there does.
  await scope.run({ token: defaultIds.botToken, workspace: defaultIds.team }, () =>
    make().remember(defaultIds.agentsPrivate, { desk: 'it' }),
  );
  await scope.run({ token: secondIds.botToken, workspace: secondIds.team }, () =>
    make().remember(secondIds.euTriage, { desk: 'hr' }),
  );
  const records = recordsOfEveryWorkspace({
    recordsOf: make,
    writer: make(),
    tokens,
    scope,
    homes,
  });
  return { stores, records };
}

describe('the triage channels’ records of every installation', () => {
  it('are read back in each workspace with its token and its bot’s pins, their channels noted as its', async () => {
    const double = await startSlackDouble({ organization: {} });
    try {
      const { stores, records } = await pinnedInBoth(double);
      const found = await records.readAll();
      expect(found.map((r) => [r.desk, r.channel]).sort()).toEqual([
        ['hr', secondIds.euTriage],
        ['it', defaultIds.agentsPrivate],
      ]);
      expect(await stores.homes.homeOf(secondIds.euTriage)).toBe(secondIds.team);
      expect(await stores.homes.homeOf(defaultIds.agentsPrivate)).toBe(defaultIds.team);
      expect(
        new Set(double.callsTo('pins.list').map((call) => `${call.args.channel}@${call.tokenOf}`)),
      ).toEqual(
        new Set([
          `${defaultIds.agentsPrivate}@${defaultIds.team}`,
          `${secondIds.euTriage}@${secondIds.team}`,
        ]),
      );
    } finally {
      await double.close();
    }
  });

  it('fail as a whole when one workspace’s Slack answers 500, for the heal to try again later', async () => {
    const double = await startSlackDouble({ organization: {} });
    try {
      const { records } = await pinnedInBoth(double);
      double.failNext('pins.list', 'internal_error', {
        status: 500,
        when: (args) => args.channel === secondIds.euTriage,
      });
      await expect(records.readAll()).rejects.toBeDefined();
      // Acme was read before Acme EU failed: its channel is noted, the whole read is retried.
      expect(
        double
          .callsTo('pins.list')
          .filter((call) => call.status === 500)
          .map((c) => c.tokenOf),
      ).toEqual([secondIds.team]);
    } finally {
      await double.close();
    }
  });

  it('are not read while the app is installed nowhere: the heal tries again later', async () => {
    const { stores, installations } = setUp();
    const homes = new ConversationHomeBook({ homes: stores.homes });
    const scope = new WorkspaceScope();
    const tokens = new InstalledTokens({ scope, installations, claims: stores.claims, homes });
    const records = recordsOfEveryWorkspace({
      recordsOf: () => ({ readAll: async () => [] }),
      writer: { remember: async () => {} },
      tokens,
      scope,
      homes,
    });
    await expect(records.readAll()).rejects.toMatchObject({ code: 'slack_workspace_unknown' });
  });
});

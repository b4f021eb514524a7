/**
 * One app for a whole Enterprise Grid organization, end to end: installed by OAuth in Acme and
 * Acme EU, the desk's triage channel lives in Acme EU (#eu-triage, set there by Sam, a member
 * of both), while Alice files her ticket in Acme. Her ticket's card reaches #eu-triage with
 * Acme EU's token, and an agent's reply on the platform reaches her thread with Acme's: the
 * outbox worker and the mirror, which run outside any request, find each call's workspace by
 * the conversation it names.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AdaptivePlanner } from '../../src/mirror/index.ts';
import { TRIAGE_CATCH_ALL } from '../../src/store/types.ts';
import { defaultIds, type SlackDriver, secondIds } from '../../tools/slack-double/index.ts';
import { driverOf, installByOAuth } from '../../tools/stack/oauth-install.ts';
import { eventually } from '../support/eventually.ts';
import { ROUTED_DESK, type Stack, startStack } from '../support/stack.ts';

const { alice, agent, itHelp } = defaultIds;
const { euTriage, euHelp, elsa } = secondIds;
const SAM = 'sam.rivera@acme.example';
const SECRET = 'whsec-e2e-organization-0123456789ab';

let stack: Stack | undefined;
let eu: SlackDriver | undefined;
afterEach(async () => {
  await eu?.close();
  eu = undefined;
  await stack?.close();
  stack = undefined;
});

// Both workspaces installed, and #eu-triage made the desk's (and the catch-all's) triage
// channel by Sam in Acme EU.
async function organization(): Promise<{ on: Stack; euDriver: SlackDriver }> {
  const on = await startStack({
    oauth: true,
    webhookSecret: SECRET,
    mirror: { planner: new AdaptivePlanner() },
  });
  stack = on;
  on.emulator.setWebhooks({ announceCreated: true });
  expect((await installByOAuth(on, defaultIds.team)).status).toBe(200);
  expect((await installByOAuth(on, secondIds.team)).status).toBe(200);
  const euDriver = driverOf(on, 1);
  eu = euDriver;
  for (const desk of [ROUTED_DESK, 'unrouted']) {
    const sent = await euDriver.slashCommand({
      userId: agent,
      channelId: euTriage,
      text: `triage ${desk}`,
    });
    expect(sent.status).toBe(200);
  }
  await eventually(
    async () =>
      (await on.app.stores.triageChannels.channelFor(ROUTED_DESK)) === euTriage &&
      (await on.app.stores.triageChannels.channelFor(undefined)) === euTriage,
    5_000,
    'the triage channels set in Acme EU',
  );
  expect(await on.app.stores.triageChannels.channelFor(TRIAGE_CATCH_ALL)).toBe(euTriage);
  // The feed marks when it first saw the channels; tickets before that get no card.
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  return { on, euDriver };
}

const cardsIn = (on: Stack, ticketId: string) =>
  (on.double.workspaces[1]?.messages(euTriage) ?? []).filter(
    (m) =>
      m.metadata?.event_type === 'triage_card' && m.metadata.event_payload?.ticket_id === ticketId,
  );

const installed = async (on: Stack) =>
  ((await on.app.installStores?.installations.list()) ?? []).map((kept) => kept.summary.teamId);

// Elsa's DM in Acme EU filed as a ticket; its thread linked.
async function fileByEuDm(on: Stack, euDriver: SlackDriver, text: string) {
  const dm = on.double.workspaces[1]?.openIm(elsa) ?? '';
  const sent = await euDriver.userPosts({ userId: elsa, channelId: dm, text });
  const ticketId = await eventually(
    () => on.app.stores.links.ticketForThread(dm, sent.ts),
    10_000,
    'the link of Elsa’s DM',
  );
  return { channel: dm, threadTs: sent.ts, ticketId };
}

// Alice's message in Acme's channel (#it-help unless said) filed as a ticket with 🎫.
async function fileByTicketReaction(on: Stack, text: string, channel: string = itHelp) {
  const parent = await on.driver.userPosts({ userId: alice, channelId: channel, text });
  await on.driver.userReacts({
    userId: alice,
    channelId: channel,
    ts: parent.ts,
    reaction: 'ticket',
  });
  const ticketId = await eventually(
    () => on.app.stores.links.ticketForThread(channel, parent.ts),
    10_000,
    'the link',
  );
  return { threadTs: parent.ts, ticketId };
}

describe('one app for a whole organization', () => {
  it('gives a ticket filed in Acme its triage card in Acme EU’s #eu-triage, and brings the agent’s reply back to Acme', async () => {
    const { on } = await organization();
    const filed = await fileByTicketReaction(on, 'Org: the badge reader at the door is dead');
    const [card] = await eventually(
      () => (cardsIn(on, filed.ticketId).length > 0 ? cardsIn(on, filed.ticketId) : undefined),
      15_000,
      'the triage card in Acme EU',
    );
    expect(cardsIn(on, filed.ticketId)).toHaveLength(1);
    const posted = on.double
      .callsTo('chat.postMessage')
      .filter((call) => call.args.channel === euTriage && call.status === 200 && call.response.ok);
    expect(posted.map((call) => call.tokenOf)).toContain(secondIds.team);
    expect(posted.every((call) => call.tokenOf === secondIds.team)).toBe(true);

    on.emulator.model.addAgentReply('acme', filed.ticketId, {
      agentEmail: SAM,
      body: 'A new badge reader is on its way',
    });
    const inAlicesThread = () =>
      (on.double.workspace.thread(itHelp, filed.threadTs) ?? []).find((m) =>
        m.text?.includes('badge reader is on its way'),
      );
    await eventually(inAlicesThread, 20_000, 'the reply in Alice’s thread in Acme');
    const inTriage = () =>
      (on.double.workspaces[1]?.thread(euTriage, card?.ts ?? '') ?? []).find((m) =>
        m.text?.includes('badge reader is on its way'),
      );
    await eventually(inTriage, 20_000, 'the reply in the triage thread in Acme EU');
    // Nothing went to Acme EU's channel with Acme's token, nor the other way round.
    const crossed = on.double.calls.filter(
      (call) =>
        (call.args.channel === euTriage && call.tokenOf === defaultIds.team) ||
        (call.args.channel === itHelp && call.tokenOf === secondIds.team),
    );
    expect(crossed).toEqual([]);
    // No Slack call went without its workspace: the outbox's, the mirror's, the triage
    // channels' read-back at start (once both were installed).
    const unknown = on.logs.filter(
      (line) =>
        line.includes('slack_workspace_unknown') && !line.includes('installed in no workspace'),
    );
    expect(unknown).toEqual([]);
  });

  it('installed org-wide, gives a ticket filed in Acme its card in Acme EU’s #eu-triage with the organization’s token', async () => {
    const on = await startStack({
      oauth: true,
      webhookSecret: SECRET,
      mirror: { planner: new AdaptivePlanner() },
    });
    stack = on;
    on.emulator.setWebhooks({ announceCreated: true });
    expect((await installByOAuth(on, secondIds.enterprise)).status).toBe(200);
    const euDriver = driverOf(on, 1);
    eu = euDriver;
    await euDriver.slashCommand({
      userId: agent,
      channelId: euTriage,
      text: `triage ${ROUTED_DESK}`,
    });
    await eventually(
      async () => (await on.app.stores.triageChannels.channelFor(ROUTED_DESK)) === euTriage,
      5_000,
      'the triage channel set in Acme EU',
    );
    expect(await on.app.stores.homes.homeOf(euTriage)).toBe(secondIds.enterprise);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const filed = await fileByTicketReaction(on, 'Org: the meeting room screen is black');
    await eventually(
      () => (cardsIn(on, filed.ticketId).length > 0 ? true : undefined),
      15_000,
      'the card in Acme EU',
    );
    const posted = on.double
      .callsTo('chat.postMessage')
      .filter((call) => call.args.channel === euTriage && call.response.ok === true);
    expect(new Set(posted.map((call) => call.tokenOf))).toEqual(new Set([secondIds.enterprise]));
    // A shortcut comes as Slack sends it for an org-wide install (is_enterprise_install true):
    // its modal opens with the organization's token.
    const shortcut = await euDriver.globalShortcut({ callbackId: 'new_ticket', userId: elsa });
    expect(shortcut.status).toBe(200);
    expect(shortcut.payload.is_enterprise_install).toBe(true);
    const opened = await on.double.waitForCall('views.open', (call) => call.status === 200);
    expect(opened.tokenOf).toBe(secondIds.enterprise);
    expect(opened.response).toMatchObject({ ok: true });
  });

  it('gives a ticket filed in Acme its card in Acme EU’s #eu-triage named only in DESK_TRIAGE_CHANNELS, finding its workspace by asking each', async () => {
    const on = await startStack({
      oauth: true,
      webhookSecret: SECRET,
      mirror: { planner: new AdaptivePlanner() },
      deskTriageChannels: `${ROUTED_DESK}=${euTriage}`,
      // Asked between the two installs, Acme alone says the channel is not there: an answer
      // kept a short while only, so the one after the second install counts.
      triagePrivacyMs: 500,
    });
    stack = on;
    on.emulator.setWebhooks({ announceCreated: true });
    expect((await installByOAuth(on, defaultIds.team)).status).toBe(200);
    expect((await installByOAuth(on, secondIds.team)).status).toBe(200);
    // No request ever came from #eu-triage: nothing tells its workspace but Slack.
    expect(await on.app.stores.homes.homeOf(euTriage)).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const filed = await fileByTicketReaction(on, 'Org: the projector in room 4 hums');
    await eventually(
      () => (cardsIn(on, filed.ticketId).length > 0 ? true : undefined),
      15_000,
      'the card in Acme EU’s #eu-triage',
    );
    expect(cardsIn(on, filed.ticketId)).toHaveLength(1);
    expect(await on.app.stores.homes.homeOf(euTriage)).toBe(secondIds.team);
    const posted = on.double
      .callsTo('chat.postMessage')
      .filter((call) => call.args.channel === euTriage && call.status === 200);
    expect(new Set(posted.map((call) => call.tokenOf))).toEqual(new Set([secondIds.team]));
    // Acme was asked once and said it has no such channel; nothing else went there with its token.
    const askedAcme = on.double
      .callsTo('conversations.info')
      .filter((call) => call.args.channel === euTriage && call.tokenOf === defaultIds.team);
    expect(askedAcme.length).toBeLessThanOrEqual(1);
    const crossed = on.double.calls.filter(
      (call) =>
        call.args.channel === euTriage &&
        call.tokenOf === defaultIds.team &&
        call.method !== 'conversations.info',
    );
    expect(crossed).toEqual([]);
  });

  it('on Acme EU’s uninstall, removes its links, triage channels and channel modes, and keeps Acme’s and Acme working', async () => {
    const { on, euDriver } = await organization();
    const inAcme = await fileByTicketReaction(on, 'Org: my monitor flickers');
    const inEu = await fileByEuDm(on, euDriver, 'Org: the EU printer jams');
    // Elsa speaks in #eu-help, so the app learns it is Acme EU's; an agent had set its mode.
    await euDriver.userPosts({ userId: elsa, channelId: euHelp, text: 'Hello all' });
    await eventually(
      async () => (await on.app.stores.homes.homeOf(euHelp)) === secondIds.team,
      5_000,
      'the home of #eu-help',
    );
    await on.app.stores.channelModes.set(euHelp, 'auto');
    await on.app.stores.channelModes.set(itHelp, 'off');

    expect((await euDriver.event({ type: 'app_uninstalled' })).status).toBe(200);
    await eventually(
      async () => (await installed(on)).length === 1,
      5_000,
      'Acme EU’s installation removed',
    );
    expect(await installed(on)).toEqual([defaultIds.team]);
    const { links, triageChannels, channelModes, homes } = on.app.stores;
    expect(await links.ticketForThread(inEu.channel, inEu.threadTs)).toBeUndefined();
    expect(await links.threadsForTicket(inEu.ticketId)).toEqual([]);
    expect(await triageChannels.channelFor(ROUTED_DESK)).toBeUndefined();
    expect(await triageChannels.channelFor(undefined)).toBeUndefined();
    expect(await channelModes.get(euHelp)).toBeUndefined();
    expect(await homes.homeOf(euTriage)).toBeUndefined();
    expect(await homes.homeOf(elsa)).toBeUndefined();
    // Acme's records stay: its thread links (its triage thread in Acme EU went), its modes.
    expect(await links.ticketForThread(itHelp, inAcme.threadTs)).toBe(inAcme.ticketId);
    expect(await channelModes.get(itHelp)).toBe('off');
    expect(await homes.homeOf(itHelp)).toBe(defaultIds.team);
    expect(on.logs.join('')).toContain('Slack installation removed');

    // Acme goes on: a new ticket is answered in its thread with Acme's token.
    const again = await fileByTicketReaction(on, 'Org: my keyboard lost its Q');
    const answered = await on.double.waitForCall(
      'chat.postMessage',
      (call) =>
        call.args.channel === itHelp &&
        call.args.thread_ts === again.threadTs &&
        call.status === 200 &&
        call.response.ok === true,
    );
    expect(answered.tokenOf).toBe(defaultIds.team);
  });

  it('on Acme EU’s bot token revoked (tokens_revoked), removes its triage channels and homes too', async () => {
    const { on, euDriver } = await organization();
    await on.driver.userPosts({ userId: alice, channelId: itHelp, text: 'Good morning' });
    await eventually(
      async () => (await on.app.stores.homes.homeOf(itHelp)) === defaultIds.team,
      5_000,
      'the home of #it-help',
    );
    expect(
      (await euDriver.event({ type: 'tokens_revoked', tokens: { bot: [secondIds.bot] } })).status,
    ).toBe(200);
    await eventually(
      async () => (await installed(on)).length === 1,
      5_000,
      'Acme EU’s installation removed',
    );
    expect(await on.app.stores.triageChannels.channelFor(ROUTED_DESK)).toBeUndefined();
    expect(await on.app.stores.homes.homeOf(euTriage)).toBeUndefined();
    expect(await on.app.stores.homes.homeOf(itHelp)).toBe(defaultIds.team);
  });

  it('after a second install, a Redis holding records written before homes were kept still works for both workspaces', async () => {
    const on = await startStack({
      oauth: true,
      webhookSecret: SECRET,
      mirror: { planner: new AdaptivePlanner() },
    });
    stack = on;
    on.emulator.setWebhooks({ announceCreated: true });
    expect((await installByOAuth(on, defaultIds.team)).status).toBe(200);
    // What a deployment installed in Acme alone kept until now: a triage channel, a thread
    // link and a channel mode, and no homes (written here with the stores, as before).
    const { stores } = on.app;
    await stores.triageChannels.set(ROUTED_DESK, defaultIds.agentsPrivate);
    await stores.links.link('IT-OLD', { channel: itHelp, threadTs: '1700000000.000100' });
    await stores.channelModes.set(defaultIds.general, 'off');
    for (const id of [defaultIds.agentsPrivate, itHelp, defaultIds.general]) {
      expect(await stores.homes.homeOf(id)).toBeUndefined();
    }

    expect((await installByOAuth(on, secondIds.team)).status).toBe(200);
    for (const id of [defaultIds.agentsPrivate, itHelp, defaultIds.general]) {
      expect(await stores.homes.homeOf(id)).toBe(defaultIds.team);
    }
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    // A ticket made on the platform gets its card in Acme's #it-agents, outside any request.
    const ticket = on.emulator.model.createTicket('acme', {
      title: 'Org: the lift is stuck',
      desk_id: ROUTED_DESK,
      requester_email: 'bob@acme.example',
      channel: 'email',
    });
    const card = await eventually(
      () =>
        on.double.workspace
          .messages(defaultIds.agentsPrivate)
          .find(
            (m) =>
              m.metadata?.event_type === 'triage_card' &&
              m.metadata.event_payload?.ticket_id === ticket.id,
          ),
      15_000,
      'the card in Acme’s #it-agents',
    );
    expect(card).toBeDefined();
    const posted = on.double
      .callsTo('chat.postMessage')
      .filter((call) => call.args.channel === defaultIds.agentsPrivate && call.status === 200);
    expect(posted.length).toBeGreaterThan(0);
    expect(new Set(posted.map((call) => call.tokenOf))).toEqual(new Set([defaultIds.team]));
    // And Acme EU is answered with its own token.
    const euDriver = driverOf(on, 1);
    eu = euDriver;
    const filed = await fileByEuDm(on, euDriver, 'Org: my EU laptop will not boot');
    const reply = await on.double.waitForCall(
      'chat.postMessage',
      (call) =>
        call.args.channel === filed.channel &&
        call.args.thread_ts === filed.threadTs &&
        call.status === 200,
    );
    expect(reply.tokenOf).toBe(secondIds.team);
  });

  it('a 429 on Acme EU’s triage channel holds Acme EU’s posts only: Acme’s threads are answered meanwhile, and each card comes once after Retry-After', async () => {
    const { on } = await organization();
    on.double.failNext('chat.postMessage', 'ratelimited', {
      retryAfterSec: 4,
      when: (args) => args.channel === euTriage,
    });
    const first = await fileByTicketReaction(on, 'Org: the scanner on floor 2 is offline');
    const limited = await on.double.waitForCall(
      'chat.postMessage',
      (call) => call.args.channel === euTriage && call.status === 429,
    );
    // While Acme EU is held, Alice's next ticket is answered in her DM in Acme at once.
    const dm = on.double.workspace.openIm(alice);
    const sent = await on.driver.userPosts({ userId: alice, channelId: dm, text: 'Org: VPN down' });
    const answered = await on.double.waitForCall(
      'chat.postMessage',
      (call) =>
        call.args.channel === dm && call.args.thread_ts === sent.ts && call.response.ok === true,
    );
    expect(answered.tokenOf).toBe(defaultIds.team);
    expect(answered.at - limited.at).toBeLessThan(4_000);
    const [card] = await eventually(
      () => (cardsIn(on, first.ticketId).length > 0 ? cardsIn(on, first.ticketId) : undefined),
      20_000,
      'the card after Retry-After',
    );
    const cardCall = on.double
      .callsTo('chat.postMessage')
      .find((call) => call.args.channel === euTriage && call.response.ts === card?.ts);
    expect(cardCall?.tokenOf).toBe(secondIds.team);
    expect((cardCall?.at ?? 0) - limited.at).toBeGreaterThanOrEqual(3_900);
    // Nothing reached Acme EU while it was held.
    const duringHold = on.double
      .callsTo('chat.postMessage')
      .filter(
        (call) =>
          call.args.channel === euTriage && call.at > limited.at && call.at < limited.at + 3_900,
      );
    expect(duringHold).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(cardsIn(on, first.ticketId)).toHaveLength(1);
  });

  it('posts a card once in Acme EU when Slack answers its first try with a 500', async () => {
    const { on } = await organization();
    on.double.failNext('chat.postMessage', 'internal_error', {
      status: 500,
      when: (args) => args.channel === euTriage,
    });
    const filed = await fileByTicketReaction(on, 'Org: the coffee machine shows error 42');
    await eventually(
      () => (cardsIn(on, filed.ticketId).length > 0 ? true : undefined),
      20_000,
      'the card after the 500',
    );
    expect(
      on.double
        .callsTo('chat.postMessage')
        .some((call) => call.args.channel === euTriage && call.status === 500),
    ).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(cardsIn(on, filed.ticketId)).toHaveLength(1);
    const cards = on.double
      .callsTo('chat.postMessage')
      .filter((call) => call.args.channel === euTriage && call.response.ok === true);
    expect(new Set(cards.map((call) => call.tokenOf))).toEqual(new Set([secondIds.team]));
  });

  it('answers Sam, a member of both workspaces, in each one’s DM with that workspace’s token', async () => {
    const on = await startStack({ oauth: true });
    stack = on;
    await installByOAuth(on, defaultIds.team);
    await installByOAuth(on, secondIds.team);
    const euDriver = driverOf(on, 1);
    eu = euDriver;
    const answeredIn = async (driver: SlackDriver, index: number, text: string) => {
      const dm = on.double.workspaces[index]?.openIm(agent) ?? '';
      const sent = await driver.userPosts({ userId: agent, channelId: dm, text });
      const reply = await on.double.waitForCall(
        'chat.postMessage',
        (call) =>
          call.args.channel === dm && call.args.thread_ts === sent.ts && call.status === 200,
      );
      return reply.tokenOf;
    };
    expect(await answeredIn(euDriver, 1, 'Org: my EU badge expired')).toBe(secondIds.team);
    expect(await answeredIn(on.driver, 0, 'Org: my Acme badge expired')).toBe(defaultIds.team);
    expect(await answeredIn(euDriver, 1, 'Org: my EU desk phone is dead')).toBe(secondIds.team);
  });

  it('takes Sam, an agent by Acme’s agents user group alone, as an agent in Acme EU too', async () => {
    const on = await startStack({
      oauth: true,
      agents: { emails: '', usergroup: defaultIds.agentsGroup },
    });
    stack = on;
    await installByOAuth(on, defaultIds.team);
    await installByOAuth(on, secondIds.team);
    const euDriver = driverOf(on, 1);
    eu = euDriver;
    const sent = await euDriver.slashCommand({
      userId: agent,
      channelId: euTriage,
      text: 'triage unrouted',
    });
    expect(sent.status).toBe(200);
    await eventually(
      async () => (await on.app.stores.triageChannels.channelFor(undefined)) === euTriage,
      5_000,
      'the catch-all set in Acme EU by Sam',
    );
    const groupReads = on.double.callsTo('usergroups.users.list');
    expect(groupReads.some((call) => call.tokenOf === defaultIds.team && call.response.ok)).toBe(
      true,
    );
  });

  it('publishes Sam’s Home in each workspace he opens it in, even within seconds of each other', async () => {
    const on = await startStack({ oauth: true });
    stack = on;
    await installByOAuth(on, defaultIds.team);
    await installByOAuth(on, secondIds.team);
    const euDriver = driverOf(on, 1);
    eu = euDriver;
    await on.driver.appHomeOpened({ userId: agent });
    await euDriver.appHomeOpened({ userId: agent });
    const publishedWith = (team: string) =>
      on.double
        .callsTo('views.publish')
        .some(
          (call) => call.args.user_id === agent && call.status === 200 && call.tokenOf === team,
        );
    await eventually(
      () => publishedWith(defaultIds.team) && publishedWith(secondIds.team),
      10_000,
      'Sam’s Home published in Acme and in Acme EU',
    );
  });

  it('brings an agent’s reply to a ticket filed in the org-wide channel, whichever workspace spoke there last', async () => {
    const on = await startStack({ oauth: true, mirror: { planner: new AdaptivePlanner() } });
    stack = on;
    await installByOAuth(on, defaultIds.team);
    await installByOAuth(on, secondIds.team);
    const euDriver = driverOf(on, 1);
    eu = euDriver;
    const { orgWide } = secondIds;
    const { threadTs, ticketId } = await fileByTicketReaction(
      on,
      'Org: the wifi in the lobby is down',
      orgWide,
    );
    // Elsa speaks in the same channel from Acme EU: its home is now Acme EU.
    await euDriver.userPosts({ userId: elsa, channelId: orgWide, text: 'Same here' });
    await eventually(
      async () => (await on.app.stores.homes.homeOf(orgWide)) === secondIds.team,
      5_000,
      'the channel heard from Acme EU',
    );
    on.emulator.model.addAgentReply('acme', ticketId, {
      agentEmail: SAM,
      body: 'The lobby access point is being replaced',
    });
    await eventually(
      () =>
        (on.double.workspace.thread(orgWide, threadTs) ?? []).find((m) =>
          m.text?.includes('lobby access point'),
        ),
      20_000,
      'the reply in the org-wide thread',
    );
  });
});

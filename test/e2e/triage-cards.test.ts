/**
 * Triage cards end to end: the real app over HTTP against the emulator (webhooks on, new
 * tickets announced) and the Slack double. Every new ticket on the IT desk, whatever its
 * origin, gets exactly one card in the agents' private #it-agents, whose thread then carries the
 * ticket's conversation, internal notes included; the requester's thread never gets a note.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AdaptivePlanner } from '../../src/mirror/index.ts';
import { TRIAGE_CATCH_ALL } from '../../src/store/types.ts';
import { defaultIds } from '../../tools/slack-double/index.ts';
import { eventually } from '../support/eventually.ts';
import { ROUTED_DESK, type Stack, startStack } from '../support/stack.ts';

const { alice, itHelp, agentsPrivate } = defaultIds;
const SAM = 'sam.rivera@acme.example';
const SECRET = 'whsec-e2e-triage-0123456789abcdef';

describe('triage cards', () => {
  let stack: Stack;
  afterEach(async () => {
    await stack?.close();
  });

  async function start() {
    stack = await startStack({ webhookSecret: SECRET, mirror: { planner: new AdaptivePlanner() } });
    stack.emulator.setWebhooks({ announceCreated: true });
    await stack.app.stores.triageChannels.set(ROUTED_DESK, agentsPrivate);
    // A ticket filed from a DM is on no desk: the catch-all takes it.
    await stack.app.stores.triageChannels.set(TRIAGE_CATCH_ALL, agentsPrivate);
    // The feed marks when it first saw the channels; tickets before that get no card.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
  }

  const cardsOf = (ticketId: string) =>
    stack.double.workspace
      .messages(agentsPrivate)
      .filter(
        (m) =>
          m.metadata?.event_type === 'triage_card' &&
          m.metadata.event_payload?.ticket_id === ticketId,
      );

  const oneCard = (ticketId: string) =>
    eventually(
      () => (cardsOf(ticketId).length > 0 ? cardsOf(ticketId) : undefined),
      10_000,
      `the triage card of ${ticketId}`,
    );

  async function fileInItHelp(text: string) {
    const parent = await stack.driver.userPosts({ userId: alice, channelId: itHelp, text });
    await stack.driver.userReacts({
      userId: alice,
      channelId: itHelp,
      ts: parent.ts,
      reaction: 'ticket',
    });
    const ticketId = await eventually(
      () => stack.app.stores.links.ticketForThread(itHelp, parent.ts),
      5_000,
      'the link',
    );
    return { channel: itHelp, threadTs: parent.ts, ticketId };
  }

  async function fileByDm(text: string) {
    const dm = stack.double.workspace.openIm(alice);
    const sent = await stack.driver.userPosts({ userId: alice, channelId: dm, text });
    const ticketId = await eventually(
      () => stack.app.stores.links.ticketForThread(dm, sent.ts),
      5_000,
      'the link',
    );
    return { channel: dm, threadTs: sent.ts, ticketId };
  }

  it('gives a ticket filed in #it-help, one from a DM and one made on the platform exactly one card each', async () => {
    await start();
    const fromChannel = await fileInItHelp('Triage: the projector in room 4 is dead');
    const fromDm = await fileByDm('Triage: my password expired');
    const onPlatform = stack.emulator.model.createTicket('acme', {
      title: 'Triage: phone line crackles',
      desk_id: ROUTED_DESK,
      requester_email: 'bob@acme.example',
      channel: 'email',
    });
    for (const id of [fromChannel.ticketId, fromDm.ticketId, onPlatform.id]) await oneCard(id);
    // Hooks, the feed and the worker's looks come and go meanwhile: still one each.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    for (const id of [fromChannel.ticketId, fromDm.ticketId, onPlatform.id]) {
      expect(cardsOf(id)).toHaveLength(1);
    }
    const threads = await stack.app.stores.links.threadsForTicket(onPlatform.id);
    expect(threads).toEqual([
      { channel: agentsPrivate, threadTs: cardsOf(onPlatform.id)[0]?.ts, triage: true },
    ]);
  });

  it('brings an internal note into the triage thread and never into the requester’s thread', async () => {
    await start();
    const filed = await fileByDm('Triage: laptop fan screams');
    const [card] = await oneCard(filed.ticketId);
    stack.emulator.model.addAgentReply('acme', filed.ticketId, {
      agentEmail: SAM,
      body: 'Note to self: fan part is in stock',
      internal: true,
    });
    stack.emulator.model.addAgentReply('acme', filed.ticketId, {
      agentEmail: SAM,
      body: 'A new fan is on its way',
    });
    const inTriage = (text: string) =>
      (stack.double.workspace.thread(agentsPrivate, card?.ts ?? '') ?? []).find((m) =>
        m.text?.includes(text),
      );
    await eventually(() => inTriage('fan part is in stock'), 15_000, 'the note in triage');
    await eventually(() => inTriage('new fan is on its way'), 15_000, 'the reply in triage');
    const inRequesters = (text: string) =>
      (stack.double.workspace.thread(filed.channel, filed.threadTs) ?? []).find((m) =>
        m.text?.includes(text),
      );
    await eventually(() => inRequesters('new fan is on its way'), 15_000, 'the reply for Alice');
    const everything = JSON.stringify(stack.double.workspace.thread(filed.channel, filed.threadTs));
    expect(everything).not.toContain('fan part is in stock');
  });

  it('posts exactly one card when Slack rate-limits the first try', async () => {
    await start();
    stack.double.failNext('chat.postMessage', 'ratelimited', { retryAfterSec: 1 });
    const ticket = stack.emulator.model.createTicket('acme', {
      title: 'Triage: badge reader beeps',
      desk_id: ROUTED_DESK,
      requester_email: 'bob@acme.example',
      channel: 'portal',
    });
    await oneCard(ticket.id);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(cardsOf(ticket.id)).toHaveLength(1);
  });
});

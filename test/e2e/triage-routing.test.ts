/**
 * Where a ticket's triage card goes, end to end (the real app over HTTP, the emulator with
 * webhooks on, the Slack double, real Redis): a subdesk's ticket to its own desk's channel,
 * else its parent's; a ticket on no desk to the catch-all, and once it is put on a desk, to that
 * desk's channel, the catch-all's card turned into a pointer to it (one card, not two).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AdaptivePlanner } from '../../src/mirror/index.ts';
import { TRIAGE_CATCH_ALL } from '../../src/store/types.ts';
import { defaultIds } from '../../tools/slack-double/index.ts';
import { eventually } from '../support/eventually.ts';
import { ROUTED_DESK, type Stack, startStack } from '../support/stack.ts';

// #it-agents triages the IT desk; #hr-private (the app added) is the catch-all.
const { agentsPrivate, hrPrivate, bot } = defaultIds;
const SECRET = 'whsec-e2e-triage-routing-0123456789';
const SUBDESK = 'it-hardware';

describe('triage card routing', () => {
  let stack: Stack;
  afterEach(async () => {
    await stack?.close();
  });

  async function start(channels: Record<string, string>) {
    stack = await startStack({ webhookSecret: SECRET, mirror: { planner: new AdaptivePlanner() } });
    stack.emulator.setWebhooks({ announceCreated: true });
    stack.double.workspace.addMember(hrPrivate, bot);
    for (const [desk, channel] of Object.entries(channels)) {
      await stack.app.stores.triageChannels.set(desk, channel);
    }
    // The feed marks when it first saw the channels; tickets before that get no card.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
  }

  const cardsIn = (channel: string, ticketId: string) =>
    stack.double.workspace
      .messages(channel)
      .filter(
        (m) =>
          m.metadata?.event_type === 'triage_card' &&
          m.metadata.event_payload?.ticket_id === ticketId,
      );

  const pointersIn = (channel: string, ticketId: string) =>
    stack.double.workspace
      .messages(channel)
      .filter(
        (m) =>
          m.metadata?.event_type === 'triage_card_moved' &&
          m.metadata.event_payload?.ticket_id === ticketId,
      );

  const cardIn = (channel: string, ticketId: string) =>
    eventually(
      () => cardsIn(channel, ticketId)[0],
      10_000,
      `the triage card of ${ticketId} in ${channel}`,
    );

  const create = (title: string, desk?: string) =>
    stack.emulator.model.createTicket('acme', {
      title,
      ...(desk ? { desk_id: desk } : {}),
      requester_email: 'bob@acme.example',
      channel: 'portal',
    });

  async function movedFromCatchAll(ticketId: string) {
    await cardIn(hrPrivate, ticketId);
    stack.emulator.model.setDesk('acme', ticketId, ROUTED_DESK);
    const card = await cardIn(agentsPrivate, ticketId);
    const pointer = await eventually(
      () => pointersIn(hrPrivate, ticketId)[0],
      10_000,
      'the catch-all card turned into a pointer',
    );
    // Hooks, the feed and the worker come and go meanwhile: still one card, and one pointer.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    return { card, pointer };
  }

  it('posts the card of a ticket on a subdesk in its parent desk’s triage channel', async () => {
    await start({ [ROUTED_DESK]: agentsPrivate });
    const ticket = create('Routing: a new laptop, please', SUBDESK);
    await cardIn(agentsPrivate, ticket.id);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(cardsIn(agentsPrivate, ticket.id)).toHaveLength(1);
  });

  it('posts the card of a ticket on a subdesk in the subdesk’s own triage channel when it has one', async () => {
    await start({ [ROUTED_DESK]: agentsPrivate, [SUBDESK]: hrPrivate });
    const ticket = create('Routing: an extra monitor', SUBDESK);
    await cardIn(hrPrivate, ticket.id);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(cardsIn(agentsPrivate, ticket.id)).toHaveLength(0);
  });

  it('posts the card of a ticket on no desk in the catch-all', async () => {
    await start({ [ROUTED_DESK]: agentsPrivate, [TRIAGE_CATCH_ALL]: hrPrivate });
    const ticket = create('Routing: something is wrong');
    await cardIn(hrPrivate, ticket.id);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(cardsIn(hrPrivate, ticket.id)).toHaveLength(1);
    expect(cardsIn(agentsPrivate, ticket.id)).toHaveLength(0);
  });

  it('moves the card of a ticket put on a desk later to the desk’s channel, leaving a pointer in the catch-all', async () => {
    await start({ [ROUTED_DESK]: agentsPrivate, [TRIAGE_CATCH_ALL]: hrPrivate });
    const ticket = create('Routing: the VPN drops');
    const { card, pointer } = await movedFromCatchAll(ticket.id);
    expect(cardsIn(agentsPrivate, ticket.id)).toHaveLength(1);
    expect(cardsIn(hrPrivate, ticket.id)).toHaveLength(0);
    expect(pointersIn(hrPrivate, ticket.id)).toHaveLength(1);
    expect(pointer.text).toContain(`<#${agentsPrivate}>`);
    // The ticket's conversation follows the desk's card alone.
    const triage = (await stack.app.stores.links.threadsForTicket(ticket.id)).filter(
      (thread) => thread.triage,
    );
    expect(triage).toEqual([{ channel: agentsPrivate, threadTs: card.ts, triage: true }]);
  });

  it('moves the card once with two replicas running', async () => {
    await start({ [ROUTED_DESK]: agentsPrivate, [TRIAGE_CATCH_ALL]: hrPrivate });
    await stack.addReplica();
    const tickets = [create('Routing: printer jams'), create('Routing: mouse double-clicks')];
    for (const ticket of tickets) await movedFromCatchAll(ticket.id);
    for (const ticket of tickets) {
      expect(cardsIn(agentsPrivate, ticket.id)).toHaveLength(1);
      expect(cardsIn(hrPrivate, ticket.id)).toHaveLength(0);
      expect(pointersIn(hrPrivate, ticket.id)).toHaveLength(1);
    }
  });

  it.each([
    ['rate-limits', 'ratelimited', 429],
    ['fails', 'internal_error', 500],
  ])('moves the card once when Slack %s the pointer’s first try', async (_how, error, status) => {
    await start({ [ROUTED_DESK]: agentsPrivate, [TRIAGE_CATCH_ALL]: hrPrivate });
    const ticket = create('Routing: screen flickers');
    await cardIn(hrPrivate, ticket.id);
    stack.double.failNext('chat.update', error, { status, retryAfterSec: 1 });
    await movedFromCatchAll(ticket.id);
    const pointerTries = stack.double
      .callsTo('chat.update')
      .filter((call) => call.args.channel === hrPrivate);
    expect(pointerTries[0]?.injected).toBe(true);
    expect(cardsIn(agentsPrivate, ticket.id)).toHaveLength(1);
    expect(pointersIn(hrPrivate, ticket.id)).toHaveLength(1);
  });
});

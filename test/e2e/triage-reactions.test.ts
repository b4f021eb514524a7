/**
 * Agents' reactions on a triage card (TRIAGE_REACTIONS, default 👀 assign, ✅ resolve, 🔼 raise),
 * over the real app, the emulator, the Slack double and Redis, with the mirror running: the
 * agents' private #it-agents is the catch-all triage channel, and Alice's ticket filed by DM gets
 * its card there from the triage feed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTriageCard } from '../../src/slack/builders/triage-card-builder.ts';
import { triageCardMetadata } from '../../src/slack/posting/post-metadata.ts';
import { TRIAGE_CATCH_ALL } from '../../src/store/types.ts';
import { defaultIds } from '../../tools/slack-double/index.ts';
import { eventually } from '../support/eventually.ts';
import { QUICK_PLANNER, type Stack, startStack } from '../support/stack.ts';

const { agent, alice, bot, botId, agentsPrivate, itHelp } = defaultIds;

describe('reactions on a triage card', () => {
  let stack: Stack;
  let ticketId: string;
  let cardTs: string;

  beforeAll(async () => {
    stack = await startStack({ mirror: { planner: QUICK_PLANNER } });
    await stack.app.stores.triageChannels.set(TRIAGE_CATCH_ALL, agentsPrivate);
    // The feed marks when it first saw the channel; tickets before that get no card.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const dm = stack.double.workspace.openIm(alice);
    const sent = await stack.driver.userPosts({
      userId: alice,
      channelId: dm,
      text: 'The badge reader at door 4 rejects my badge',
    });
    ticketId = await eventually(
      () => stack.app.stores.links.ticketForThread(dm, sent.ts),
      5_000,
      'the ticket',
    );
    const card = await eventually(
      async () => (await stack.app.stores.links.threadsForTicket(ticketId)).find((t) => t.triage),
      15_000,
      'the triage card',
    );
    cardTs = card.threadTs;
  });
  afterAll(async () => {
    await stack?.close();
  });

  const ticket = () => stack.emulator.model.getTicket('acme', ticketId);
  // The thread's replies (not the card) that say `text`.
  const threadLines = (text: string) =>
    (stack.double.workspace.thread(agentsPrivate, cardTs) ?? []).filter(
      (m) => m.ts !== cardTs && (m.text ?? '').includes(text),
    );
  const react = (reaction: string, userId = agent, channelId = agentsPrivate, ts = cardTs) =>
    stack.driver.userReacts({ userId, channelId, ts, reaction });
  // An event as Slack sends it, for deliveries the workspace does not make itself.
  const reactionEvent = (reaction: string) => ({
    type: 'reaction_added',
    user: agent,
    reaction,
    item: { type: 'message', channel: agentsPrivate, ts: cardTs },
    item_user: bot,
    event_ts: stack.double.workspace.nextTs(),
  });

  it('a reaction on a message that is not a triage card does nothing', async () => {
    const own = await stack.driver.userPosts({
      userId: agent,
      channelId: agentsPrivate,
      text: 'Door 4 badge readers are being replaced today',
    });
    await react('white_check_mark', agent, agentsPrivate, own.ts);
    await react('eyes', agent, agentsPrivate, own.ts);
    // The agent then acts on the card itself: once that is done, the first two were seen.
    await react('arrow_up_small');
    await eventually(() => ticket().priority === 'high', 10_000, 'the raise on the card');
    expect(ticket().status).not.toBe('resolved');
    expect(ticket().assignee_email ?? null).toBeNull();
    expect(stack.double.workspace.ephemerals({ user: agent })).toEqual([]);
  });

  it('👀 by an agent assigns the ticket to them, the card shows it and the thread says so once', async () => {
    await react('eyes');
    await eventually(
      () => ticket().assignee_email === 'sam.rivera@acme.example',
      10_000,
      'the assignment',
    );
    const card = await eventually(
      () => {
        const now = stack.double.workspace.message(agentsPrivate, cardTs);
        return JSON.stringify(now?.blocks).includes(`<@${agent}>`) ? now : undefined;
      },
      10_000,
      'the card showing the assignee',
    );
    expect(JSON.stringify(card.blocks)).toContain('triage_card_actions');
    expect(JSON.stringify(card.blocks)).toContain(`<@${alice}>`);
    expect(card.metadata?.event_type).toBe('triage_card');
    await eventually(() => threadLines('is assigned to').length > 0, 10_000, 'the line');
    // The mirror has looked again since (quick planner): one line, not two.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const lines = threadLines('is assigned to');
    expect(lines).toHaveLength(1);
    expect(lines[0]?.text).toContain('by Sam Rivera');
  });

  it('👀 removed and added again by the same agent assigns nothing more', async () => {
    // Slack's new reaction_added for the emoji added again: a new delivery, not a retry.
    await stack.driver.event(reactionEvent('eyes'));
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(ticket().assignee_email).toBe('sam.rivera@acme.example');
    expect(threadLines('is assigned to')).toHaveLength(1);
    expect(stack.double.workspace.ephemerals({ user: agent })).toEqual([]);
  });

  it('a reaction event Slack delivers twice, to two replicas at once, raises the priority one step', async () => {
    const second = await stack.addReplica();
    const event = reactionEvent('arrow_up_small');
    const eventId = `Ev${Date.now()}`;
    await Promise.all([
      stack.driver.event(event, { eventId }),
      second.driver.event(event, { eventId, retryNum: 1 }),
    ]);
    await eventually(() => ticket().priority === 'urgent', 10_000, 'the raise to urgent');
    // Raising again from high would have been a second step: urgent is the top, so it shows as
    // the agent being told it is already urgent, which no one asked for.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(
      stack.double.workspace
        .ephemerals({ user: agent })
        .filter((e) => e.text.includes('already urgent')),
    ).toEqual([]);
    await second.stop();
  });

  it('🔼 on an urgent ticket changes nothing and tells the agent privately', async () => {
    const before = ticket().updated_at;
    await stack.driver.event(reactionEvent('arrow_up_small'));
    await eventually(
      () =>
        stack.double.workspace
          .ephemerals({ channel: agentsPrivate, user: agent })
          .some((e) => e.text.includes('already urgent')),
      10_000,
      'the agent told',
    );
    expect(ticket().priority).toBe('urgent');
    expect(ticket().updated_at).toBe(before);
  });

  it('✅ by an agent resolves the ticket as them, and the thread says so once', async () => {
    await react('white_check_mark');
    await eventually(() => ticket().status === 'resolved', 10_000, 'the resolution');
    await eventually(() => threadLines('Resolved').length > 0, 10_000, 'the line in the thread');
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const lines = threadLines('Resolved');
    expect(lines).toHaveLength(1);
    expect(lines[0]?.text).toContain('by Sam Rivera');
  });
});

/**
 * Reactions by someone who is not an agent of the ticket: on a triage card left in a channel that
 * is public (a triage channel made public makes no one an agent).
 */
describe('reactions on a triage card by someone who is not an agent', () => {
  let stack: Stack;
  let ticketId: string;
  let cardTs: string;

  beforeAll(async () => {
    stack = await startStack();
    const created = stack.emulator.model.createTicket('acme', {
      title: 'Projector in room 3 flickers',
      description: 'It flickers every few seconds',
      requester_email: 'alice@acme.example',
    } as never);
    ticketId = created.id;
    cardTs = stack.double.workspace.postMessage(itHelp, {
      user: bot,
      bot_id: botId,
      ...buildTriageCard(created as never, { requester: { userId: alice } }),
      metadata: triageCardMetadata(ticketId),
    } as never).ts;
  });
  afterAll(async () => {
    await stack?.close();
  });

  const ticket = () => stack.emulator.model.getTicket('acme', ticketId);
  const dmTexts = () =>
    stack.double.workspace.history(stack.double.workspace.openIm(alice)).map((m) => m.text ?? '');
  const told = (text: string) =>
    stack.double.workspace
      .ephemerals({ channel: itHelp, user: alice })
      .filter((e) => e.text.includes(text)).length +
    dmTexts().filter((t) => t.includes(text)).length;

  it('is told privately that it changed nothing, and nothing changes', async () => {
    const delivery = await stack.driver.userReacts({
      userId: alice,
      channelId: itHelp,
      ts: cardTs,
      reaction: 'eyes',
    });
    await eventually(
      () =>
        stack.double.workspace
          .ephemerals({ channel: itHelp, user: alice })
          .some((e) => e.text.includes('would assign it to you')),
      10_000,
      'the refusal',
    );
    // Slack delivering the same event again says nothing more.
    await stack.driver.event(delivery.delivery?.envelope.event as never, {
      eventId: delivery.delivery?.eventId as string,
      retryNum: 1,
    });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(told('would assign it to you')).toBe(1);
    expect(ticket().assignee_email ?? null).toBeNull();
    expect(ticket().status).toBe('new');
  });

  it('an agent’s reaction is made when Slack fails to read the card', async () => {
    stack.double.failNext('conversations.replies', 'internal_error', { status: 500, times: 5 });
    await stack.driver.userReacts({
      userId: agent,
      channelId: itHelp,
      ts: cardTs,
      reaction: 'eyes',
    });
    await eventually(
      () => ticket().assignee_email === 'sam.rivera@acme.example',
      10_000,
      'the assignment',
    );
  });

  it('is told by direct message when Slack rate-limits the private notice', async () => {
    stack.double.failNext('chat.postEphemeral', 'ratelimited', { retryAfterSec: 7 });
    await stack.driver.userReacts({
      userId: alice,
      channelId: itHelp,
      ts: cardTs,
      reaction: 'white_check_mark',
    });
    await eventually(() => told('would resolve it') === 1, 10_000, 'the refusal by DM');
    expect(ticket().status).toBe('new');
  });

  it('is told once when Slack answers the private notice with 500s', async () => {
    stack.double.failNext('chat.postEphemeral', 'internal_error', { status: 500, times: 3 });
    await stack.driver.userReacts({
      userId: alice,
      channelId: itHelp,
      ts: cardTs,
      reaction: 'arrow_up_small',
    });
    await eventually(() => told('would raise its priority') === 1, 15_000, 'the refusal');
    expect(ticket().priority).toBe('medium');
  });
});

/**
 * What an agent does from a triage card shows at once, over the real app, the emulator (its
 * webhooks on), the Slack double and Redis: the mirror runs as the app does with webhooks, its
 * first look after a write 30 s later, so a reply seen in the threads within seconds was posted
 * for the write itself; and the mirror's next look posts none of it again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdaptivePlanner } from '../../src/mirror/index.ts';
import { buildTriageCard } from '../../src/slack/builders/triage-card-builder.ts';
import { REPLY_FIELDS, SHORTCUTS, VIEWS } from '../../src/slack/ids.ts';
import { triageCardMetadata } from '../../src/slack/posting/post-metadata.ts';
import { defaultIds } from '../../tools/slack-double/index.ts';
import { eventually } from '../support/eventually.ts';
import { type Stack, startStack } from '../support/stack.ts';

const { agent, alice, bot, botId, agentsPrivate } = defaultIds;
const SECRET = 'whsec-e2e-at-once-0123456789abcdef';

describe('what an agent does shows at once', () => {
  let stack: Stack;
  let ticketId: string;
  let dm: string;
  let dmThread: string;
  let cardTs: string;

  beforeAll(async () => {
    stack = await startStack({
      webhookSecret: SECRET,
      // As the app runs with webhooks: after a write, the mirror's first look waits 30 s.
      mirror: { planner: new AdaptivePlanner() },
    });
    dm = stack.double.workspace.openIm(alice);
    const sent = await stack.driver.userPosts({
      userId: alice,
      channelId: dm,
      text: 'The printer on floor 2 jams on every page',
    });
    dmThread = sent.ts;
    ticketId = await eventually(
      () => stack.app.stores.links.ticketForThread(dm, sent.ts),
      5_000,
      'the ticket filed by DM',
    );
    const ticket = stack.emulator.model.getTicket('acme', ticketId);
    const card = stack.double.workspace.postMessage(agentsPrivate, {
      user: bot,
      bot_id: botId,
      ...buildTriageCard(ticket as never, { requester: { userId: alice } }),
      metadata: triageCardMetadata(ticketId),
    } as never);
    cardTs = card.ts;
    await stack.app.stores.links.link(ticketId, {
      channel: agentsPrivate,
      threadTs: cardTs,
      triage: true,
    });
  });
  afterAll(async () => {
    await stack.close();
  });

  const textsOf = (channel: string, ts: string) =>
    (stack.double.workspace.thread(channel, ts) ?? []).map((m) => m.text ?? '');
  const countIn = (channel: string, ts: string, words: string) =>
    textsOf(channel, ts).filter((text) => text.includes(words)).length;
  const inBoth = (words: string) =>
    countIn(dm, dmThread, words) > 0 && countIn(agentsPrivate, cardTs, words) > 0;

  /** Has the mirror look at the ticket now and waits until it has. */
  async function mirrorLooks() {
    const before = (await stack.app.stores.mirror.state(ticketId))?.lastPolledAt ?? 0;
    await stack.app.stores.schedule.pollAt(ticketId, Date.now());
    await eventually(
      async () => ((await stack.app.stores.mirror.state(ticketId))?.lastPolledAt ?? 0) > before,
      10_000,
      'the mirror’s look',
    );
  }

  async function replyFromCard(words: string) {
    await stack.driver.blockAction({
      userId: agent,
      actionId: 'reply_to_requester',
      channelId: agentsPrivate,
      messageTs: cardTs,
    });
    const view = await eventually(
      () =>
        stack.double.workspace
          .modalStack(agent)
          .find((v) => v.callback_id === VIEWS.replyToRequester),
      5_000,
      'the reply modal',
    );
    const submitted = await stack.driver.viewSubmission({
      viewId: view.id,
      values: { [REPLY_FIELDS.text.action]: words },
    });
    expect(submitted.status).toBe(200);
    stack.double.workspace.clearModals(agent);
  }

  it('Reply to requester appears in the requester’s thread and the triage thread within seconds, once each after the mirror’s look', async () => {
    await replyFromCard('Please use the tray on the left for now');
    await eventually(
      () => inBoth('Please use the tray on the left'),
      1_500,
      'the reply in both threads',
    );
    await mirrorLooks();
    expect(countIn(dm, dmThread, 'Please use the tray on the left')).toBe(1);
    expect(countIn(agentsPrivate, cardTs, 'Please use the tray on the left')).toBe(1);
  });

  it('Send to requester appears in the requester’s thread within seconds, and once in each thread after the mirror’s look', async () => {
    const own = await stack.driver.userPosts({
      userId: agent,
      channelId: agentsPrivate,
      threadTs: cardTs,
      text: 'A technician is on the way',
    });
    await eventually(
      () =>
        stack.emulator.model
          .listMessages('acme', ticketId)
          .some((m) => m.body === 'A technician is on the way'),
      5_000,
      'the internal note',
    );
    await stack.driver.messageShortcut({
      callbackId: SHORTCUTS.sendToRequester,
      userId: agent,
      channelId: agentsPrivate,
      messageTs: own.ts,
    });
    await eventually(
      () => countIn(dm, dmThread, 'A technician is on the way') > 0,
      1_500,
      'the message in the requester’s thread',
    );
    await mirrorLooks();
    expect(countIn(dm, dmThread, 'A technician is on the way')).toBe(1);
    expect(countIn(agentsPrivate, cardTs, 'A technician is on the way')).toBe(1);
  });

  it('Reply to requester is posted once in each thread when Slack answers its first post with 500', async () => {
    const injectedBefore = stack.double
      .callsTo('chat.postMessage')
      .filter((c) => c.injected).length;
    stack.double.failNext('chat.postMessage', 'internal_error', { status: 500, times: 3 });
    await replyFromCard('The toner was replaced');
    await eventually(() => inBoth('The toner was replaced'), 15_000, 'the reply in both threads');
    expect(stack.double.callsTo('chat.postMessage').filter((call) => call.injected).length).toBe(
      injectedBefore + 3,
    );
    await mirrorLooks();
    expect(countIn(dm, dmThread, 'The toner was replaced')).toBe(1);
    expect(countIn(agentsPrivate, cardTs, 'The toner was replaced')).toBe(1);
  });

  it('Reply to requester is posted once in each thread when Slack answers its first post with 429', async () => {
    const injectedBefore = stack.double
      .callsTo('chat.postMessage')
      .filter((c) => c.injected).length;
    stack.double.failNext('chat.postMessage', 'ratelimited', { retryAfterSec: 1 });
    await replyFromCard('Paper jam cleared');
    await eventually(() => inBoth('Paper jam cleared'), 15_000, 'the reply in both threads');
    expect(stack.double.callsTo('chat.postMessage').filter((call) => call.injected).length).toBe(
      injectedBefore + 1,
    );
    await mirrorLooks();
    expect(countIn(dm, dmThread, 'Paper jam cleared')).toBe(1);
    expect(countIn(agentsPrivate, cardTs, 'Paper jam cleared')).toBe(1);
  });

  it('Assign to me shows on the triage card and as a line in both threads within seconds, once each', async () => {
    await stack.driver.blockAction({
      userId: agent,
      actionId: 'assign_to_me',
      channelId: agentsPrivate,
      messageTs: cardTs,
    });
    const assigned = (text: string) => /assign/i.test(text) && text.includes(ticketId);
    await eventually(
      () =>
        textsOf(dm, dmThread).some(assigned) &&
        textsOf(agentsPrivate, cardTs).slice(1).some(assigned),
      1_500,
      'the assignment’s line in both threads',
    );
    await mirrorLooks();
    expect(textsOf(dm, dmThread).filter(assigned)).toHaveLength(1);
    expect(textsOf(agentsPrivate, cardTs).slice(1).filter(assigned)).toHaveLength(1);
  });

  it('the triage card Assign to me refreshed names the assignee as a mention, not their address', async () => {
    // After the assignment above.
    const card = await eventually(
      () => stack.double.workspace.message(agentsPrivate, cardTs),
      1_000,
      'the triage card',
    );
    const blocks = JSON.stringify(card.blocks);
    expect(blocks).toContain(`*Assignee*\\n<@${agent}>`);
    expect(blocks).not.toContain('sam.rivera@acme.example');
  });

  it('the card in the requester’s thread follows Assign to me, naming the assignee as a mention', async () => {
    // After the assignment above: refreshed by the mirror's look at once, not a later one.
    await eventually(
      () =>
        (stack.double.workspace.thread(dm, dmThread) ?? []).some((m) =>
          JSON.stringify(m.blocks ?? []).includes(`*Assignee*\\n<@${agent}>`),
        ),
      2_500,
      'the requester’s card naming the assignee',
    );
  });

  it('an agent’s /ticket lookup names the assignee as a mention, not their address', async () => {
    const command = await stack.driver.slashCommand({
      userId: agent,
      channelId: agentsPrivate,
      text: ticketId,
    });
    const post = await stack.double.waitForResponseUrlPost(
      (p) => p.url === command.responseUrl,
      5_000,
    );
    const text = JSON.stringify(post.body);
    expect(text).toContain(`<@${agent}>`);
    expect(text).not.toContain('sam.rivera@acme.example');
  });

  it('with a second replica running the outbox and the mirror, a reply is still posted once in each thread', async () => {
    await stack.addReplica();
    for (const words of ['First of two replies', 'Second of two replies']) {
      await replyFromCard(words);
      await eventually(() => inBoth(words), 1_500, `"${words}" in both threads`);
    }
    await mirrorLooks();
    for (const words of ['First of two replies', 'Second of two replies']) {
      expect(countIn(dm, dmThread, words)).toBe(1);
      expect(countIn(agentsPrivate, cardTs, words)).toBe(1);
    }
  });
});

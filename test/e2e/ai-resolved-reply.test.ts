/**
 * "Reply here if you still need help": the platform's AI agent resolves a request on its own,
 * and the requester's reply, however the ticket was filed, reopens it and is on it. The mirror
 * learned the resolution from the platform, not from a click in Slack, so its record of the
 * ticket may not know the requester: such a record must never make them a stranger.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultIds } from '../../tools/slack-double/index.ts';
import { eventually } from '../support/eventually.ts';
import {
  modalOpenedBy,
  QUICK_PLANNER,
  type Stack,
  startStack,
  ticketsOf,
} from '../support/stack.ts';

const { alice, itHelp } = defaultIds;
const ALICE = 'alice@acme.example';

describe.each([
  { stores: 'Redis', embedded: false },
  { stores: 'the in-memory stores (no Redis)', embedded: true },
])('a request the AI agent resolved, on $stores', ({ embedded }) => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      embedded,
      emulator: { aiDelayMs: 200 },
      budget: { perMinute: 5_000, perHour: 50_000 },
      mirror: { planner: QUICK_PLANNER },
    });
  });
  afterAll(async () => {
    await stack?.close();
  });

  const ticket = (id: string) => stack.emulator.model.getTicket('acme', id);
  const messages = (id: string) => stack.emulator.model.listMessages('acme', id);
  const threadOf = (channel: string, ts: string) =>
    stack.double.workspace.thread(channel, ts) ?? [];

  /** Waits for the AI's resolving answer to reach the thread, as the requester would see it. */
  async function resolvedByAi(ticketId: string, channel: string, threadTs: string) {
    await eventually(() => ticket(ticketId).status === 'resolved', 10_000, 'the AI to resolve');
    await eventually(
      () => threadOf(channel, threadTs).some((m) => JSON.stringify(m).includes('Reply here')),
      15_000,
      'the AI’s answer in the thread',
    );
    // The mirror has seen the resolution too: its record of the ticket says resolved.
    await eventually(
      () => threadOf(channel, threadTs).some((m) => /status: .*Resolved/.test(m.text ?? '')),
      15_000,
      'the resolution in the thread',
    );
  }

  /** The requester replies in the thread; the reply must reopen the ticket and be on it. */
  async function replyReopens(ticketId: string, channel: string, threadTs: string) {
    await stack.driver.userPosts({
      userId: alice,
      channelId: channel,
      text: 'Still broken',
      threadTs,
    });
    await eventually(
      () => messages(ticketId).some((m) => m.body.includes('Still broken')),
      10_000,
      'the reply on the ticket',
    );
    await eventually(() => ticket(ticketId).status !== 'resolved', 10_000, 'the ticket reopened');
    // The mirror has read the reopening too; the thread says it once, in the app's words.
    await eventually(
      async () => (await stack.app.stores.mirror.state(ticketId))?.status !== 'resolved',
      10_000,
      'the mirror to see the reopening',
    );
    const reopenLines = () =>
      threadOf(channel, threadTs).filter(
        (m) =>
          m.text?.includes('reply reopened') || /status: .*Resolved → .*Open/.test(m.text ?? ''),
      );
    // The app's line comes from its own queue, which may post it after the mirror's read.
    await eventually(() => reopenLines().length > 0, 10_000, 'the reopening said in the thread');
    expect(reopenLines().map((m) => m.text)).toEqual([expect.stringContaining('reply reopened')]);
    const refusals = stack.double.workspace
      .ephemerals({ user: alice })
      .filter((e) => e.text.includes('only its requester'));
    expect(refusals).toEqual([]);
  }

  it('reopens a ticket filed by direct message when its requester replies in the DM thread', async () => {
    const dm = stack.double.workspace.openIm(alice);
    const sent = await stack.driver.userPosts({
      userId: alice,
      channelId: dm,
      text: 'I forgot my password and I am locked out',
    });
    const ticketId = await eventually(
      () => stack.app.stores.links.ticketForThread(dm, sent.ts),
      10_000,
      'the DM linked',
    );
    await resolvedByAi(ticketId, dm, sent.ts);
    await replyReopens(ticketId, dm, sent.ts);
  });

  it('reopens a ticket filed with /ticket when its requester replies in the card’s thread', async () => {
    const view = await modalOpenedBy(stack, alice, () =>
      stack.driver.slashCommand({ userId: alice, channelId: itHelp, text: '' }),
    );
    await stack.driver.viewSubmission({
      viewId: view.id,
      userId: alice,
      values: { title_input: 'VPN will not connect from home', description_input: 'vpn' },
    });
    const filed = await eventually(
      () => ticketsOf(stack, ALICE).find((t) => t.title === 'VPN will not connect from home'),
      10_000,
      'the ticket',
    );
    const card = await eventually(
      () =>
        stack.double.workspace
          .messages(itHelp)
          .find(
            (m) => m.thread_ts === undefined && JSON.stringify(m.blocks ?? []).includes(filed.id),
          ),
      10_000,
      'the card',
    );
    await resolvedByAi(filed.id, itHelp, card.ts);
    await replyReopens(filed.id, itHelp, card.ts);
  });

  it('reopens a ticket filed with a 🎫 reaction when its requester replies in the message’s thread', async () => {
    const parent = await stack.driver.userPosts({
      userId: alice,
      channelId: itHelp,
      text: 'How do I set up MFA on my new phone?',
    });
    await stack.driver.userReacts({
      userId: alice,
      channelId: itHelp,
      ts: parent.ts,
      reaction: 'ticket',
    });
    const ticketId = await eventually(
      () => stack.app.stores.links.ticketForThread(itHelp, parent.ts),
      10_000,
      'the link',
    );
    await resolvedByAi(ticketId, itHelp, parent.ts);
    await replyReopens(ticketId, itHelp, parent.ts);
  });
});

/**
 * No public channel is ever a triage channel, end to end: the real app over HTTP against the
 * emulator (webhooks on, new tickets announced), the Slack double and Redis, the mirror running.
 * A triage channel carries every ticket's text and every internal note, so a public one (named
 * in DESK_TRIAGE_CHANNELS, or made public after it was set) gets no card and no note, and the
 * app says so at error level; when Slack cannot say whether a channel is private, the card
 * waits and is posted once it can.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AdaptivePlanner } from '../../src/mirror/index.ts';
import { TRIAGE_CATCH_ALL } from '../../src/store/types.ts';
import { defaultIds } from '../../tools/slack-double/index.ts';
import { eventually } from '../support/eventually.ts';
import { ROUTED_DESK, type Stack, type StackOptions, startStack } from '../support/stack.ts';

const { alice, itHelp, agentsPrivate } = defaultIds;
const SAM = 'sam.rivera@acme.example';
const SECRET = 'whsec-e2e-triage-privacy-0123456789';
const ERROR = '"level":50';

describe('triage channels are private', () => {
  let stack: Stack;
  afterEach(async () => {
    await stack?.close();
  });

  async function start(options: StackOptions = {}) {
    stack = await startStack({
      webhookSecret: SECRET,
      mirror: { planner: new AdaptivePlanner() },
      ...options,
    });
    stack.emulator.setWebhooks({ announceCreated: true });
  }

  const cardsIn = (channel: string, ticketId?: string) =>
    stack.double.workspace
      .messages(channel)
      .filter(
        (m) =>
          m.metadata?.event_type === 'triage_card' &&
          (ticketId === undefined || m.metadata.event_payload?.ticket_id === ticketId),
      );

  const errorsSaying = (text: string) =>
    stack.logs.filter((line) => line.includes(ERROR) && line.includes(text));

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

  /** An internal note, then a public reply: once the reply reached the requester, the note was weighed. */
  async function noteThenReply(filed: { channel: string; threadTs: string; ticketId: string }) {
    stack.emulator.model.addAgentReply('acme', filed.ticketId, {
      agentEmail: SAM,
      body: `Internal: ${filed.ticketId} needs a new motherboard`,
      internal: true,
    });
    stack.emulator.model.addAgentReply('acme', filed.ticketId, {
      agentEmail: SAM,
      body: `Public: we are on ${filed.ticketId}`,
    });
    await eventually(
      () =>
        (stack.double.workspace.thread(filed.channel, filed.threadTs) ?? []).some((m) =>
          m.text?.includes(`Public: we are on ${filed.ticketId}`),
        ),
      15_000,
      'the public reply in the requester’s thread',
    );
  }

  it('a public channel named in DESK_TRIAGE_CHANNELS gets no card and no note, said at error level at start and when it would have posted', async () => {
    await start({ deskTriageChannels: `${TRIAGE_CATCH_ALL}=${itHelp}` });
    await eventually(
      () => errorsSaying('triage channel is public: no card or note is posted there').length > 0,
      5_000,
      'the error logged at start',
    );
    // The feed marks when it first saw the channel; tickets before that get no card.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const filed = await fileByDm('Privacy: my laptop will not start after the update');
    await eventually(
      () =>
        errorsSaying('the card was not posted there').some((line) => line.includes(filed.ticketId)),
      15_000,
      'the error logged when the card would have been posted',
    );
    await noteThenReply(filed);
    expect(cardsIn(itHelp)).toEqual([]);
    const everything = JSON.stringify(stack.double.workspace.messages(itHelp));
    expect(everything).not.toContain('will not start after the update');
    expect(everything).not.toContain('needs a new motherboard');
  });

  it('a triage channel made public stops receiving cards and notes, and the app says so', async () => {
    await start({ triagePrivacyMs: 200 });
    await stack.app.stores.triageChannels.set(ROUTED_DESK, agentsPrivate);
    await stack.app.stores.triageChannels.set(TRIAGE_CATCH_ALL, agentsPrivate);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const first = await fileByDm('Privacy: the printer on 2 jams');
    const [card] = await eventually(
      () =>
        cardsIn(agentsPrivate, first.ticketId).length > 0
          ? cardsIn(agentsPrivate, first.ticketId)
          : undefined,
      10_000,
      'the first card, while the channel is private',
    );

    stack.double.workspace.setPrivate(agentsPrivate, false);
    await new Promise((resolve) => setTimeout(resolve, 400));
    await noteThenReply(first);
    const second = await fileByDm('Privacy: the scanner on 3 is offline');
    await eventually(
      () =>
        errorsSaying('the card was not posted there').some((line) =>
          line.includes(second.ticketId),
        ),
      15_000,
      'the error logged for the second card',
    );
    expect(cardsIn(agentsPrivate, second.ticketId)).toEqual([]);
    const triageThread = JSON.stringify(
      stack.double.workspace.thread(agentsPrivate, card?.ts ?? '') ?? [],
    );
    expect(triageThread).not.toContain('needs a new motherboard');
    expect(errorsSaying('triage channel is public').length).toBeGreaterThan(0);
  });

  it('a card waits while Slack cannot say whether the channel is private, and is posted once when it can', async () => {
    await start();
    await stack.app.stores.triageChannels.set(TRIAGE_CATCH_ALL, agentsPrivate);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    stack.double.failNext('conversations.info', 'ratelimited', {
      retryAfterSec: 2,
      when: (args) => args.channel === agentsPrivate,
    });
    const filed = await fileByDm('Privacy: the badge reader beeps twice');
    await eventually(
      () => (cardsIn(agentsPrivate, filed.ticketId).length > 0 ? true : undefined),
      15_000,
      'the card, once Slack says the channel is private',
    );
    const infos = stack.double
      .callsTo('conversations.info')
      .filter((call) => call.args.channel === agentsPrivate);
    expect(infos[0]?.injected).toBe(true);
    expect(infos.length).toBeGreaterThan(1);
    // Not posted inside Slack's Retry-After: nothing went there before Slack could say.
    const posted = stack.double
      .callsTo('chat.postMessage')
      .find(
        (call) =>
          call.args.channel === agentsPrivate &&
          call.response.ok === true &&
          String(call.args.metadata).includes('"triage_card"'),
      );
    expect((posted?.at ?? 0) - (infos[0]?.at ?? 0)).toBeGreaterThanOrEqual(1_900);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(cardsIn(agentsPrivate, filed.ticketId)).toHaveLength(1);
  });
});

describe('triage channel membership events', () => {
  let stack: Stack;
  afterEach(async () => {
    await stack?.close();
  });

  it('answers 200 to membership events of the wrong shape, and logs what it ignored', async () => {
    stack = await startStack();
    const events = [
      { type: 'member_joined_channel', user: 42, channel: agentsPrivate },
      { type: 'member_left_channel', user: alice, channel: { id: agentsPrivate } },
    ];
    const statuses = [];
    for (const event of events) {
      const delivery = await stack.driver.event(event as never, { simulateSlackRetries: false });
      statuses.push(delivery.status);
    }
    expect(statuses).toEqual([200, 200]);
    const ignored = stack.logs.filter((l) => l.includes('does not have the shape'));
    expect(ignored.map((l) => JSON.parse(l).fields)).toEqual([['user'], ['channel']]);
  });
});

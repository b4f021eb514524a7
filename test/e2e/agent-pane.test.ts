/**
 * The service desk's AI in Slack's AI pane, end to end over real HTTP: opening the pane offers
 * prompts from the catalog and the desks; a new conversation there is one ticket, titled, with
 * "Looking into it…" until the platform's AI agent answers in the same conversation with its
 * sources and "Talk to a person"; later messages are the ticket's. The pane's looks failing
 * (429, 500) cost nothing, and a workspace without the pane files DMs as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PANE_STATUS } from '../../src/slack/builders/pane-prompts-builder.ts';
import { defaultIds, type SlackMessage } from '../../tools/slack-double/index.ts';
import { eventually } from '../support/eventually.ts';
import { QUICK_PLANNER, type Stack, startStack, ticketsOf } from '../support/stack.ts';

const { alice, bob } = defaultIds;
const ASSISTANT_METHODS = [
  'assistant.threads.setStatus',
  'assistant.threads.setTitle',
  'assistant.threads.setSuggestedPrompts',
];

describe('the AI pane', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      emulator: { aiDelayMs: 300 },
      budget: { perMinute: 5_000, perHour: 50_000 },
      mirror: { planner: QUICK_PLANNER },
      reopenWindow: '0',
    });
  });
  afterAll(async () => {
    await stack?.close();
  });

  const workspace = () => stack.double.workspace;
  const threadOf = (channel: string, ts: string) => workspace().thread(channel, ts) ?? [];
  const messagesOf = (ticketId: string) => stack.emulator.model.listMessages('acme', ticketId);
  const pane = (channel: string, threadTs: string) => {
    const found = workspace().assistantThread(channel, threadTs);
    if (!found) throw new Error('no such pane conversation');
    return found;
  };
  const ticketOfThread = (channel: string, threadTs: string) =>
    eventually(
      () => stack.app.stores.links.ticketForThread(channel, threadTs),
      10_000,
      'the ticket linked to the pane’s thread',
    );
  const aiAnswerIn = async (ticketId: string, channel: string, threadTs: string) => {
    const answer = await eventually(
      () => messagesOf(ticketId).find((m) => m.author.type === 'ai_agent'),
      10_000,
      'the AI agent’s answer on the platform',
    );
    const post = await eventually(
      () =>
        threadOf(channel, threadTs).find(
          (m: SlackMessage) => m.metadata?.event_payload.message_id === answer.id,
        ),
      15_000,
      'the AI answer in the pane’s thread',
    );
    return { answer, post };
  };
  const callIndex = (method: string, test: (args: Record<string, unknown>) => boolean) =>
    stack.double.calls.findIndex((call) => call.method === method && test(call.args));

  it('offers four prompts from the catalog and the desks when the pane opens', async () => {
    const opened = await stack.driver.userOpensPane({ userId: bob });
    expect(opened.delivery.status).toBe(200);
    const shown = await eventually(
      () =>
        pane(opened.channel, opened.threadTs).prompts.length > 0
          ? pane(opened.channel, opened.threadTs)
          : undefined,
      5_000,
      'the suggested prompts',
    );
    expect(shown.prompts).toEqual([
      { title: 'Request New laptop', message: 'Request: New laptop' },
      { title: 'Request Extra monitor', message: 'Request: Extra monitor' },
      { title: 'Ask IT Support', message: 'I have a question for IT Support' },
      { title: 'Ask People', message: 'I have a question for People' },
    ]);
    expect(shown.promptsTitle).toBe('What do you need help with?');
  });

  it('files a new conversation once, titles it, shows the status, and brings the AI answer with sources and Talk to a person', async () => {
    const opened = await stack.driver.userOpensPane({ userId: alice });
    const { channel, threadTs } = opened;
    const words = 'I forgot my password and I am locked out';
    const sent = await stack.driver.userPosts({
      userId: alice,
      channelId: channel,
      text: words,
      threadTs,
    });
    // Slack delivering it again, to two replicas at once: still one ticket.
    await stack.driver.deliverWithRetries(sent.delivery?.envelope.event ?? {}, 2, {
      eventId: sent.delivery?.eventId as string,
      concurrent: true,
    });
    const ticketId = await ticketOfThread(channel, threadTs);
    const { post } = await aiAnswerIn(ticketId, channel, threadTs);

    expect(ticketsOf(stack, 'alice@acme.example').filter((t) => t.title === words)).toHaveLength(1);
    const ticket = stack.emulator.model.getTicket('acme', ticketId);
    expect(pane(channel, threadTs).title).toBe(ticket.title);
    // The confirmation, then "Looking into it…", then the answer, which ends the status.
    const confirmed = callIndex(
      'chat.postMessage',
      (args) => args.thread_ts === threadTs && String(args.metadata).includes(ticketId),
    );
    const statusAfter = stack.double.calls.findIndex(
      (call, index) =>
        index > confirmed &&
        call.method === 'assistant.threads.setStatus' &&
        call.args.thread_ts === threadTs &&
        call.args.status === PANE_STATUS &&
        call.response.ok,
    );
    const answered = callIndex(
      'chat.postMessage',
      (args) => args.thread_ts === threadTs && String(args.metadata).includes('"message_id"'),
    );
    expect(confirmed).toBeGreaterThanOrEqual(0);
    expect(statusAfter).toBeGreaterThan(confirmed);
    expect(answered).toBeGreaterThan(statusAfter);
    expect(pane(channel, threadTs).status).toBe('');
    // The answer as the DM thread has it: its sources and "Talk to a person".
    const blocks = JSON.stringify(post.blocks);
    expect(blocks).toContain('Sources:');
    expect(blocks).toContain('"action_id":"talk_to_person"');
  });

  it('puts a later message in the conversation on the ticket, and files nothing new', async () => {
    const { channel, threadTs } = await stack.driver.userOpensPane({ userId: bob });
    await stack.driver.userPosts({
      userId: bob,
      channelId: channel,
      text: 'The office printer jams on every page',
      threadTs,
    });
    const ticketId = await ticketOfThread(channel, threadTs);
    const before = ticketsOf(stack, 'bob@acme.example').length;
    await stack.driver.userPosts({
      userId: bob,
      channelId: channel,
      text: 'It is the one on floor 3',
      threadTs,
    });
    await eventually(
      () => messagesOf(ticketId).some((m) => m.body.includes('the one on floor 3')),
      10_000,
      'the follow-up on the ticket',
    );
    expect(ticketsOf(stack, 'bob@acme.example')).toHaveLength(before);
  });

  it('keeps a message written before the ticket exists, and puts it on that ticket', async () => {
    const { channel, threadTs } = await stack.driver.userOpensPane({ userId: alice });
    // The confirmation held by Slack's rate limit: the filing is under way for a second.
    stack.double.failNext('chat.postMessage', 'ratelimited', {
      retryAfterSec: 1,
      when: (args) => args.thread_ts === threadTs,
    });
    await stack.driver.userPosts({
      userId: alice,
      channelId: channel,
      text: 'My monitor flickers',
      threadTs,
    });
    await stack.driver.userPosts({
      userId: alice,
      channelId: channel,
      text: 'Since this morning',
      threadTs,
    });
    const ticketId = await ticketOfThread(channel, threadTs);
    await eventually(
      () => messagesOf(ticketId).some((m) => m.body.includes('Since this morning')),
      10_000,
      'the early message on the ticket',
    );
    const alices = ticketsOf(stack, 'alice@acme.example');
    expect(alices.filter((t) => t.title.includes('monitor flickers'))).toHaveLength(1);
    expect(alices.some((t) => t.title.includes('Since this morning'))).toBe(false);
  });

  it('files a direct message outside the pane as before, with no pane calls', async () => {
    const dm = workspace().openIm(bob);
    const sent = await stack.driver.userPosts({
      userId: bob,
      channelId: dm,
      text: 'My VPN token expired',
    });
    const ticketId = await ticketOfThread(dm, sent.ts);
    await aiAnswerIn(ticketId, dm, sent.ts);
    const reply = await stack.driver.userPosts({
      userId: bob,
      channelId: dm,
      text: 'Thanks, that worked',
      threadTs: sent.ts,
    });
    await eventually(
      () => messagesOf(ticketId).some((m) => m.body.includes('that worked')),
      10_000,
      'the reply on the ticket',
    );
    const paneCalls = stack.double.calls.filter(
      (call) =>
        ASSISTANT_METHODS.includes(call.method) &&
        (call.args.thread_ts === sent.ts || call.args.thread_ts === reply.ts),
    );
    expect(paneCalls).toEqual([]);
  });
});

describe.each([
  { failure: 'ratelimited', status: 429 },
  { failure: 'internal_error', status: 500 },
])('the AI pane while Slack answers its looks with $status', ({ failure, status }) => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      emulator: { aiDelayMs: 300 },
      budget: { perMinute: 5_000, perHour: 50_000 },
      mirror: { planner: QUICK_PLANNER },
      reopenWindow: '0',
    });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('still files once and answers, the prompts, status and title dropped with a log', async () => {
    for (const method of ASSISTANT_METHODS)
      stack.double.failNext(method, failure, { status, retryAfterSec: 1, times: 20 });
    const { channel, threadTs } = await stack.driver.userOpensPane({ userId: alice });
    const words = 'I forgot my password again and I am locked out';
    await stack.driver.userPosts({ userId: alice, channelId: channel, text: words, threadTs });
    const ticketId = await eventually(
      () => stack.app.stores.links.ticketForThread(channel, threadTs),
      15_000,
      'the ticket linked to the pane’s thread',
    );
    const answer = await eventually(
      () =>
        stack.emulator.model
          .listMessages('acme', ticketId)
          .find((m) => m.author.type === 'ai_agent'),
      10_000,
      'the AI agent’s answer',
    );
    await eventually(
      () =>
        (stack.double.workspace.thread(channel, threadTs) ?? []).some(
          (m) => m.metadata?.event_payload.message_id === answer.id,
        ),
      15_000,
      'the AI answer in the pane’s thread',
    );
    expect(ticketsOf(stack, 'alice@acme.example').filter((t) => t.title === words)).toHaveLength(1);
    for (const method of ASSISTANT_METHODS)
      expect(
        stack.double.callsTo(method).some((call) => call.injected),
        method,
      ).toBe(true);
    const pane = stack.double.workspace.assistantThread(channel, threadTs);
    expect(pane?.prompts).toEqual([]);
    expect(pane?.title).toBeUndefined();
    expect(stack.logs.some((line) => line.includes('was not set: Slack did not take it'))).toBe(
      true,
    );
  });
});

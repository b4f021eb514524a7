/**
 * Redis comes back empty: every thread link, the poll schedule and the mirror's memory are
 * gone while the app runs on. A reply in a ticket's thread finds the ticket in the app's own
 * posts there, reaches the ticket, and the agents' next messages come into the thread again,
 * without the thread's history posted twice.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultIds, type SlackMessage } from '../../tools/slack-double/index.ts';
import { eventually } from '../support/eventually.ts';
import {
  modalOpenedBy,
  QUICK_PLANNER,
  type Stack,
  startStack,
  ticketsOf,
} from '../support/stack.ts';

const { alice, bob, bot, botId, itHelp } = defaultIds;
const SAM = 'sam.rivera@acme.example';

const planner = QUICK_PLANNER;

function metadataOf(post: SlackMessage): { ticket_id?: unknown; message_id?: unknown } {
  return (post.metadata?.event_payload ?? {}) as { ticket_id?: unknown; message_id?: unknown };
}

describe('Redis coming back empty', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ mirror: { planner } });
  });
  afterAll(async () => {
    await stack?.close();
  });

  const threadOf = (channel: string, ts: string) =>
    stack.double.workspace.thread(channel, ts) ?? [];
  const postsAbout = (channel: string, ts: string, itemId: string) =>
    threadOf(channel, ts).filter((m) => metadataOf(m).message_id === itemId);
  const messagesOf = (ticketId: string) => stack.emulator.model.listMessages('acme', ticketId);
  const repliesLookups = (ts: string) =>
    stack.double.callsTo('conversations.replies').filter((call) => call.args.ts === ts);
  const outboxSettled = () =>
    eventually(
      async () => (await stack.app.stores.outbox.stats()).depth === 0,
      10_000,
      'the outbox to empty',
    );

  /** Deletes every key of the app's, as a Redis restarted without its data would have it. */
  async function emptyRedis(): Promise<void> {
    const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    try {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${stack.prefix}*`, 'COUNT', 500);
        cursor = next;
        if (keys.length > 0) await redis.del(...keys);
      } while (cursor !== '0');
    } finally {
      await redis.quit();
    }
  }

  /** An agent writes on the platform; resolves once the mirror has posted it into the thread. */
  async function agentWritesAndIsMirrored(ticketId: string, channel: string, threadTs: string) {
    const reply = stack.emulator.model.addAgentReply('acme', ticketId, {
      agentEmail: SAM,
      body: `Sam here, looking at it (${Math.random()})`,
    });
    await eventually(
      () => postsAbout(channel, threadTs, reply.id).length > 0,
      15_000,
      'the agent’s message in the thread',
    );
    return reply;
  }

  /** Redis is emptied, then a person replies in the thread: the reply reaches the ticket. */
  async function replyAfterRedisEmptied(
    t: { ticketId: string; channel: string; threadTs: string },
    userId: string,
  ) {
    await emptyRedis();
    expect(await stack.app.stores.links.ticketForThread(t.channel, t.threadTs)).toBeUndefined();
    const text = `Still broken after the restart (${Math.random()})`;
    await stack.driver.userPosts({ userId, channelId: t.channel, text, threadTs: t.threadTs });
    const added = await eventually(
      () => messagesOf(t.ticketId).find((m) => m.body === text),
      10_000,
      'the reply on the ticket',
    );
    expect(await stack.app.stores.links.ticketForThread(t.channel, t.threadTs)).toBe(t.ticketId);
    return added;
  }

  it('adds a reply in a channel card’s thread to its ticket and mirrors the agents into it again, without reposting its history', async () => {
    const view = await modalOpenedBy(stack, alice, () =>
      stack.driver.slashCommand({ userId: alice, channelId: itHelp, text: '' }),
    );
    const title = `Redis emptied: the scanner on floor 2 (${Math.random()})`;
    await stack.driver.viewSubmission({
      viewId: view.id,
      userId: alice,
      values: { title_input: title },
    });
    const ticketId = await eventually(
      () => ticketsOf(stack, 'alice@acme.example').find((t) => t.title === title)?.id,
      10_000,
      'the ticket',
    );
    const card = await eventually(
      () =>
        stack.double.workspace
          .history(itHelp)
          .find((m) => m.user === bot && metadataOf(m).ticket_id === ticketId),
      10_000,
      'the card in #it-help',
    );
    const t = { ticketId, channel: itHelp, threadTs: card.ts };
    await eventually(() => stack.app.stores.links.ticketForThread(itHelp, card.ts), 5_000, 'link');
    const before = await agentWritesAndIsMirrored(ticketId, itHelp, card.ts);

    const added = await replyAfterRedisEmptied(t, bob);
    const after = await agentWritesAndIsMirrored(ticketId, itHelp, card.ts);

    expect(messagesOf(ticketId).map((m) => m.id)).toEqual(
      expect.arrayContaining([before.id, added.id, after.id]),
    );
    expect(postsAbout(itHelp, card.ts, before.id)).toHaveLength(1);
    expect(postsAbout(itHelp, card.ts, added.id)).toHaveLength(0);
  });

  it('adds a reply in a direct message’s thread to its ticket and mirrors the agents into it again, without reposting its history', async () => {
    const dm = stack.double.workspace.openIm(alice);
    const sent = await stack.driver.userPosts({
      userId: alice,
      channelId: dm,
      text: `Redis emptied: my badge stopped opening doors (${Math.random()})`,
    });
    const ticketId = await eventually(
      () => stack.app.stores.links.ticketForThread(dm, sent.ts),
      10_000,
      'the ticket linked to the DM thread',
    );
    const t = { ticketId, channel: dm, threadTs: sent.ts };
    const before = await agentWritesAndIsMirrored(ticketId, dm, sent.ts);

    const added = await replyAfterRedisEmptied(t, alice);
    const after = await agentWritesAndIsMirrored(ticketId, dm, sent.ts);

    expect(messagesOf(ticketId).map((m) => m.id)).toEqual(
      expect.arrayContaining([before.id, added.id, after.id]),
    );
    expect(postsAbout(dm, sent.ts, before.id)).toHaveLength(1);
    expect(postsAbout(dm, sent.ts, added.id)).toHaveLength(0);
  });

  it('adds a reply in the thread of a message filed with the ticket emoji, whose parent is a person’s message', async () => {
    const parent = await stack.driver.userPosts({
      userId: bob,
      channelId: itHelp,
      text: `Redis emptied: the meeting room display is blank (${Math.random()})`,
    });
    await stack.driver.userReacts({
      userId: bob,
      channelId: itHelp,
      ts: parent.ts,
      reaction: 'ticket',
    });
    const ticketId = await eventually(
      () => stack.app.stores.links.ticketForThread(itHelp, parent.ts),
      10_000,
      'the ticket linked to the message’s thread',
    );
    const t = { ticketId, channel: itHelp, threadTs: parent.ts };
    const added = await replyAfterRedisEmptied(t, alice);
    expect(added.author).toMatchObject({ email: 'alice@acme.example' });
  });

  it('answers privately, with its words, a reply in the thread of its post that names no ticket', async () => {
    // The app's own post with no ticket in it, as a greeting would be.
    const parent = stack.double.workspace.postMessage(itHelp, {
      user: bot,
      bot_id: botId,
      text: 'The service desk is here: use /ticket to ask for help',
    });
    const text = `Where is the form? <!channel> & thanks (${Math.random()})`;
    await stack.driver.userPosts({ userId: bob, channelId: itHelp, text, threadTs: parent.ts });
    const told = await eventually(
      () =>
        stack.double.workspace
          .ephemerals({ channel: itHelp, user: bob })
          .find((e) => JSON.stringify(e.blocks).includes('Where is the form?')),
      10_000,
      'the private answer',
    );
    expect(told.text).toContain('not added to any ticket');
    expect(JSON.stringify(told.blocks)).not.toContain('<!channel>');
  });

  it('looks a thread of its direct message that holds no ticket up once, however many replies it gets', async () => {
    const dm = stack.double.workspace.openIm(bob);
    // The app's own message with no ticket in it, as a notice or a greeting would be.
    const parent = stack.double.workspace.postMessage(dm, {
      user: bot,
      bot_id: botId,
      text: 'Hello from the Service Desk app',
    });
    const ticketsBefore = ticketsOf(stack, 'bob@acme.example').length;
    for (const text of ['thanks', 'nice', 'see you']) {
      await stack.driver.userPosts({ userId: bob, channelId: dm, text, threadTs: parent.ts });
    }
    await outboxSettled();
    expect(repliesLookups(parent.ts)).toHaveLength(1);
    expect(ticketsOf(stack, 'bob@acme.example')).toHaveLength(ticketsBefore);
    expect(await stack.app.stores.links.ticketForThread(dm, parent.ts)).toBeUndefined();
  });
});

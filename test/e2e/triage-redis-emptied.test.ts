/**
 * Triage once Redis came back empty, over the real app, the emulator (webhooks on, new tickets
 * announced), the Slack double and Redis: an agent makes the private #it-agents the IT desk's
 * triage channel with `/ticket triage it`, a ticket gets its card there, and then every key of
 * the app's is deleted while it runs. The agents' words in the card's thread still reach the
 * ticket as internal notes, and new tickets still get their cards.
 */
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultIds } from '../../tools/slack-double/index.ts';
import { eventually } from '../support/eventually.ts';
import { deleteKeys, REDIS_URL } from '../support/redis.ts';
import { QUICK_PLANNER, ROUTED_DESK, type Stack, startStack } from '../support/stack.ts';

const { agent, agentsPrivate } = defaultIds;
const SECRET = 'whsec-e2e-triage-emptied-0123456789';

describe('triage after Redis came back empty', () => {
  let stack: Stack;
  afterEach(async () => {
    await stack?.close();
  });

  /** The app with #it-agents set as the IT desk's triage channel by an agent's command. */
  async function start() {
    stack = await startStack({ webhookSecret: SECRET, mirror: { planner: QUICK_PLANNER } });
    stack.emulator.setWebhooks({ announceCreated: true });
    const sent = await stack.driver.slashCommand({
      userId: agent,
      channelId: agentsPrivate,
      text: `triage ${ROUTED_DESK}`,
    });
    const answer = await stack.double.waitForResponseUrlPost(
      (p) => p.url === sent.responseUrl,
      5_000,
    );
    expect(JSON.stringify(answer.body)).toContain('now triages');
    // The feed marks when it first saw the channel; tickets before that get no card.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
  }

  /** Deletes every key of the app's, as a Redis restarted without its data would have it. */
  async function emptyRedis(): Promise<void> {
    const redis = new Redis(REDIS_URL);
    try {
      await deleteKeys(redis, stack.prefix);
    } finally {
      await redis.quit();
    }
  }

  const cardsOf = (ticketId: string) =>
    stack.double.workspace
      .messages(agentsPrivate)
      .filter(
        (m) =>
          m.metadata?.event_type === 'triage_card' &&
          m.metadata.event_payload?.ticket_id === ticketId,
      );

  async function newTicketsCard(title: string) {
    const ticket = stack.emulator.model.createTicket('acme', {
      title,
      desk_id: ROUTED_DESK,
      requester_email: 'bob@acme.example',
      channel: 'portal',
    });
    const card = await eventually(
      () => cardsOf(ticket.id)[0],
      15_000,
      `the triage card of ${ticket.id}`,
    );
    return { ticketId: ticket.id, card };
  }

  const messagesOf = (ticketId: string) => stack.emulator.model.listMessages('acme', ticketId);

  it('adds an agent’s reply in the card’s thread, and its edit, to the ticket as internal notes', async () => {
    await start();
    const { ticketId, card } = await newTicketsCard('Emptied: the label printer jams');
    await emptyRedis();

    const reply = await stack.driver.userPosts({
      userId: agent,
      channelId: agentsPrivate,
      threadTs: card.ts,
      text: 'Rollers are worn, ordering new ones',
    });
    const note = await eventually(
      () => messagesOf(ticketId).find((m) => m.body === 'Rollers are worn, ordering new ones'),
      10_000,
      'the internal note',
    );
    expect(note.internal).toBe(true);
    expect(note.author.email).toBe('sam.rivera@acme.example');

    await stack.driver.userEdits({
      userId: agent,
      channelId: agentsPrivate,
      ts: reply.ts,
      text: 'Rollers are worn, new ones arrive Monday',
    });
    const edited = await eventually(
      () =>
        messagesOf(ticketId).find(
          (m) => m.body === 'edited: Rollers are worn, new ones arrive Monday',
        ),
      10_000,
      'the edit as an internal note',
    );
    expect(edited.internal).toBe(true);
  });

  it('posts the card of a new ticket in the channel set by the command', async () => {
    await start();
    await newTicketsCard('Emptied: before, the dock has no power');
    await emptyRedis();

    await eventually(
      async () => (await stack.app.stores.triageChannels.channelFor(ROUTED_DESK)) === agentsPrivate,
      10_000,
      'the triage channel found again',
    );
    // The feed reads the channels again every 2 s.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const { card } = await newTicketsCard('Emptied: after, the dock still has no power');
    expect(card.user).toBe(defaultIds.bot);
  });

  it('brings back no channel whose triage was ended with /ticket triage off', async () => {
    await start();
    expect(stack.double.workspace.pinned(agentsPrivate)).toHaveLength(1);
    await stack.driver.slashCommand({
      userId: agent,
      channelId: agentsPrivate,
      text: 'triage off',
    });
    await eventually(
      () => stack.double.workspace.pinned(agentsPrivate).length === 0,
      5_000,
      'the record unpinned',
    );
    await emptyRedis();
    // Read back: the store holds its sentinel again, and nothing else of triage.
    await eventually(
      async () => (await stack.app.stores.claims.get('triage-channels-kept'))?.state === 'done',
      10_000,
      'the triage channels read back',
    );
    expect(await stack.app.stores.triageChannels.all()).toEqual([]);
  });
});

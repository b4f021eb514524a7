/** Reactions on triage cards: what is queued for an agent, and what is left alone. */
import { describe, expect, it } from 'vitest';
import type { TriageReactionAction } from '../../../../src/config.ts';
import { buildTriageCard } from '../../../../src/slack/builders/triage-card-builder.ts';
import { updateTicket } from '../../../../src/slack/intents/update-ticket.ts';
import { triageReaction } from '../../../../src/slack/listeners/events/triage-reaction.ts';
import { triageCardMetadata } from '../../../../src/slack/posting/post-metadata.ts';
import { TriageThreadFinder } from '../../../../src/slack/threads/triage-threads.ts';
import { createMemoryStores } from '../../../../src/store/index.ts';
import { collectedTasks, fakeClient, fakeDeps } from '../../support/fake-deps.ts';

const APP = 'U0BOT';
const TRIAGE = 'G0AGENTS';
const CARD_TS = '100.1';
const REACTIONS = new Map<string, TriageReactionAction>([
  ['eyes', 'assign'],
  ['white_check_mark', 'resolve'],
  ['arrow_up_small', 'raise'],
]);

const card = {
  ts: CARD_TS,
  user: APP,
  ...buildTriageCard(
    {
      id: 'IT-7',
      title: 'VPN drops',
      status: 'new',
      priority: 'medium',
      created_at: '2026-11-20T09:30:00Z',
      requester_email: 'alice@acme.example',
      assignee_email: null,
    },
    { requester: { userId: 'U0ALICE' } },
  ),
  metadata: triageCardMetadata('IT-7'),
};

function setup(options: { agent?: boolean } = {}) {
  const stores = createMemoryStores();
  const slackCalls: string[] = [];
  const client = fakeClient({
    conversations: {
      replies: async () => {
        slackCalls.push('conversations.replies');
        return { ok: true, messages: [card] };
      },
    },
    chat: {
      postEphemeral: async () => {
        slackCalls.push('chat.postEphemeral');
        return { ok: true };
      },
    },
  });
  const triageThreads = new TriageThreadFinder({ client, stores });
  const { tasks, running } = collectedTasks();
  const deps = fakeDeps({
    client,
    people: { isAgent: async () => options.agent ?? true },
    settings: { triageReactions: REACTIONS },
    stores,
    tasks,
    triageThreads,
  });
  const listener = triageReaction(deps);
  // The listener answers Slack first; what it does after is awaited here.
  const handle = async (given: never) => {
    await listener(given);
    await Promise.all(running);
  };
  return { stores, slackCalls, handle };
}

const args = (reaction: string, over: Record<string, unknown> = {}) =>
  ({
    event: {
      type: 'reaction_added',
      user: 'U0AGENT',
      reaction,
      item: { type: 'message', channel: TRIAGE, ts: CARD_TS },
      item_user: APP,
      event_ts: '100.9',
      ...over,
    },
    body: { api_app_id: 'A1', team_id: 'T1', event_id: `Ev-${reaction}` },
    context: { botUserId: APP },
  }) as never;

describe('a reaction on a triage card', () => {
  it('by an agent queues the change its emoji stands for, keyed by the event, with the card to refresh', async () => {
    const { stores, handle } = setup();
    await handle(args('eyes'));
    const entry = await stores.outbox.reserve('w', 60_000);
    expect(entry).toMatchObject({
      kind: updateTicket.kind,
      deliveryKey: 'event:A1:T1:Ev-eyes',
      payload: {
        ticketId: 'IT-7',
        actorUserId: 'U0AGENT',
        request: { kind: 'assign_to_me' },
        card: { kind: 'triage', channel: TRIAGE, ts: CARD_TS, requesterUserId: 'U0ALICE' },
      },
    });
  });

  it('with a skin tone is the same emoji', async () => {
    const { stores, handle } = setup();
    await handle(args('white_check_mark::skin-tone-3'));
    const entry = await stores.outbox.reserve('w', 60_000);
    expect(entry?.payload).toMatchObject({ request: { kind: 'fields', status: 'resolved' } });
  });

  it('with an emoji the map does not name does nothing', async () => {
    const { stores, slackCalls, handle } = setup();
    await handle(args('tada'));
    expect(await stores.outbox.reserve('w', 60_000)).toBeUndefined();
    expect(slackCalls).toEqual([]);
  });

  it('by someone who is not an agent queues nothing and tells them privately', async () => {
    const { stores, slackCalls, handle } = setup({ agent: false });
    await handle(args('arrow_up_small'));
    expect(await stores.outbox.reserve('w', 60_000)).toBeUndefined();
    expect(slackCalls).toContain('chat.postEphemeral');
  });
});

describe('a reaction on another message', () => {
  it('someone else wrote is left alone without asking Slack', async () => {
    const { stores, slackCalls, handle } = setup();
    await handle(args('eyes', { item_user: 'U0AGENT' }));
    expect(await stores.outbox.reserve('w', 60_000)).toBeUndefined();
    expect(slackCalls).toEqual([]);
  });

  it('the app wrote that is no triage card is left alone', async () => {
    const { stores, handle } = setup();
    await stores.links.link('IT-7', { channel: TRIAGE, threadTs: '100.5' });
    await handle(args('eyes', { item: { type: 'message', channel: TRIAGE, ts: '100.5' } }));
    expect(await stores.outbox.reserve('w', 60_000)).toBeUndefined();
  });
});

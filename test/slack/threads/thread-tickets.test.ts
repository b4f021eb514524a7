import type { ConversationsRepliesArguments } from '@slack/web-api';
import { describe, expect, it } from 'vitest';
import { ThreadTicketFinder } from '../../../src/slack/threads/thread-tickets.ts';
import { fakeClient } from '../support/fake-deps.ts';

const APP = 'U0BOT';
const THREAD = { channel: 'D1', threadTs: '100.1' };

type Message = { user?: string; metadata?: unknown; text?: string };

const ticketPost = (ticketId: string, extra: Record<string, unknown> = {}): Message => ({
  user: APP,
  metadata: { event_type: 'servicedesk_ticket', event_payload: { ticket_id: ticketId, ...extra } },
});

/** A Slack client whose thread holds `pages` of messages; counts its lookups. */
function slackWith(pages: Message[][] | (() => never)) {
  const calls: ConversationsRepliesArguments[] = [];
  const client = fakeClient({
    conversations: {
      async replies(args) {
        calls.push(args);
        if (typeof pages === 'function') return pages();
        const index = args.cursor ? Number(args.cursor) : 0;
        const next = index + 1 < pages.length ? String(index + 1) : '';
        return { ok: true, messages: pages[index], response_metadata: { next_cursor: next } };
      },
    },
  });
  return { client, calls };
}

function slackError(code: string): () => never {
  return () => {
    throw Object.assign(new Error(code), { data: { ok: false, error: code } });
  };
}

describe('finding the ticket of a thread from the app’s posts', () => {
  it('names the ticket of the app’s post in the thread, asking Slack for the metadata', async () => {
    const slack = slackWith([[{ user: 'U1', text: 'help' }, ticketPost('IT-7')]]);
    const finder = new ThreadTicketFinder({ client: slack.client });
    expect(await finder.ticketOf(THREAD, APP)).toBe('IT-7');
    expect(slack.calls[0]).toMatchObject({
      channel: 'D1',
      ts: '100.1',
      include_all_metadata: true,
    });
  });

  it('names the ticket of the latest such post, on whichever page it is', async () => {
    const slack = slackWith([
      [ticketPost('IT-7'), ticketPost('IT-7', { message_id: 'm1' })],
      [{ user: 'U1', text: 'this is still broken' }, ticketPost('IT-9')],
    ]);
    const finder = new ThreadTicketFinder({ client: slack.client });
    expect(await finder.ticketOf(THREAD, APP)).toBe('IT-9');
  });

  it('ignores ticket metadata on another app’s post', async () => {
    const slack = slackWith([[{ ...ticketPost('IT-7'), user: 'U0OTHERBOT' }]]);
    const finder = new ThreadTicketFinder({ client: slack.client });
    expect(await finder.ticketOf(THREAD, APP)).toBeUndefined();
  });

  it('ignores metadata whose ticket is no ticket ID', async () => {
    const slack = slackWith([[ticketPost('<!channel>')]]);
    const finder = new ThreadTicketFinder({ client: slack.client });
    expect(await finder.ticketOf(THREAD, APP)).toBeUndefined();
  });

  it('asks Slack once about a thread without a ticket while that is remembered', async () => {
    let now = 0;
    const slack = slackWith([[{ user: APP, text: 'Hello' }]]);
    const finder = new ThreadTicketFinder({
      client: slack.client,
      missTtlMs: 1_000,
      now: () => now,
    });
    await finder.ticketOf(THREAD, APP);
    now = 999;
    expect(await finder.ticketOf(THREAD, APP)).toBeUndefined();
    expect(slack.calls).toHaveLength(1);
  });

  it('says the app posted in a thread without a ticket, the second time from memory', async () => {
    const slack = slackWith([
      [
        { user: APP, text: 'Hello' },
        { user: 'U1', text: 'hi' },
      ],
    ]);
    const finder = new ThreadTicketFinder({ client: slack.client });
    expect(await finder.lookup(THREAD, APP)).toEqual({ ticketId: undefined, appPosted: true });
    expect(await finder.lookup(THREAD, APP)).toEqual({ ticketId: undefined, appPosted: true });
    expect(slack.calls).toHaveLength(1);
  });

  it('says the app did not post in a thread of people only', async () => {
    const slack = slackWith([
      [
        { user: 'U1', text: 'lunch?' },
        { user: 'U2', text: 'yes' },
      ],
    ]);
    const finder = new ThreadTicketFinder({ client: slack.client });
    expect(await finder.lookup(THREAD, APP)).toEqual({ ticketId: undefined, appPosted: false });
  });

  it('asks again once the memory of a thread without a ticket lapses', async () => {
    let now = 0;
    const slack = slackWith([[{ user: APP, text: 'Hello' }]]);
    const finder = new ThreadTicketFinder({
      client: slack.client,
      missTtlMs: 1_000,
      now: () => now,
    });
    await finder.ticketOf(THREAD, APP);
    now = 1_000;
    await finder.ticketOf(THREAD, APP);
    expect(slack.calls).toHaveLength(2);
  });

  it('forgets the oldest threads without a ticket first when it holds too many', async () => {
    const slack = slackWith([[{ user: APP, text: 'Hello' }]]);
    const finder = new ThreadTicketFinder({ client: slack.client, maxMisses: 1 });
    await finder.ticketOf(THREAD, APP);
    await finder.ticketOf({ channel: 'D1', threadTs: '200.2' }, APP);
    await finder.ticketOf(THREAD, APP);
    expect(slack.calls.map((call) => call.ts)).toEqual(['100.1', '200.2', '100.1']);
  });

  it('shares one lookup among replies in one thread that come together', async () => {
    const slack = slackWith([[ticketPost('IT-7')]]);
    const finder = new ThreadTicketFinder({ client: slack.client });
    const found = await Promise.all([1, 2, 3].map(() => finder.ticketOf(THREAD, APP)));
    expect(found).toEqual(['IT-7', 'IT-7', 'IT-7']);
    expect(slack.calls).toHaveLength(1);
  });

  it('takes a thread the app cannot read for one without a ticket', async () => {
    const slack = slackWith(slackError('channel_not_found'));
    const finder = new ThreadTicketFinder({ client: slack.client });
    expect(await finder.ticketOf(THREAD, APP)).toBeUndefined();
    await finder.ticketOf(THREAD, APP);
    expect(slack.calls).toHaveLength(1);
  });

  it('passes any other Slack failure on, and asks again next time', async () => {
    const slack = slackWith(slackError('ratelimited'));
    const finder = new ThreadTicketFinder({ client: slack.client });
    await expect(finder.ticketOf(THREAD, APP)).rejects.toThrow('ratelimited');
    await expect(finder.ticketOf(THREAD, APP)).rejects.toThrow('ratelimited');
    expect(slack.calls).toHaveLength(2);
  });
});

describe('a triage card’s thread', () => {
  it('is never named a requester’s thread, though the mirror’s posts in it name the ticket', async () => {
    const card = {
      ts: THREAD.threadTs,
      user: APP,
      metadata: { event_type: 'triage_card', event_payload: { ticket_id: 'IT-7', triage: true } },
    };
    const slack = slackWith([[card, ticketPost('IT-7', { message_id: 'm1' })]]);
    const finder = new ThreadTicketFinder({ client: slack.client });
    expect(await finder.ticketOf(THREAD, APP)).toBeUndefined();
  });
});

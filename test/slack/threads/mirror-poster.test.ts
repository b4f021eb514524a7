import { WebClient } from '@slack/web-api';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Message, Ticket } from '../../../src/contract/schemas.ts';
import { PostDeferredError } from '../../../src/mirror/errors.ts';
import { createBackgroundClient } from '../../../src/slack/app/slack-clients.ts';
import { buildTicketCard } from '../../../src/slack/builders/ticket-card-builder.ts';
import { CardUpdater } from '../../../src/slack/cards/card-updater.ts';
import { SlackMirrorPoster } from '../../../src/slack/threads/mirror-poster.ts';
import {
  defaultIds,
  type SlackDouble,
  startSlackDouble,
} from '../../../tools/slack-double/index.ts';

const ids = defaultIds;

const answer: Message = {
  id: 'msg_9',
  ticket_id: 'IT-12',
  body: 'Restart the dock.',
  created_at: '2026-11-20T09:30:00Z',
  internal: false,
  author: { type: 'ai_agent', name: 'AI Agent', email: null },
  sources: [{ title: 'Docks', url: 'https://kb.acme.example/docks' }],
};

describe('Slack mirror poster', () => {
  let double: SlackDouble;
  let poster: SlackMirrorPoster;
  let client: WebClient;
  let cards: CardUpdater;
  let statuses: [string, string][];
  let thread: { channel: string; threadTs: string };

  beforeEach(async () => {
    double = await startSlackDouble();
    client = new WebClient(ids.botToken, {
      slackApiUrl: double.apiUrl,
      retryConfig: { retries: 0 },
    });
    cards = new CardUpdater({
      client: new WebClient(ids.botToken, {
        slackApiUrl: double.apiUrl,
        rejectRateLimitedCalls: true,
        retryConfig: { retries: 0 },
      }),
      logger: { debug() {}, info() {}, warn() {} },
      coalesceMs: 0,
    });
    statuses = [];
    poster = new SlackMirrorPoster({
      client,
      cards,
      onStatus: (ticketId, status) => void statuses.push([ticketId, status]),
    });
    const parent = double.workspace.postMessage(ids.itHelp, {
      user: ids.alice,
      text: 'Dock broken',
    });
    thread = { channel: ids.itHelp, threadTs: parent.ts };
  });

  afterEach(async () => {
    await cards.stop();
    await double.close();
  });

  it('posts a ticket message in the thread with metadata naming the ticket and the message', async () => {
    expect(await poster.postMessage(thread, 'IT-12', answer)).toBe('posted');
    const reply = double.workspace.thread(thread.channel, thread.threadTs)?.at(-1);
    expect(reply).toMatchObject({
      thread_ts: thread.threadTs,
      text: 'AI Agent (AI): Restart the dock.',
      metadata: {
        event_type: 'servicedesk_ticket',
        event_payload: { ticket_id: 'IT-12', message_id: 'msg_9' },
      },
    });
  });

  it('asks the mirror to come back after Slack’s Retry-After instead of waiting it out', async () => {
    const limited = new SlackMirrorPoster({
      client: createBackgroundClient(ids.botToken, pino({ level: 'silent' }), double.apiUrl),
      cards,
    });
    double.failNext('chat.postMessage', 'ratelimited', { retryAfterSec: 75 });
    const started = Date.now();
    const error = await limited.postMessage(thread, 'IT-12', answer).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PostDeferredError);
    expect((error as PostDeferredError).retryAt).toBeGreaterThanOrEqual(started + 75_000);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(double.workspace.thread(thread.channel, thread.threadTs)).toHaveLength(1);
  });

  it('posts each part of a long message on its own, numbered, with metadata naming the part', async () => {
    const long = { ...answer, id: 'msg_long', body: 'word '.repeat(4_600) };
    const count = poster.messageParts('IT-12', long);
    expect(count).toBe(3);
    for (let part = 0; part < count; part++) {
      expect(await poster.postMessage(thread, 'IT-12', long, part)).toBe('posted');
    }
    const replies = double.workspace.thread(thread.channel, thread.threadTs)?.slice(1) ?? [];
    expect(replies.map((reply) => reply.metadata?.event_payload)).toEqual(
      [1, 2, 3].map((part) => ({
        ticket_id: 'IT-12',
        message_id: 'msg_long',
        part,
        parts: 3,
      })),
    );
    expect(replies.map((reply) => reply.text.slice(0, 20))).toEqual([
      'AI Agent (AI) (1/3):',
      'AI Agent (AI) (2/3):',
      'AI Agent (AI) (3/3):',
    ]);
  });

  it('asks the mirror to come back after Slack’s Retry-After when a later part is limited', async () => {
    const limited = new SlackMirrorPoster({
      client: createBackgroundClient(ids.botToken, pino({ level: 'silent' }), double.apiUrl),
      cards,
    });
    const long = { ...answer, id: 'msg_long', body: 'word '.repeat(4_600) };
    expect(await limited.postMessage(thread, 'IT-12', long, 0)).toBe('posted');
    double.failNext('chat.postMessage', 'ratelimited', { retryAfterSec: 30 });
    const error = await limited.postMessage(thread, 'IT-12', long, 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PostDeferredError);
    expect(double.workspace.thread(thread.channel, thread.threadTs)).toHaveLength(2);
  });

  it('finds an earlier part of a long message in the thread, and not the parts not yet posted', async () => {
    const long = { ...answer, id: 'msg_long', body: 'word '.repeat(4_600) };
    await poster.postMessage(thread, 'IT-12', long, 0);
    expect(await poster.findPosted(thread, 'IT-12', 'msg_long', 0)).toBe(true);
    expect(await poster.findPosted(thread, 'IT-12', 'msg_long', 1)).toBe(false);
    expect(await poster.findPosted(thread, 'IT-12', 'msg_long')).toBe(false);
  });

  it('posts a message too long for ten parts cut in its last, saying so, with a link to its ticket’s page', async () => {
    const linking = new SlackMirrorPoster({
      client,
      cards,
      dashboardUrl: 'https://desk.acme.example/',
    });
    const long = { ...answer, id: 'msg_long', body: 'word '.repeat(25_000) };
    const count = linking.messageParts('IT-12', long);
    expect(count).toBe(10);
    expect(await linking.postMessage(thread, 'IT-12', long, count - 1)).toBe('posted');
    const reply = double.workspace.thread(thread.channel, thread.threadTs)?.at(-1);
    const cut = JSON.stringify(reply?.blocks ?? []);
    expect(cut).toContain('longer than Slack posts can hold');
    expect(cut).toContain('<https://desk.acme.example/tickets/IT-12|');
  });

  it('reports a thread the app can no longer post in as gone', async () => {
    const gone = { channel: ids.general, threadTs: '1700000000.000100' };
    expect(await poster.postMessage(gone, 'IT-12', answer)).toBe('gone');
  });

  it('posts a change as one line and passes the status on', async () => {
    const outcome = await poster.postChange(thread, {
      ticketId: 'IT-12',
      activity: {
        id: 'act_4',
        ticket_id: 'IT-12',
        type: 'status_changed',
        from: 'open',
        to: 'resolved',
        actor: 'ai_agent',
        created_at: '2026-11-20T09:31:00Z',
      },
    });
    expect(outcome).toBe('posted');
    const reply = double.workspace.thread(thread.channel, thread.threadTs)?.at(-1);
    expect(reply?.text).toContain('Resolved');
    expect(reply?.metadata?.event_payload).toEqual({ ticket_id: 'IT-12', message_id: 'act_4' });
    expect(statuses).toEqual([['IT-12', 'resolved']]);
  });

  const statusChange = (id: string, actor: string) => ({
    ticketId: 'IT-12',
    activity: {
      id,
      ticket_id: 'IT-12',
      type: 'status_changed',
      from: 'open',
      to: 'waiting_on_requester',
      actor,
      created_at: '2026-11-20T09:31:00Z',
    },
  });
  const lastReply = () => double.workspace.thread(thread.channel, thread.threadTs)?.at(-1);

  it('names the person who made a change as Slack names them, not by their email', async () => {
    await poster.postChange(thread, statusChange('act_5', 'Sam.Rivera@acme.example'));
    expect(lastReply()?.text).toMatch(/ by Sam Rivera$/);
    expect(lastReply()?.text).not.toContain('@acme.example');
  });

  it('names a person Slack does not know by their email', async () => {
    await poster.postChange(thread, statusChange('act_5', 'contractor@elsewhere.example'));
    expect(lastReply()?.text).toMatch(/ by contractor@elsewhere\.example$/);
  });

  it('asks Slack for a person’s name once for the many changes they make', async () => {
    await poster.postChange(thread, statusChange('act_5', 'sam.rivera@acme.example'));
    await poster.postChange(thread, statusChange('act_6', 'sam.rivera@acme.example'));
    await poster.postChange(thread, statusChange('act_7', 'nobody@elsewhere.example'));
    await poster.postChange(thread, statusChange('act_8', 'nobody@elsewhere.example'));
    expect(double.callsTo('users.lookupByEmail')).toHaveLength(2);
  });

  it('finds an earlier post of an item in the thread, and no other', async () => {
    await poster.postMessage(thread, 'IT-12', answer);
    expect(await poster.findPosted(thread, 'IT-12', 'msg_9')).toBe(true);
    expect(await poster.findPosted(thread, 'IT-12', 'msg_10')).toBe(false);
    expect(await poster.findPosted(thread, 'IT-13', 'msg_9')).toBe(false);
  });

  const resolvedTicket: Ticket = {
    id: 'IT-12',
    title: 'Dock broken',
    status: 'resolved',
    priority: 'medium',
    created_at: '2026-11-20T09:00:00Z',
    updated_at: '2026-11-20T09:40:00Z',
  };

  /** Posts the app's card of IT-12, still New, as the parent of a thread. */
  async function postCard() {
    const posted = await client.chat.postMessage({
      channel: ids.itHelp,
      ...buildTicketCard({ ...resolvedTicket, status: 'new' }),
      metadata: { event_type: 'servicedesk_ticket', event_payload: { ticket_id: 'IT-12' } },
    });
    return { channel: ids.itHelp, threadTs: posted.ts as string };
  }

  it('has the card in the thread show the ticket as it is now', async () => {
    const cardThread = await postCard();
    await poster.refreshCard(cardThread, resolvedTicket);
    await cards.idle();
    const card = double.workspace.message(ids.itHelp, cardThread.threadTs);
    expect(card?.text).toBe('IT-12: Dock broken (resolved)');
  });

  it('asks for a card refresh without waiting on Slack, so a rate-limited update holds no post back', async () => {
    const cardThread = await postCard();
    double.failNext('chat.update', 'ratelimited', { retryAfterSec: 30 });
    await poster.refreshCard(cardThread, resolvedTicket);
    await vi.waitFor(() => expect(double.callsTo('chat.update')).toHaveLength(1));
    expect(await poster.postMessage(cardThread, 'IT-12', answer)).toBe('posted');
    expect(double.workspace.message(ids.itHelp, cardThread.threadTs)?.text).toContain('(new)');
  });

  it('passes the status of a ticket the mirror read on, once a look, not once a thread', async () => {
    await poster.ticketRead(resolvedTicket);
    await poster.refreshCard(await postCard(), resolvedTicket);
    expect(statuses).toEqual([['IT-12', 'resolved']]);
  });

  it('tells the requester directly, found by email, with metadata', async () => {
    const outcome = await poster.notifyRequester({
      ticketId: 'IT-12',
      activityId: 'act_4',
      status: 'resolved',
      requesterEmail: 'alice@acme.example',
      ticket: { id: 'IT-12', title: 'Dock broken' },
    });
    expect(outcome).toBe('posted');
    const dm = double.workspace.openIm(ids.alice);
    const notice = double.workspace.history(dm).at(-1);
    expect(notice?.text).toContain('*IT-12* · Dock broken was resolved');
    expect(notice?.metadata?.event_payload).toEqual({ ticket_id: 'IT-12', message_id: 'act_4' });
  });

  it('reports a requester Slack does not know as gone', async () => {
    const outcome = await poster.notifyRequester({
      ticketId: 'IT-12',
      activityId: 'act_4',
      status: 'closed',
      requesterEmail: 'nobody@elsewhere.example',
      ticket: undefined,
    });
    expect(outcome).toBe('gone');
  });
});

import { WebClient } from '@slack/web-api';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Message, Ticket } from '../../../src/contract/schemas.ts';
import { PostDeferredError } from '../../../src/mirror/errors.ts';
import { createBackgroundClient } from '../../../src/slack/app/slack-clients.ts';
import { CardUpdater } from '../../../src/slack/cards/card-updater.ts';
import { SlackMirrorPoster } from '../../../src/slack/threads/mirror-poster.ts';
import {
  defaultIds,
  type SlackDouble,
  startSlackDouble,
} from '../../../tools/slack-double/index.ts';
import { ticketWith } from '../../support/ticket-fixture.ts';

const ids = defaultIds;

const ticket: Ticket = ticketWith({
  id: 'IT-40',
  title: 'Printer on fire',
  priority: 'high',
  description: 'Smoke from tray 2',
});

describe('Slack mirror poster: triage cards', () => {
  let double: SlackDouble;
  let poster: SlackMirrorPoster;
  let limited: SlackMirrorPoster;
  let cards: CardUpdater;

  beforeEach(async () => {
    double = await startSlackDouble();
    cards = new CardUpdater({
      client: new WebClient(ids.botToken, {
        slackApiUrl: double.apiUrl,
        rejectRateLimitedCalls: true,
        retryConfig: { retries: 0 },
      }),
      logger: { debug() {}, info() {}, warn() {} },
      coalesceMs: 0,
      spacingMs: 0,
    });
    poster = new SlackMirrorPoster({
      client: new WebClient(ids.botToken, {
        slackApiUrl: double.apiUrl,
        retryConfig: { retries: 0 },
      }),
      cards,
    });
    limited = new SlackMirrorPoster({
      client: createBackgroundClient(ids.botToken, pino({ level: 'silent' }), double.apiUrl),
      cards,
    });
  });

  afterEach(async () => {
    await cards.stop();
    await double.close();
  });

  it('posts the card in the triage channel with the requester’s mention and metadata marking it triage', async () => {
    const posted = await poster.postTriageCard(ids.agentsPrivate, ticket);
    if (posted === 'gone') throw new Error('posted expected');
    const card = double.workspace.message(ids.agentsPrivate, posted.ts);
    expect(card?.metadata).toEqual({
      event_type: 'triage_card',
      event_payload: { ticket_id: 'IT-40', triage: true },
    });
    expect(JSON.stringify(card?.blocks)).toContain(`<@${ids.alice}>`);
    expect(await poster.findTriageCard(ids.agentsPrivate, ticket)).toBe(posted.ts);
  });

  it('links the card to the channel message a ticket was filed from', async () => {
    const parent = double.workspace.postMessage(ids.itHelp, { user: ids.alice, text: 'Fire' });
    const posted = await poster.postTriageCard(ids.agentsPrivate, ticket, {
      channel: ids.itHelp,
      threadTs: parent.ts,
    });
    if (posted === 'gone') throw new Error('posted expected');
    const card = double.workspace.message(ids.agentsPrivate, posted.ts);
    const link = double.workspace.permalink(ids.itHelp, parent.ts);
    expect(JSON.stringify(card?.blocks)).toContain(`<${link}|Slack message>`);
  });

  it('finds no card for a ticket whose card was never posted', async () => {
    await poster.postTriageCard(ids.agentsPrivate, ticket);
    expect(await poster.findTriageCard(ids.agentsPrivate, { ...ticket, id: 'IT-41' })).toBe(
      undefined,
    );
  });

  it('asks to come back after Slack’s Retry-After when the card is rate limited, posting nothing', async () => {
    double.failNext('chat.postMessage', 'ratelimited', { retryAfterSec: 30 });
    const started = Date.now();
    const error = await limited.postTriageCard(ids.agentsPrivate, ticket).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PostDeferredError);
    expect((error as PostDeferredError).retryAt).toBeGreaterThanOrEqual(started + 30_000);
    expect(double.workspace.messages(ids.agentsPrivate)).toHaveLength(0);
  });

  it('throws Slack’s failure for the feed to retry', async () => {
    double.failNext('chat.postMessage', 'internal_error');
    const error = await poster.postTriageCard(ids.agentsPrivate, ticket).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(PostDeferredError);
    expect((error as { data?: { error?: string } }).data?.error).toBe('internal_error');
  });

  it('answers gone for a channel the app was removed from', async () => {
    double.failNext('chat.postMessage', 'not_in_channel');
    expect(await poster.postTriageCard(ids.agentsPrivate, ticket)).toBe('gone');
  });

  it('marks an internal note as one in the triage thread', async () => {
    const posted = await poster.postTriageCard(ids.agentsPrivate, ticket);
    if (posted === 'gone') throw new Error('posted expected');
    const thread = { channel: ids.agentsPrivate, threadTs: posted.ts, triage: true };
    const note: Message = {
      id: 'msg_note',
      ticket_id: 'IT-40',
      body: 'Fuser is on back order',
      created_at: new Date().toISOString(),
      internal: true,
      author: { type: 'agent', name: 'Sam Rivera', email: 'sam.rivera@acme.example' },
      sources: [],
    };
    expect(await poster.postMessage(thread, 'IT-40', note)).toBe('posted');
    const reply = double.workspace.thread(thread.channel, thread.threadTs)?.at(-1);
    expect(reply?.text).toBe('Sam Rivera (internal note): Fuser is on back order');
    expect(JSON.stringify(reply?.blocks)).toContain('Internal note');
    expect(reply?.metadata?.event_payload).toEqual({ ticket_id: 'IT-40', message_id: 'msg_note' });
  });

  it('offers no Talk to a person on an AI answer in the triage thread', async () => {
    const posted = await poster.postTriageCard(ids.agentsPrivate, ticket);
    if (posted === 'gone') throw new Error('posted expected');
    const thread = { channel: ids.agentsPrivate, threadTs: posted.ts, triage: true };
    const answer: Message = {
      id: 'msg_ai',
      ticket_id: 'IT-40',
      body: 'Open tray 2 and remove the jam.',
      created_at: new Date().toISOString(),
      internal: false,
      author: { type: 'ai_agent', name: 'AI Agent', email: null },
      sources: [{ title: 'Printers', url: 'https://kb.acme.example/printers' }],
    };
    expect(await poster.postMessage(thread, 'IT-40', answer)).toBe('posted');
    const reply = double.workspace.thread(thread.channel, thread.threadTs)?.at(-1);
    const blocks = reply?.blocks as { type: string }[];
    expect(JSON.stringify(blocks)).toContain('kb.acme.example/printers');
    expect(blocks.some((block) => block.type === 'actions')).toBe(false);
  });

  it('refreshes the triage card as a triage card when the ticket changes, keeping the mention', async () => {
    const posted = await poster.postTriageCard(ids.agentsPrivate, ticket);
    if (posted === 'gone') throw new Error('posted expected');
    const assigned = {
      ...ticket,
      assignee_email: 'sam.rivera@acme.example',
      updated_at: new Date().toISOString(),
    };
    await poster.refreshCard(
      { channel: ids.agentsPrivate, threadTs: posted.ts, triage: true },
      assigned,
    );
    await cards.idle();
    const card = double.workspace.message(ids.agentsPrivate, posted.ts);
    const shown = JSON.stringify(card?.blocks);
    expect(shown).toContain('sam.rivera@acme.example');
    expect(shown).toContain(`<@${ids.alice}>`);
    expect(card?.metadata?.event_type).toBe('triage_card');
  });
});

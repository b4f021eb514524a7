/**
 * The mirror's Slack side posts into a triage channel only when Slack says it is private: against
 * the Slack double, with the app's own privacy check and the background client.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Message, Ticket } from '../../../src/contract/schemas.ts';
import { PostDeferredError } from '../../../src/mirror/errors.ts';
import { createBackgroundClient } from '../../../src/slack/app/slack-clients.ts';
import { CardUpdater } from '../../../src/slack/cards/card-updater.ts';
import { SlackMirrorPoster } from '../../../src/slack/threads/mirror-poster.ts';
import { TriageChannelPrivacy } from '../../../src/slack/triage/channel-privacy.ts';
import {
  defaultIds,
  type SlackDouble,
  startSlackDouble,
} from '../../../tools/slack-double/index.ts';
import { ticketWith } from '../../support/ticket-fixture.ts';
import { eventually, type LoggedLine, silentLogger, warningsLogger } from '../support/fake-deps.ts';

const ids = defaultIds;

const ticket: Ticket = ticketWith({
  id: 'IT-50',
  title: 'Laptop will not boot',
  priority: 'high',
  description: 'Black screen',
});

const note: Message = {
  id: 'msg_secret',
  ticket_id: 'IT-50',
  body: 'The disk is failing; replace it',
  created_at: new Date().toISOString(),
  internal: true,
  author: { type: 'agent', name: 'Sam Rivera', email: 'sam.rivera@acme.example' },
  sources: [],
};

describe('Slack mirror poster: only private triage channels', () => {
  let double: SlackDouble;
  let poster: SlackMirrorPoster;
  let cards: CardUpdater;
  let logged: LoggedLine[];

  beforeEach(async () => {
    double = await startSlackDouble();
    const client = createBackgroundClient(ids.botToken, silentLogger(), double.apiUrl);
    cards = new CardUpdater({
      client,
      logger: { debug() {}, info() {}, warn() {} },
      coalesceMs: 0,
      spacingMs: 0,
    });
    const recorded = warningsLogger();
    logged = recorded.logged;
    poster = new SlackMirrorPoster({
      client,
      cards,
      triagePrivacy: new TriageChannelPrivacy({ client, ttlMs: 0 }),
      logger: recorded.logger,
    });
  });

  afterEach(async () => {
    await cards.stop();
    await double.close();
  });

  const cardsIn = (channel: string) =>
    double.workspace.messages(channel).filter((m) => m.metadata?.event_type === 'triage_card');

  it('posts the card in a private channel the app is in', async () => {
    const posted = await poster.postTriageCard(ids.agentsPrivate, ticket);
    expect(posted).not.toBe('gone');
    expect(cardsIn(ids.agentsPrivate)).toHaveLength(1);
  });

  it('posts no card in a public channel, and says so at error level', async () => {
    expect(await poster.postTriageCard(ids.itHelp, ticket)).toBe('gone');
    expect(cardsIn(ids.itHelp)).toEqual([]);
    expect(logged).toEqual([
      {
        level: 'error',
        msg: 'triage channel is public: the card was not posted there (only a private channel may be a triage channel)',
      },
    ]);
  });

  it('posts no note in the triage thread of a channel made public since its card', async () => {
    const posted = await poster.postTriageCard(ids.agentsPrivate, ticket);
    if (posted === 'gone') throw new Error('posted expected');
    double.workspace.setPrivate(ids.agentsPrivate, false);
    const thread = { channel: ids.agentsPrivate, threadTs: posted.ts, triage: true };
    expect(await poster.postMessage(thread, 'IT-50', note)).toBe('gone');
    expect(JSON.stringify(double.workspace.thread(ids.agentsPrivate, posted.ts))).not.toContain(
      'disk is failing',
    );
    expect(logged.map((l) => l.level)).toEqual(['error']);
  });

  it('refreshes a triage card while its channel is private, and not once it is made public', async () => {
    const posted = await poster.postTriageCard(ids.agentsPrivate, ticket);
    if (posted === 'gone') throw new Error('posted expected');
    const thread = { channel: ids.agentsPrivate, threadTs: posted.ts, triage: true };
    await poster.refreshCard(thread, { ...ticket, status: 'open' });
    await eventually(() => double.callsTo('chat.update').length === 1, 2_000, 'the refresh');
    double.workspace.setPrivate(ids.agentsPrivate, false);
    await poster.refreshCard(thread, { ...ticket, status: 'resolved', title: 'Secret title' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(double.callsTo('chat.update')).toHaveLength(1);
    expect(JSON.stringify(double.workspace.messages(ids.agentsPrivate))).not.toContain(
      'Secret title',
    );
  });

  it('still posts in a public channel’s ordinary (non-triage) thread', async () => {
    const parent = double.workspace.postMessage(ids.itHelp, { user: ids.alice, text: 'Help' });
    const thread = { channel: ids.itHelp, threadTs: parent.ts };
    const reply = { ...note, internal: false, body: 'We are on it' };
    expect(await poster.postMessage(thread, 'IT-50', reply)).toBe('posted');
    expect(double.callsTo('conversations.info')).toEqual([]);
  });

  it('posts nothing while Slack answers 429 to conversations.info, asking to come back after its Retry-After', async () => {
    double.failNext('conversations.info', 'ratelimited', { retryAfterSec: 20 });
    const started = Date.now();
    const error = await poster.postTriageCard(ids.agentsPrivate, ticket).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PostDeferredError);
    expect((error as PostDeferredError).retryAt).toBeGreaterThanOrEqual(started + 20_000);
    expect(double.callsTo('chat.postMessage')).toEqual([]);
    // Once Slack can say, the card goes.
    expect(await poster.postTriageCard(ids.agentsPrivate, ticket)).not.toBe('gone');
  });

  it('posts no card when Slack refuses to say for good (a missing scope), at error level, holding nothing up', async () => {
    double.failNext('conversations.info', 'missing_scope');
    expect(await poster.postTriageCard(ids.agentsPrivate, ticket)).toBe('gone');
    expect(cardsIn(ids.agentsPrivate)).toEqual([]);
    expect(logged.map((l) => l.level)).toEqual(['error']);
  });

  it('posts no note while Slack answers 500 to conversations.info, asking to come back soon', async () => {
    const posted = await poster.postTriageCard(ids.agentsPrivate, ticket);
    if (posted === 'gone') throw new Error('posted expected');
    double.failNext('conversations.info', 'internal_error', { status: 500, times: 3 });
    const thread = { channel: ids.agentsPrivate, threadTs: posted.ts, triage: true };
    const started = Date.now();
    const error = await poster.postMessage(thread, 'IT-50', note).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PostDeferredError);
    expect((error as PostDeferredError).retryAt).toBeGreaterThanOrEqual(started + 30_000);
    expect(double.workspace.thread(ids.agentsPrivate, posted.ts)).toHaveLength(1);
    expect(logged.map((l) => l.level)).toEqual(['warn']);
  });
});

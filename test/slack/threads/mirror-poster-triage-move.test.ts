/**
 * A catch-all card's move: once its ticket is on a desk with a triage channel, the card in the
 * catch-all becomes a one-line pointer to the desk's card (chat.update), no longer a card.
 */
import { WebClient } from '@slack/web-api';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Ticket } from '../../../src/contract/schemas.ts';
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
  id: 'IT-41',
  title: 'Something <!channel> broke',
  desk_id: null,
});

describe('Slack mirror poster: a triage card moved out of the catch-all', () => {
  let double: SlackDouble;
  let poster: SlackMirrorPoster;
  let limited: SlackMirrorPoster;
  let cards: CardUpdater;

  beforeEach(async () => {
    double = await startSlackDouble();
    double.workspace.addMember(ids.hrPrivate, ids.bot);
    const client = new WebClient(ids.botToken, {
      slackApiUrl: double.apiUrl,
      retryConfig: { retries: 0 },
    });
    cards = new CardUpdater({
      client,
      logger: { debug() {}, info() {}, warn() {} },
      coalesceMs: 0,
      spacingMs: 0,
    });
    poster = new SlackMirrorPoster({ client, cards });
    limited = new SlackMirrorPoster({
      client: createBackgroundClient(ids.botToken, pino({ level: 'silent' }), double.apiUrl),
      cards,
    });
  });

  afterEach(async () => {
    await cards.stop();
    await double.close();
  });

  async function twoCards() {
    const old = await poster.postTriageCard(ids.hrPrivate, ticket);
    const moved = await poster.postTriageCard(ids.agentsPrivate, { ...ticket, desk_id: 'it' });
    if (old === 'gone' || moved === 'gone') throw new Error('cards expected');
    return {
      from: { channel: ids.hrPrivate, threadTs: old.ts, triage: true },
      to: { channel: ids.agentsPrivate, threadTs: moved.ts, triage: true },
    };
  }

  it('turns the catch-all card into one line naming the desk’s channel and linking its card', async () => {
    const { from, to } = await twoCards();
    await poster.pointTriageCard(from, to, ticket.id);
    const pointer = double.workspace.message(from.channel, from.threadTs);
    expect(pointer?.text).toContain(`IT-41 moved to <#${ids.agentsPrivate}>`);
    expect(pointer?.text).toContain(double.workspace.permalink(to.channel, to.threadTs));
    expect(pointer?.text).not.toContain('<!channel>');
    expect(pointer?.metadata).toEqual({
      event_type: 'triage_card_moved',
      event_payload: { ticket_id: 'IT-41', channel: to.channel, ts: to.threadTs },
    });
    expect(await poster.findTriageCard(ids.hrPrivate, ticket)).toBeUndefined();
  });

  it('still points to the desk’s channel when Slack gives no permalink', async () => {
    const { from, to } = await twoCards();
    double.failNext('chat.getPermalink', 'internal_error', { status: 500 });
    await poster.pointTriageCard(from, to, ticket.id);
    const pointer = double.workspace.message(from.channel, from.threadTs);
    expect(pointer?.text).toBe(`IT-41 moved to <#${ids.agentsPrivate}>: it is on a desk now.`);
  });

  it('asks to come back after Slack’s Retry-After when the update is rate limited, changing nothing', async () => {
    const { from, to } = await twoCards();
    double.failNext('chat.update', 'ratelimited', { retryAfterSec: 30 });
    const started = Date.now();
    const error = await limited.pointTriageCard(from, to, ticket.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PostDeferredError);
    expect((error as PostDeferredError).retryAt).toBeGreaterThanOrEqual(started + 30_000);
    expect(double.workspace.message(from.channel, from.threadTs)?.metadata?.event_type).toBe(
      'triage_card',
    );
  });

  it('throws Slack’s server failure for the feed to retry', async () => {
    const { from, to } = await twoCards();
    double.failNext('chat.update', 'internal_error', { status: 500 });
    const error = await poster.pointTriageCard(from, to, ticket.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(PostDeferredError);
    expect(double.workspace.message(from.channel, from.threadTs)?.metadata?.event_type).toBe(
      'triage_card',
    );
  });

  it('leaves a catch-all card someone deleted alone', async () => {
    const { from, to } = await twoCards();
    double.workspace.deleteMessage(from.channel, from.threadTs);
    await expect(poster.pointTriageCard(from, to, ticket.id)).resolves.toBeUndefined();
  });
});

/**
 * The Slack side of service-level warnings: the line in the triage thread and the breach
 * notice at the channel's top, each carrying the metadata it is found again by, and Slack's
 * refusals handed back as the mirror's "come back later".
 */
import { WebClient } from '@slack/web-api';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PostDeferredError } from '../../../src/mirror/errors.ts';
import type { ClockWarning } from '../../../src/mirror/types.ts';
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
const DUE = Date.now() - 60_000;

function warning(level: ClockWarning['level'], assignee: string | null = null): ClockWarning {
  return {
    ticket: ticketWith({ id: 'IT-12', title: 'VPN <!channel> down', assignee_email: assignee }),
    clock: {
      kind: 'first_response',
      state: level === 'breach' ? 'breached' : 'warning',
      startMs: DUE - 600_000,
      dueAtMs: DUE,
      warnAtMs: DUE - 120_000,
      source: 'targets',
    },
    level,
    nowMs: Date.now(),
    itemId: `sla:first_response:${level}`,
  };
}

describe('Slack mirror poster: service-level warnings', () => {
  let double: SlackDouble;
  let poster: SlackMirrorPoster;
  let limited: SlackMirrorPoster;
  let cards: CardUpdater;
  let card: { channel: string; threadTs: string; triage: true };

  beforeEach(async () => {
    double = await startSlackDouble();
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
    const oncallGroups = new Map([['it', 'S0ITONCALL']]);
    poster = new SlackMirrorPoster({ client, cards, oncallGroups });
    limited = new SlackMirrorPoster({
      client: createBackgroundClient(ids.botToken, pino({ level: 'silent' }), double.apiUrl),
      cards,
      oncallGroups,
    });
    const posted = await poster.postTriageCard(ids.agentsPrivate, warning('warning').ticket);
    if (posted === 'gone') throw new Error('card expected');
    card = { channel: ids.agentsPrivate, threadTs: posted.ts, triage: true };
  });

  afterEach(async () => {
    await cards.stop();
    await double.close();
  });

  it('posts the warning line in the triage thread, found again by its metadata', async () => {
    expect(await poster.findPosted(card, 'IT-12', 'sla:first_response:warning')).toBe(false);
    expect(await poster.postClockWarning(card, warning('warning'))).toBe('posted');
    const [line] = (double.workspace.thread(card.channel, card.threadTs) ?? []).slice(1);
    expect(line?.text).toContain(':warning: First response due');
    expect(line?.text).toContain('*IT-12* is unassigned');
    expect(await poster.findPosted(card, 'IT-12', 'sla:first_response:warning')).toBe(true);
  });

  it('posts the breach notice at the channel’s top with the card’s link and the on-call group, never the title’s ping', async () => {
    expect(await poster.findBreachNotice(card, warning('breach'))).toBe(false);
    expect(await poster.postBreachNotice(card, warning('breach'))).toBe('posted');
    const notice = double.workspace.history(card.channel).at(-1);
    expect(notice?.text).toContain(double.workspace.permalink(card.channel, card.threadTs));
    expect(notice?.text).toContain('<!subteam^S0ITONCALL>');
    expect(notice?.text).not.toContain('<!channel>');
    expect(await poster.findBreachNotice(card, warning('breach'))).toBe(true);
  });

  it('hands back Slack’s 429 on the line, the notice and the search as a wait for its Retry-After', async () => {
    const started = Date.now();
    const calls: [string, () => Promise<unknown>][] = [
      ['chat.postMessage', () => limited.postClockWarning(card, warning('warning'))],
      ['chat.postMessage', () => limited.postBreachNotice(card, warning('breach'))],
      ['conversations.history', () => limited.findBreachNotice(card, warning('breach'))],
    ];
    for (const [method, call] of calls) {
      double.failNext(method, 'ratelimited', { retryAfterSec: 30 });
      const error = await call().catch((failure: unknown) => failure);
      expect(error).toBeInstanceOf(PostDeferredError);
      expect((error as PostDeferredError).retryAt).toBeGreaterThanOrEqual(started + 30_000);
    }
    expect(double.workspace.history(card.channel)).toHaveLength(1);
  });

  it('throws Slack’s 500 on the notice, so the watch tries again, and posts it once it goes', async () => {
    double.failNext('chat.postMessage', 'internal_error', { status: 500 });
    await expect(poster.postBreachNotice(card, warning('breach'))).rejects.toThrow();
    expect(await limited.findBreachNotice(card, warning('breach'))).toBe(false);
    expect(await limited.postBreachNotice(card, warning('breach'))).toBe('posted');
    expect(await limited.findBreachNotice(card, warning('breach'))).toBe(true);
  });

  it('posts neither the warning line nor the breach notice in a triage channel made public', async () => {
    const errors: string[] = [];
    const exposed = new SlackMirrorPoster({
      client: new WebClient(ids.botToken, {
        slackApiUrl: double.apiUrl,
        retryConfig: { retries: 0 },
      }),
      cards,
      triagePrivacy: { privacy: async () => 'public' },
      logger: { warn() {}, error: (_fields: object, msg?: string) => errors.push(msg ?? '') },
    });
    const before = double.callsTo('chat.postMessage').length;
    expect(await exposed.postClockWarning(card, warning('warning'))).toBe('gone');
    expect(await exposed.postBreachNotice(card, warning('breach'))).toBe('gone');
    expect(double.callsTo('chat.postMessage').length).toBe(before);
    expect(errors).toHaveLength(2);
  });
});

/** Telling triage threads from others: the links first, the card's metadata from Slack (nock). */
import nock from 'nock';
import { pino } from 'pino';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createBackgroundClient } from '../../../src/slack/app/slack-clients.ts';
import { TRIAGE_CARD_EVENT_TYPE } from '../../../src/slack/posting/post-metadata.ts';
import { TriageThreadFinder, triageCardTicket } from '../../../src/slack/threads/triage-threads.ts';
import { createMemoryStores } from '../../../src/store/index.ts';

const SLACK = 'http://slack.test';
const APP = 'U0BOT';
const TRIAGE = 'G0AGENTS';
const CARD_TS = '100.1';

const client = () =>
  createBackgroundClient('xoxb-test', pino({ level: 'silent' }), `${SLACK}/api/`);

async function finderWith(
  setup?: (stores: ReturnType<typeof createMemoryStores>) => Promise<void>,
) {
  const stores = createMemoryStores();
  await stores.triageChannels.set('it', TRIAGE);
  await setup?.(stores);
  return { stores, finder: new TriageThreadFinder({ client: client(), stores }) };
}

const card = (ticketId: string, user = APP) => ({
  ts: CARD_TS,
  user,
  metadata: { event_type: TRIAGE_CARD_EVENT_TYPE, event_payload: { ticket_id: ticketId } },
});

describe('which threads are triage threads', () => {
  beforeAll(() => {
    nock.disableNetConnect();
  });
  afterEach(() => {
    nock.cleanAll();
  });

  it('takes a thread the links list as its ticket’s triage thread, without asking Slack', async () => {
    const { finder } = await finderWith(async (stores) => {
      await stores.links.link('IT-7', { channel: TRIAGE, threadTs: CARD_TS, triage: true });
    });
    expect(await finder.classify(TRIAGE, CARD_TS)).toEqual({ kind: 'triage', ticketId: 'IT-7' });
    expect(await finder.ticketForTriageThread(TRIAGE, CARD_TS, APP)).toBe('IT-7');
  });

  it('keeps a thread the links mark as triage the agents’ once its channel stops triaging', async () => {
    const { stores, finder } = await finderWith(async (s) => {
      await s.links.link('IT-7', { channel: TRIAGE, threadTs: CARD_TS, triage: true });
    });
    await stores.triageChannels.clear(TRIAGE);
    expect(await finder.classify(TRIAGE, CARD_TS)).toEqual({ kind: 'triage', ticketId: 'IT-7' });
  });

  it('leaves a ticket’s ordinary thread in a triage channel to the ordinary handling', async () => {
    const { finder } = await finderWith(async (stores) => {
      await stores.links.link('IT-7', { channel: TRIAGE, threadTs: CARD_TS });
    });
    expect(await finder.classify(TRIAGE, CARD_TS)).toEqual({ kind: 'not_triage' });
  });

  it('never takes a thread of a direct message for a triage thread', async () => {
    const { finder } = await finderWith();
    expect(await finder.classify('D0ALICE', CARD_TS)).toEqual({ kind: 'not_triage' });
    expect(await finder.ticketForTriageThread('D0ALICE', CARD_TS, APP)).toBeUndefined();
  });

  it('reads the card of an unknown thread in a channel the store no longer lists, as after Redis was emptied', async () => {
    const { finder } = await finderWith();
    nock(SLACK)
      .post('/api/conversations.replies')
      .reply(200, { ok: true, messages: [card('IT-9')] });
    expect(await finder.classify('G0FORGOTTEN', CARD_TS)).toEqual({ kind: 'unknown' });
    expect(await finder.ticketForTriageThread('G0FORGOTTEN', CARD_TS, APP)).toBe('IT-9');
  });

  it('reads an unknown thread’s parent with its metadata and names the ticket of the app’s card', async () => {
    const { finder } = await finderWith();
    let asked: Record<string, string> | undefined;
    nock(SLACK)
      .post('/api/conversations.replies', (body) => {
        asked = body as Record<string, string>;
        return true;
      })
      .reply(200, { ok: true, messages: [card('IT-9')] });
    expect(await finder.classify(TRIAGE, CARD_TS)).toEqual({ kind: 'unknown' });
    expect(await finder.ticketForTriageThread(TRIAGE, CARD_TS, APP)).toBe('IT-9');
    expect(asked).toMatchObject({ channel: TRIAGE, ts: CARD_TS, include_all_metadata: 'true' });
    // Kept: the next reply in the thread asks nothing of Slack.
    expect(await finder.classify(TRIAGE, CARD_TS)).toEqual({ kind: 'triage', ticketId: 'IT-9' });
  });

  it('links a thread found by its card again as the ticket’s triage thread, so its conversation follows after Redis was emptied', async () => {
    const stores = createMemoryStores();
    await stores.triageChannels.set('it', TRIAGE);
    const relinked: unknown[] = [];
    const finder = new TriageThreadFinder({
      client: client(),
      stores,
      relink: async (ticketId, thread) => {
        relinked.push([ticketId, thread]);
      },
    });
    nock(SLACK)
      .post('/api/conversations.replies')
      .reply(200, { ok: true, messages: [card('IT-9')] });
    expect(await finder.ticketForTriageThread(TRIAGE, CARD_TS, APP)).toBe('IT-9');
    expect(relinked).toEqual([['IT-9', { channel: TRIAGE, threadTs: CARD_TS, triage: true }]]);
  });

  it('does not take another app’s post carrying the same metadata for a card', async () => {
    const { finder } = await finderWith();
    nock(SLACK)
      .post('/api/conversations.replies')
      .reply(200, { ok: true, messages: [card('IT-9', 'U0OTHERBOT')] });
    expect(await finder.ticketForTriageThread(TRIAGE, CARD_TS, APP)).toBeUndefined();
    expect(await finder.classify(TRIAGE, CARD_TS)).toEqual({ kind: 'not_triage' });
  });

  it('passes Slack’s rate limit on to its caller and keeps no answer', async () => {
    const { finder } = await finderWith();
    nock(SLACK)
      .post('/api/conversations.replies')
      .reply(429, { ok: false, error: 'ratelimited' }, { 'retry-after': '3' });
    await expect(finder.ticketForTriageThread(TRIAGE, CARD_TS, APP)).rejects.toMatchObject({
      code: 'slack_webapi_rate_limited_error',
    });
    expect(await finder.classify(TRIAGE, CARD_TS)).toEqual({ kind: 'unknown' });
  });

  it('passes Slack’s server error on to its caller and keeps no answer', async () => {
    const { finder } = await finderWith();
    nock(SLACK).post('/api/conversations.replies').reply(500, 'oops');
    await expect(finder.ticketForTriageThread(TRIAGE, CARD_TS, APP)).rejects.toThrow();
    expect(await finder.classify(TRIAGE, CARD_TS)).toEqual({ kind: 'unknown' });
  });
});

describe('the ticket a triage card names', () => {
  it('is the card’s ticket_id when the card is the app’s', () => {
    expect(triageCardTicket(card('IT-3'), APP)).toBe('IT-3');
  });

  it('is nothing for an ordinary ticket card', () => {
    const ordinary = {
      user: APP,
      metadata: { event_type: 'servicedesk_ticket', event_payload: { ticket_id: 'IT-3' } },
    };
    expect(triageCardTicket(ordinary, APP)).toBeUndefined();
  });

  it('is nothing when the metadata names no ticket id', () => {
    const bad = {
      ...card('IT-3'),
      metadata: { event_type: TRIAGE_CARD_EVENT_TYPE, event_payload: { ticket_id: 'x y' } },
    };
    expect(triageCardTicket(bad, APP)).toBeUndefined();
  });
});

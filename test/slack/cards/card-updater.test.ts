import { WebClient } from '@slack/web-api';
import nock from 'nock';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Ticket } from '../../../src/contract/schemas.ts';
import { buildLinkedThreadNotice } from '../../../src/slack/builders/notice-builder.ts';
import { buildTicketCard } from '../../../src/slack/builders/ticket-card-builder.ts';
import { statusLabel } from '../../../src/slack/builders/ticket-labels.ts';
import { CardUpdater } from '../../../src/slack/cards/card-updater.ts';
import { ACTIONS } from '../../../src/slack/ids.ts';
import { ticketMetadata } from '../../../src/slack/posting/post-metadata.ts';
import {
  defaultIds,
  type SlackDouble,
  startSlackDouble,
} from '../../../tools/slack-double/index.ts';

const ids = defaultIds;
const LEAD = ':ticket: <@U0ALICE> filed *IT-12*. Replies in this thread go to the ticket.';

const filed: Ticket = {
  id: 'IT-12',
  title: 'Dock does not charge',
  status: 'new',
  priority: 'medium',
  created_at: '2026-11-20T09:00:00Z',
  updated_at: '2026-11-20T09:00:00Z',
  requester_email: 'alice@acme.example',
  assignee_email: null,
  team: null,
};
const at = (minute: number) => `2026-11-20T09:${String(minute).padStart(2, '0')}:00Z`;
const inProgress: Ticket = {
  ...filed,
  status: 'in_progress',
  team: 'Workplace',
  updated_at: at(1),
};
const resolved: Ticket = {
  ...filed,
  status: 'resolved',
  assignee_email: 'sam.rivera@acme.example',
  updated_at: at(2),
};

// The status field as the card shows it, in the JSON of its blocks.
const statusField = (status: string) => JSON.stringify(`*Status*\n${statusLabel(status)}`);

const actionIds = (blocks: unknown) =>
  ((blocks ?? []) as { type: string; elements?: { action_id?: string }[] }[])
    .filter((b) => b.type === 'actions')
    .flatMap((b) => (b.elements ?? []).map((e) => e.action_id));

interface Logged {
  level: string;
  msg: string | undefined;
}

function recordingLogger(lines: Logged[]) {
  const at = (level: string) => (_obj: object, msg?: string) => void lines.push({ level, msg });
  return { debug: at('debug'), info: at('info'), warn: at('warn') };
}

describe('card updater, against the Slack double', () => {
  let double: SlackDouble;
  let client: WebClient;
  let updater: CardUpdater;

  beforeEach(async () => {
    double = await startSlackDouble();
    client = new WebClient(ids.botToken, {
      slackApiUrl: double.apiUrl,
      rejectRateLimitedCalls: true,
      retryConfig: { retries: 0 },
    });
    updater = new CardUpdater({
      client,
      logger: recordingLogger([]),
      coalesceMs: 20,
      spacingMs: 0,
    });
  });

  afterEach(async () => {
    await updater.stop();
    await double.close();
  });

  /** Posts the app's card in #it-help, as /ticket does; the card is the thread's parent. */
  async function postCard(ticket: Ticket, metadata?: Record<string, unknown>) {
    const posted = await client.chat.postMessage({
      channel: ids.itHelp,
      ...buildTicketCard(ticket, { lead: LEAD }),
      metadata: {
        event_type: 'servicedesk_ticket',
        event_payload: { ticket_id: ticket.id, ...metadata },
      },
    });
    const ts = posted.ts as string;
    return {
      thread: { channel: ids.itHelp, threadTs: ts },
      now: () => double.workspace.message(ids.itHelp, ts),
    };
  }

  it('shows the ticket’s new status, assignee and buttons on the channel card, keeping its lead', async () => {
    const card = await postCard(filed);
    updater.request(card.thread, resolved);
    await updater.idle();
    const blocks = JSON.stringify(card.now()?.blocks);
    expect(blocks).toContain(statusField('resolved'));
    expect(blocks).toContain('sam.rivera@acme.example');
    expect(blocks).toContain(LEAD);
    expect(actionIds(card.now()?.blocks)).toEqual([
      ACTIONS.reopenTicket,
      ACTIONS.openUpdate,
      ACTIONS.assignToMe,
    ]);
  });

  it('keeps only the requester’s buttons on a card in their direct message with the app', async () => {
    const dm = double.workspace.openIm(ids.alice);
    const posted = await client.chat.postMessage({
      channel: dm,
      ...buildTicketCard(filed, { lead: LEAD, audience: { isAgent: false, isRequester: true } }),
      metadata: { event_type: 'servicedesk_ticket', event_payload: { ticket_id: filed.id } },
    });
    updater.request({ channel: dm, threadTs: posted.ts as string }, resolved);
    await updater.idle();
    const now = double.workspace.message(dm, posted.ts as string);
    expect(JSON.stringify(now?.blocks)).toContain(statusField('resolved'));
    expect(actionIds(now?.blocks)).toEqual([ACTIONS.reopenTicket]);
  });

  it('keeps only an agent’s buttons on a card in their direct message, whatever the status', async () => {
    const dm = double.workspace.openIm(ids.agent);
    const posted = await client.chat.postMessage({
      channel: dm,
      ...buildTicketCard(filed, { lead: LEAD, audience: { isAgent: true, isRequester: false } }),
      metadata: { event_type: 'servicedesk_ticket', event_payload: { ticket_id: filed.id } },
    });
    updater.request({ channel: dm, threadTs: posted.ts as string }, resolved);
    await updater.idle();
    expect(actionIds(double.workspace.message(dm, posted.ts as string)?.blocks)).toEqual([
      ACTIONS.openUpdate,
      ACTIONS.assignToMe,
    ]);
  });

  it('leaves a closed ticket’s card with no buttons at all', async () => {
    const card = await postCard(resolved);
    updater.request(card.thread, { ...resolved, status: 'closed', updated_at: at(3) });
    await updater.idle();
    expect(JSON.stringify(card.now()?.blocks)).toContain(statusField('closed'));
    expect(actionIds(card.now()?.blocks)).toEqual([]);
  });

  it('updates the confirmation in a thread and none of the mirror’s posts there', async () => {
    const parent = double.workspace.postMessage(ids.itHelp, { user: ids.alice, text: 'Dock?' });
    const thread = { channel: ids.itHelp, threadTs: parent.ts };
    const notice = await client.chat.postMessage({
      channel: ids.itHelp,
      thread_ts: parent.ts,
      ...buildLinkedThreadNotice(filed, { filedBy: ids.alice }),
      metadata: { event_type: 'servicedesk_ticket', event_payload: { ticket_id: 'IT-12' } },
    });
    await client.chat.postMessage({
      channel: ids.itHelp,
      thread_ts: parent.ts,
      text: 'An agent has it',
      metadata: ticketMetadata('IT-12', 'msg_3'),
    });
    updater.request(thread, inProgress);
    await updater.idle();
    expect(double.callsTo('chat.update').map((call) => call.args.ts)).toEqual([notice.ts]);
    const shown = JSON.stringify(double.workspace.message(ids.itHelp, notice.ts as string)?.blocks);
    expect(shown).toContain(statusField('in_progress'));
    expect(shown).toContain('was filed by');
  });

  it('makes one update, with the latest ticket, for asks that come close together', async () => {
    const card = await postCard(filed);
    updater.request(card.thread, inProgress);
    updater.request(card.thread, resolved);
    await updater.idle();
    expect(double.callsTo('chat.update')).toHaveLength(1);
    expect(JSON.stringify(card.now()?.blocks)).toContain(statusField('resolved'));
  });

  it('keeps the latest ticket when an older read is asked for after it', async () => {
    const card = await postCard(filed);
    updater.request(card.thread, resolved);
    updater.request(card.thread, inProgress);
    await updater.idle();
    expect(JSON.stringify(card.now()?.blocks)).toContain(statusField('resolved'));
  });

  it('does not update a card that already shows the ticket', async () => {
    const card = await postCard(inProgress);
    updater.request(card.thread, inProgress);
    await updater.idle();
    expect(double.callsTo('chat.update')).toHaveLength(0);
  });

  it('does not undo a later state that another process already showed', async () => {
    const card = await postCard(resolved, { ticket_updated_at: resolved.updated_at });
    updater.request(card.thread, inProgress);
    await updater.idle();
    expect(double.callsTo('chat.update')).toHaveLength(0);
  });

  it('records on the card how recent the state it shows is', async () => {
    const card = await postCard(filed);
    updater.request(card.thread, resolved);
    await updater.idle();
    expect(card.now()?.metadata).toEqual({
      event_type: 'servicedesk_ticket',
      event_payload: { ticket_id: 'IT-12', ticket_updated_at: resolved.updated_at },
    });
  });
});

describe('card updater, when Slack refuses', () => {
  const SLACK = 'http://slack.test';
  const thread = { channel: 'C0HELP', threadTs: '1767225600.000100' };
  const card = {
    type: 'message',
    ts: thread.threadTs,
    bot_id: 'B0APP',
    ...buildTicketCard(filed, { lead: LEAD }),
    metadata: { event_type: 'servicedesk_ticket', event_payload: { ticket_id: 'IT-12' } },
  };
  let lines: Logged[];
  let clock: { now: number };
  let slept: number[];
  let duringSleep: ((ms: number) => void) | undefined;
  let updates: { ts: string; blocks: string; at: number }[];
  let updater: CardUpdater;

  beforeAll(() => {
    nock.disableNetConnect();
  });
  afterAll(() => {
    nock.enableNetConnect();
  });

  beforeEach(() => {
    lines = [];
    clock = { now: Date.parse('2026-11-20T10:00:00Z') };
    slept = [];
    duringSleep = undefined;
    updates = [];
    updater = new CardUpdater({
      client: new WebClient('xoxb-test', {
        slackApiUrl: `${SLACK}/api/`,
        rejectRateLimitedCalls: true,
        retryConfig: { retries: 0 },
      }),
      logger: recordingLogger(lines),
      now: () => clock.now,
      // Time moves by the wait at once, so a test waits no real Retry-After.
      sleep: async (ms) => {
        slept.push(ms);
        clock.now += ms;
        duringSleep?.(ms);
      },
    });
  });

  afterEach(async () => {
    await updater.stop();
    nock.cleanAll();
  });

  // Each thread answers with its parent: the card, whose ts is the thread's.
  const threadAnswers = (times: number) => {
    let asked = '';
    return nock(SLACK)
      .post('/api/conversations.replies', (body: Record<string, string>) => {
        asked = body.ts ?? '';
        return true;
      })
      .times(times)
      .reply(200, () => ({ ok: true, messages: [{ ...card, ts: asked }], has_more: false }));
  };
  const recordUpdate = (body: Record<string, string>) => {
    updates.push({ ts: body.ts ?? '', blocks: body.blocks ?? '', at: clock.now });
    return true;
  };

  it('waits out a 429’s Retry-After and then updates with the latest ticket', async () => {
    threadAnswers(2);
    const slack = nock(SLACK)
      .post('/api/chat.update', recordUpdate)
      .reply(429, { ok: false, error: 'ratelimited' }, { 'Retry-After': '7' })
      .post('/api/chat.update', recordUpdate)
      .reply(200, { ok: true, ts: thread.threadTs });
    duringSleep = (ms) => {
      if (ms === 7_000) updater.request(thread, resolved);
    };
    updater.request(thread, inProgress);
    await updater.idle();
    expect(slack.isDone()).toBe(true);
    expect(slept).toContain(7_000);
    expect(updates).toHaveLength(2);
    expect(updates[0]?.blocks).toContain('In progress');
    expect(updates[1]?.blocks).toContain('Resolved');
  });

  it('holds every card back until a 429’s Retry-After is over', async () => {
    const other = { channel: 'C0HELP', threadTs: '1767225700.000100' };
    threadAnswers(3);
    nock(SLACK)
      .post('/api/chat.update', recordUpdate)
      .reply(429, { ok: false, error: 'ratelimited' }, { 'Retry-After': '30' })
      .post('/api/chat.update', recordUpdate)
      .times(2)
      .reply(200, { ok: true });
    updater.request(thread, inProgress);
    updater.request(other, resolved);
    await updater.idle();
    // The other card's first try waits too, as the limit is the workspace's.
    expect(updates.map((u) => u.ts)).toEqual([thread.threadTs, other.threadTs, thread.threadTs]);
    const refusedAt = updates[0]?.at ?? 0;
    for (const later of updates.slice(1))
      expect(later.at).toBeGreaterThanOrEqual(refusedAt + 30_000);
  });

  it('tries a card again after a 500, waiting longer each time', async () => {
    threadAnswers(3);
    const slack = nock(SLACK)
      .post('/api/chat.update', recordUpdate)
      .times(2)
      .reply(500, 'Internal Server Error')
      .post('/api/chat.update', recordUpdate)
      .reply(200, { ok: true });
    updater.request(thread, resolved);
    await updater.idle();
    expect(slack.isDone()).toBe(true);
    expect(updates.map((u) => u.blocks.includes('Resolved'))).toEqual([true, true, true]);
    const backoffs = slept.filter((ms) => ms >= 5_000);
    expect(backoffs).toEqual([5_000, 10_000]);
  });

  it('gives a card up after failing six times in a row, and says so', async () => {
    threadAnswers(6);
    nock(SLACK).post('/api/chat.update').times(6).reply(500, 'Internal Server Error');
    updater.request(thread, resolved);
    await updater.idle();
    expect(nock.pendingMocks()).toEqual([]);
    expect(lines).toContainEqual({ level: 'warn', msg: 'ticket card refresh gave up' });
  });

  it('leaves a card that was deleted, without trying again', async () => {
    threadAnswers(1);
    nock(SLACK).post('/api/chat.update').reply(200, { ok: false, error: 'message_not_found' });
    updater.request(thread, resolved);
    await updater.idle();
    expect(nock.pendingMocks()).toEqual([]);
    expect(lines).toContainEqual({
      level: 'info',
      msg: 'ticket card can no longer be updated; left',
    });
  });

  it('leaves a thread whose channel is gone, without trying again', async () => {
    nock(SLACK)
      .post('/api/conversations.replies')
      .reply(200, { ok: false, error: 'channel_not_found' });
    updater.request(thread, resolved);
    await updater.idle();
    expect(nock.pendingMocks()).toEqual([]);
    expect(lines).toContainEqual({
      level: 'info',
      msg: 'ticket card can no longer be updated; left',
    });
  });
});

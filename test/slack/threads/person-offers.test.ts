/** Taking "Talk to a person" off a ticket's earlier AI answers, against a Web API that fails as Slack does (nock). */
import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '../../../src/contract/schemas.ts';
import { createBackgroundClient } from '../../../src/slack/app/slack-clients.ts';
import { buildTicketMessageParts } from '../../../src/slack/builders/ticket-message-builder.ts';
import { ticketMetadata } from '../../../src/slack/posting/post-metadata.ts';
import { withdrawPersonOffers } from '../../../src/slack/threads/person-offers.ts';
import { createMemoryStores } from '../../../src/store/index.ts';
import { silentLogger } from '../support/fake-deps.ts';

const SLACK = 'http://slack.test';

function deps() {
  return {
    client: createBackgroundClient('xoxb-test', silentLogger(), `${SLACK}/api/`),
    stores: createMemoryStores(),
    logger: silentLogger(),
  };
}

/** A post of the app in a thread, as conversations.replies shows it. */
function posted(ts: string, ticketId: string, author: Message['author']['type']) {
  const message: Message = {
    id: `msg_${ts}`,
    ticket_id: ticketId,
    body: 'Install the client from the portal.',
    created_at: '2026-11-20T09:30:00Z',
    internal: false,
    author: { type: author, name: author, email: null },
    sources: [],
  };
  const [part] = buildTicketMessageParts(ticketId, message);
  return { ts, thread_ts: '1.0', ...part, metadata: ticketMetadata(ticketId, message.id) };
}

const replies = (...messages: unknown[]) => ({ ok: true, messages });

describe('taking “Talk to a person” off earlier AI answers', () => {
  beforeAll(() => nock.disableNetConnect());
  afterEach(() => nock.cleanAll());

  it('changes each of the ticket’s answers offering a person once, and nothing else', async () => {
    const updated: string[] = [];
    nock(SLACK)
      .post('/api/conversations.replies')
      .reply(
        200,
        replies(
          { ts: '1.0', text: 'VPN client?' },
          posted('1.1', 'IT-7', 'ai_agent'),
          posted('1.2', 'IT-7', 'agent'),
          posted('1.3', 'IT-8', 'ai_agent'),
          posted('1.4', 'IT-7', 'ai_agent'),
        ),
      )
      .post('/api/chat.update', (body) => {
        updated.push(String(body.ts));
        return !String(body.blocks).includes('talk_to_person');
      })
      .times(2)
      .reply(200, { ok: true });
    const changed = await withdrawPersonOffers(deps(), 'IT-7', [
      { channel: 'D1', threadTs: '1.0' },
    ]);
    expect(changed).toBe(2);
    expect(updated).toEqual(['1.1', '1.4']);
    expect(nock.isDone()).toBe(true);
  });

  it('goes on to the ticket’s next thread when Slack answers 429 in one', async () => {
    const updated: string[] = [];
    nock(SLACK)
      .post('/api/conversations.replies', (body) => body.channel === 'C1')
      .reply(429, { ok: false, error: 'ratelimited' }, { 'Retry-After': '30' })
      .post('/api/conversations.replies', (body) => body.channel === 'D1')
      .reply(200, replies(posted('2.1', 'IT-7', 'ai_agent')))
      .post('/api/chat.update', (body) => {
        updated.push(`${body.channel}/${body.ts}`);
        return true;
      })
      .reply(200, { ok: true });
    const changed = await withdrawPersonOffers(deps(), 'IT-7', [
      { channel: 'C1', threadTs: '1.0' },
      { channel: 'D1', threadTs: '1.0' },
    ]);
    expect(changed).toBe(1);
    expect(updated).toEqual(['D1/2.1']);
  });

  it('comes back without throwing when Slack answers 500 to the change', async () => {
    nock(SLACK)
      .post('/api/conversations.replies')
      .reply(200, replies(posted('3.1', 'IT-7', 'ai_agent')))
      .post('/api/chat.update')
      .times(2)
      .reply(500, { ok: false, error: 'internal_error' });
    await expect(
      withdrawPersonOffers(deps(), 'IT-7', [{ channel: 'D1', threadTs: '1.0' }]),
    ).resolves.toBe(0);
    expect(nock.isDone()).toBe(true);
  });
});

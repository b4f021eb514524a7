/** The create-ticket intent against a Slack Web API that fails as Slack does (nock). */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Ticket } from '../../../src/servicedesk/index.ts';
import { createBackgroundClient } from '../../../src/slack/app/slack-clients.ts';
import { describeFailure } from '../../../src/slack/builders/failure-reason-builder.ts';
import type { SlackDeps } from '../../../src/slack/deps.ts';
import {
  AppNotInChannelError,
  LeaseRunningOutError,
  TicketNotPostedError,
} from '../../../src/slack/errors.ts';
import {
  type CreateTicketPayload,
  type CreateTicketResult,
  createTicket,
} from '../../../src/slack/intents/create-ticket.ts';
import { intentHandler } from '../../../src/slack/outbox/intent-definition.ts';
import { isTransient, retryAtOf } from '../../../src/slack/outbox/transient-errors.ts';
import { TicketStatusMemo } from '../../../src/slack/tickets/ticket-status-memo.ts';
import { createMemoryStores } from '../../../src/store/index.ts';
import type { JsonValue, ReservedEntry, Stores } from '../../../src/store/types.ts';
import { ticketWith } from '../../support/ticket-fixture.ts';
import { fakeDeps, silentLogger } from '../support/fake-deps.ts';
import { reservedEntry } from '../support/reserved-entry.ts';

const SLACK = 'http://slack.test';
// No desk: a filing on one would go on to offer the desk's required fields.
const TICKET: Ticket = ticketWith({
  id: 'IT-30',
  title: 'Printer jams',
  created_at: '2026-11-24T08:00:00Z',
  desk_id: null,
});

function depsFor(stores: Stores, timeoutMs?: number, slackUrl = SLACK): SlackDeps {
  return fakeDeps({
    // The client the app's intents run with: bounded, and never sleeping through a 429.
    client: createBackgroundClient('xoxb-test', silentLogger(), `${slackUrl}/api/`, {
      timeoutMs,
    }),
    serviceDesk: { createTicket: async () => TICKET },
    stores,
    people: {
      person: async (id: string) => ({
        id,
        name: 'Alice',
        email: 'alice@acme.example',
        isBot: false,
      }),
      isAgent: async () => false,
    },
    mirror: { slackWrote: async () => {}, ticketFiled: () => {} },
    statuses: new TicketStatusMemo(),
  });
}

function entryOf(payload: CreateTicketPayload, leaseLeftMs = 60_000): ReservedEntry {
  return reservedEntry(createTicket, payload, {
    deliveryKey: 'view:V1',
    leaseExpiresAt: Date.now() + leaseLeftMs,
  });
}

/**
 * A filing's result as the intent made it: the outbox keeps results as JSON, so the handler
 * answers `JsonValue`, and the intent's own type is read back from it (no schema to parse it).
 */
const filed = (result: JsonValue) => result as unknown as CreateTicketResult;

const fromGeneral: CreateTicketPayload = {
  actorUserId: 'U0ALICE',
  requesterUserIds: ['U0ALICE'],
  ticket: { title: 'Printer jams' },
  reply: { kind: 'card', channel: 'C0GENERAL' },
};

/** The form body of a request nock saw. */
const form = (body: unknown) => body as Record<string, string>;

describe('the create-ticket intent when Slack will not take its card', () => {
  beforeAll(() => {
    nock.disableNetConnect();
  });
  afterEach(() => {
    nock.cleanAll();
  });

  it('posts the card in the person’s direct message when the app is not in the channel, and links that thread', async () => {
    const stores = createMemoryStores();
    const posted: Record<string, string>[] = [];
    nock(SLACK)
      .post('/api/conversations.info')
      .reply(200, { ok: true, channel: { id: 'C0GENERAL', is_member: false } })
      .post('/api/conversations.open')
      .reply(200, { ok: true, channel: { id: 'D0ALICE' } })
      .post('/api/chat.postMessage', (body) => {
        posted.push(form(body));
        return true;
      })
      .reply(200, { ok: true, channel: 'D0ALICE', ts: '111.222' });
    const result = filed(
      await intentHandler(createTicket, depsFor(stores)).run(entryOf(fromGeneral)),
    );
    expect(result).toMatchObject({
      ticketId: 'IT-30',
      channel: 'D0ALICE',
      threadTs: '111.222',
      insteadOf: 'C0GENERAL',
    });
    expect(posted).toHaveLength(1);
    expect(posted[0]?.channel).toBe('D0ALICE');
    expect(posted[0]?.blocks).toContain('The app is not a member there');
    expect(posted[0]?.blocks).toContain('/invite @Service Desk');
    expect(await stores.links.ticketForThread('D0ALICE', '111.222')).toBe('IT-30');
  });

  it('falls back to the direct message when the channel refuses the post with not_in_channel', async () => {
    const stores = createMemoryStores();
    nock(SLACK)
      .post('/api/conversations.info')
      .reply(200, { ok: false, error: 'missing_scope' })
      .post('/api/chat.postMessage', (body) => form(body).channel === 'C0GENERAL')
      .reply(200, { ok: false, error: 'not_in_channel' })
      .post('/api/conversations.open')
      .reply(200, { ok: true, channel: { id: 'D0ALICE' } })
      .post('/api/chat.postMessage', (body) => form(body).channel === 'D0ALICE')
      .reply(200, { ok: true, channel: 'D0ALICE', ts: '111.333' });
    const result = filed(
      await intentHandler(createTicket, depsFor(stores)).run(entryOf(fromGeneral)),
    );
    expect(result.insteadOf).toBe('C0GENERAL');
    expect(await stores.links.ticketForThread('D0ALICE', '111.333')).toBe('IT-30');
  });

  it('reports a filed ticket whose card Slack refuses everywhere as filed, never as not filed', async () => {
    const stores = createMemoryStores();
    nock(SLACK)
      .post('/api/conversations.info')
      .reply(200, { ok: true, channel: { id: 'C0GENERAL', is_member: true } })
      .post('/api/chat.postMessage')
      .reply(200, { ok: false, error: 'invalid_blocks' });
    const intent = intentHandler(createTicket, depsFor(stores));
    const error = await intent.run(entryOf(fromGeneral)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TicketNotPostedError);
    expect(isTransient(error)).toBe(false);

    const told: Record<string, string>[] = [];
    nock(SLACK)
      .post('/api/conversations.open')
      .reply(200, { ok: true, channel: { id: 'D0ALICE' } })
      .post('/api/chat.postMessage', (body) => {
        told.push(form(body));
        return true;
      })
      .reply(200, { ok: true, channel: 'D0ALICE', ts: '1.1' });
    await intent.failed(entryOf(fromGeneral), error, { awaited: false });
    expect(told).toHaveLength(1);
    expect(told[0]?.text).toContain('filed as *IT-30*');
    expect(told[0]?.text).toContain('invalid_blocks');
    expect(told[0]?.text).not.toContain('not filed');
    expect(told[0]?.text).not.toContain('could not be sent');
  });

  it('tries again later when Slack answers 500 on the card twice in a row', async () => {
    const stores = createMemoryStores();
    nock(SLACK)
      .post('/api/conversations.info')
      .reply(200, { ok: true, channel: { id: 'C0GENERAL', is_member: true } })
      .post('/api/chat.postMessage')
      .times(2)
      .reply(500, 'oops');
    const error = await intentHandler(createTicket, depsFor(stores))
      .run(entryOf(fromGeneral))
      .catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(TicketNotPostedError);
    expect(isTransient(error)).toBe(true);
    expect(await stores.links.threadsForTicket('IT-30')).toEqual([]);
  });

  it('comes back at once from a 429 with Slack’s Retry-After as the time to try again', async () => {
    const stores = createMemoryStores();
    nock(SLACK)
      .post('/api/conversations.info')
      .reply(200, { ok: true, channel: { id: 'C0GENERAL', is_member: true } })
      .post('/api/chat.postMessage')
      .reply(429, { ok: false, error: 'ratelimited' }, { 'Retry-After': '70' });
    const started = Date.now();
    const error = await intentHandler(createTicket, depsFor(stores))
      .run(entryOf(fromGeneral))
      .catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(isTransient(error)).toBe(true);
    expect(retryAtOf(error)).toBeGreaterThanOrEqual(started + 70_000);
  });

  it('posts nothing and tries again later when the lease has too little time left for a post', async () => {
    const stores = createMemoryStores();
    const error = await intentHandler(createTicket, depsFor(stores))
      .run(entryOf(fromGeneral, 10_000))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LeaseRunningOutError);
    expect(isTransient(error)).toBe(true);
    expect(nock.pendingMocks()).toEqual([]);
  });

  it('finds the card a run that died after posting left, and does not post it again', async () => {
    const stores = createMemoryStores();
    const intent = intentHandler(createTicket, depsFor(stores));
    nock(SLACK)
      .post('/api/conversations.info')
      .reply(200, { ok: true, channel: { id: 'C0GENERAL', is_member: true } })
      .post('/api/chat.postMessage')
      .reply(200, { ok: true, channel: 'C0GENERAL', ts: '222.1' });
    const first = filed(await intent.run(entryOf(fromGeneral)));
    // The process dies here: the entry is never completed, and its lease lapses.
    const card = {
      ts: '222.1',
      metadata: { event_type: 'servicedesk_ticket', event_payload: { ticket_id: 'IT-30' } },
    };
    let posts = 0;
    nock(SLACK)
      .post('/api/conversations.open')
      .reply(200, { ok: true, channel: { id: 'D0ALICE' } })
      .post('/api/conversations.history', (body) => form(body).channel === 'C0GENERAL')
      .reply(200, { ok: true, messages: [{ ts: '222.0', text: 'hi' }, card] })
      .post('/api/chat.postMessage', () => {
        posts++;
        return true;
      })
      .optionally()
      .reply(200, { ok: true, channel: 'C0GENERAL', ts: '333.1' });
    const again = filed(await intent.run(entryOf(fromGeneral)));
    expect(posts).toBe(0);
    expect(again).toMatchObject({ channel: 'C0GENERAL', ts: first.ts, threadTs: first.ts });
    expect(await stores.links.threadsForTicket('IT-30')).toEqual([
      { channel: 'C0GENERAL', threadTs: '222.1' },
    ]);
  });

  it('posts nothing and tries again later when Slack fails the search for an earlier card', async () => {
    const stores = createMemoryStores();
    const intent = intentHandler(createTicket, depsFor(stores));
    // An earlier run marked its post and died: this run must look before posting.
    await stores.claims.claim('card-post:view:V1', 60_000);
    let posts = 0;
    nock(SLACK)
      .post('/api/conversations.open')
      .reply(200, { ok: true, channel: { id: 'D0ALICE' } })
      .post('/api/conversations.history')
      .times(2)
      .reply(500, 'oops')
      .post('/api/chat.postMessage', () => {
        posts++;
        return true;
      })
      .optionally()
      .reply(200, { ok: true, channel: 'C0GENERAL', ts: '9.9' });
    const error = await intent.run(entryOf(fromGeneral)).catch((e: unknown) => e);
    expect(isTransient(error)).toBe(true);
    expect(posts).toBe(0);
  });

  it('tells the person the ticket is filed when Slack refuses the app’s token for its card', async () => {
    const stores = createMemoryStores();
    nock(SLACK)
      .post('/api/conversations.info')
      .reply(200, { ok: true, channel: { id: 'C0GENERAL', is_member: true } })
      .post('/api/chat.postMessage')
      .reply(200, { ok: false, error: 'invalid_auth' });
    const error = await intentHandler(createTicket, depsFor(stores))
      .run(entryOf(fromGeneral))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TicketNotPostedError);
    expect(describeFailure(error, 'ticket')).toContain('filed as *IT-30*');
  });

  it('names the channel and how to invite the app when a reacted message cannot be read there', async () => {
    const stores = createMemoryStores();
    nock(SLACK)
      .post('/api/conversations.replies')
      .reply(200, { ok: false, error: 'not_in_channel' });
    const reacted: CreateTicketPayload = {
      actorUserId: 'U0ALICE',
      requesterUserIds: ['U0ALICE'],
      fromMessage: { channel: 'C0GENERAL', ts: '5.5' },
      reply: { kind: 'thread', channel: 'C0GENERAL' },
    };
    const error = await intentHandler(createTicket, depsFor(stores))
      .run(entryOf(reacted))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppNotInChannelError);
    const reason = describeFailure(error, 'ticket');
    expect(reason).toContain('<#C0GENERAL>');
    expect(reason).toContain('/invite @Service Desk');
  });
});

describe('the create-ticket intent filed from a private prompt', () => {
  beforeAll(() => {
    nock.disableNetConnect();
  });
  afterEach(() => {
    nock.cleanAll();
  });

  const HOOKS = 'https://hooks.slack.test';
  const fromPrompt: CreateTicketPayload = {
    ...fromGeneral,
    reply: { kind: 'card', channel: 'D0ALICE' },
    responseUrl: `${HOOKS}/actions/T1/1/abc`,
  };

  function cardPosted() {
    return nock(SLACK)
      .post('/api/chat.postMessage')
      .reply(200, { ok: true, channel: 'D0ALICE', ts: '111.444' });
  }

  it('turns the private “Filing…” into the filed ticket once it exists', async () => {
    const replaced: Record<string, unknown>[] = [];
    cardPosted();
    nock(HOOKS)
      .post('/actions/T1/1/abc', (body) => {
        replaced.push(body as Record<string, unknown>);
        return true;
      })
      .reply(200, { ok: true });
    await intentHandler(createTicket, depsFor(createMemoryStores())).run(entryOf(fromPrompt));
    expect(replaced).toHaveLength(1);
    expect(replaced[0]?.replace_original).toBe(true);
    expect(replaced[0]?.text).toContain('*IT-30* is filed');
    expect(replaced[0]?.text).toContain('direct messages');
  });

  it('still files and posts the card when Slack refuses the response_url', async () => {
    cardPosted();
    nock(HOOKS).post('/actions/T1/1/abc').reply(404, 'used_url');
    const result = filed(
      await intentHandler(createTicket, depsFor(createMemoryStores())).run(entryOf(fromPrompt)),
    );
    expect(result).toMatchObject({ ticketId: 'IT-30', channel: 'D0ALICE', ts: '111.444' });
    expect(nock.isDone()).toBe(true);
  });
});

describe('the create-ticket intent when Slack does not answer', () => {
  it('tries again later when Slack does not answer the post in time, looking first next time', async () => {
    // A real loopback server that answers every method but the post, which it never answers.
    const server = createServer((req, res) => {
      if (req.url?.endsWith('/chat.postMessage')) return;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ ok: true, channel: { id: 'C0GENERAL', is_member: true } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    nock.enableNetConnect('127.0.0.1');
    const { port } = server.address() as AddressInfo;
    try {
      const stores = createMemoryStores();
      const deps = depsFor(stores, 200, `http://127.0.0.1:${port}`);
      const error = await intentHandler(createTicket, deps)
        .run(entryOf(fromGeneral))
        .catch((e: unknown) => e);
      expect(isTransient(error)).toBe(true);
      expect(await stores.links.threadsForTicket('IT-30')).toEqual([]);
      // A post that timed out may have been made: the next run looks before posting.
      expect(await stores.claims.get('card-post:view:V1')).toEqual({ state: 'leased' });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      nock.disableNetConnect();
    }
  });
});

/**
 * A request channel's filing delayed by the platform: its writer alone is told, in the
 * message's thread, or in a direct message when Slack will not take the ephemeral (nock).
 */
import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConnectionError } from '../../../src/servicedesk/errors.ts';
import { createBackgroundClient } from '../../../src/slack/app/slack-clients.ts';
import {
  type CreateTicketPayload,
  createTicket,
} from '../../../src/slack/intents/create-ticket.ts';
import { createMemoryStores } from '../../../src/store/index.ts';
import { fakeDeps, silentLogger } from '../support/fake-deps.ts';

const SLACK = 'http://slack.test';
const CHANNEL = 'C0LAPTOP';
const TS = '1700000000.000100';

const payload: CreateTicketPayload = {
  actorUserId: 'U0ALICE',
  requesterUserIds: ['U0ALICE'],
  ticket: { title: 'Laptop will not wake', desk_id: 'it' },
  reply: { kind: 'thread', channel: CHANNEL, threadTs: TS },
  tellDelayPrivately: true,
};

const platformDown = new ConnectionError({
  operation: 'createTicket',
  method: 'POST',
  path: '/api/v1/tickets/',
  causeCode: 'ECONNREFUSED',
});

function delayed(body: CreateTicketPayload = payload) {
  const deps = fakeDeps({
    client: createBackgroundClient('xoxb-test', silentLogger(), `${SLACK}/api/`),
    stores: createMemoryStores(),
  });
  const runner = createTicket.runner(deps);
  return runner.delayed?.(body, platformDown, { awaited: false });
}

const form = (body: unknown) => body as Record<string, string>;
// The delay notice in the writer's direct message with the app.
const toDm = (sent: Record<string, string>) =>
  sent.channel === 'D0ALICE' && String(sent.text).includes('not answering');

describe('a request channel’s filing delayed by the platform', () => {
  beforeAll(() => nock.disableNetConnect());
  afterAll(() => nock.enableNetConnect());
  afterEach(() => {
    expect(nock.pendingMocks()).toEqual([]);
    nock.cleanAll();
  });

  it('tells the writer alone, in the message’s thread, and posts nothing in the channel', async () => {
    nock(SLACK)
      .post('/api/chat.postEphemeral', (body) => {
        const sent = form(body);
        return (
          sent.channel === CHANNEL &&
          sent.user === 'U0ALICE' &&
          sent.thread_ts === TS &&
          String(sent.text).includes('not answering')
        );
      })
      .reply(200, { ok: true, message_ts: '1700000001.000100' });
    await delayed();
  });

  it('tells them in a direct message when Slack rate-limits the ephemeral', async () => {
    nock(SLACK)
      .post('/api/chat.postEphemeral')
      .reply(429, { ok: false, error: 'ratelimited' }, { 'retry-after': '1' })
      .post('/api/conversations.open')
      .reply(200, { ok: true, channel: { id: 'D0ALICE' } })
      .post('/api/chat.postMessage', (body) => toDm(form(body)))
      .reply(200, { ok: true, channel: 'D0ALICE', ts: '1700000002.000100' });
    await delayed();
  });

  it('tells them in a direct message when Slack answers 500 to the ephemeral', async () => {
    nock(SLACK)
      .post('/api/chat.postEphemeral')
      .times(2)
      .reply(500, 'oops')
      .post('/api/conversations.open')
      .reply(200, { ok: true, channel: { id: 'D0ALICE' } })
      .post('/api/chat.postMessage', (body) => toDm(form(body)))
      .reply(200, { ok: true, channel: 'D0ALICE', ts: '1700000002.000100' });
    await delayed();
  });

  it('still tells a DM’s delay in its thread, as before', async () => {
    nock(SLACK)
      .post('/api/chat.postMessage', (body) => {
        const sent = form(body);
        return sent.channel === 'D0ALICE' && sent.thread_ts === TS;
      })
      .reply(200, { ok: true, channel: 'D0ALICE', ts: '1700000003.000100' });
    const { tellDelayPrivately: _private, ...dm } = payload;
    await delayed({ ...dm, reply: { kind: 'thread', channel: 'D0ALICE', threadTs: TS } });
  });
});

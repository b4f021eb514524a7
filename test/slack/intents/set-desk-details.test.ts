/**
 * The set-desk-details intent: one Update ticket with the fields, as the person; its failure
 * told privately with what they entered, when Slack fails too (nock). And the offer after a
 * ticket filed without its desk's required fields, when Slack will not take the prompt.
 */
import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CustomField } from '../../../src/contract/schemas.ts';
import {
  NotFoundError,
  type Ticket,
  type UpdateTicketInput,
} from '../../../src/servicedesk/index.ts';
import { createBackgroundClient } from '../../../src/slack/app/slack-clients.ts';
import type { SlackDeps } from '../../../src/slack/deps.ts';
import type { CreateTicketPayload } from '../../../src/slack/intents/create-ticket.ts';
import { offerDeskDetails, pendingDetailsOf } from '../../../src/slack/intents/desk-details.ts';
import {
  type SetDeskDetailsPayload,
  setDeskDetails,
} from '../../../src/slack/intents/set-desk-details.ts';
import { intentHandler } from '../../../src/slack/outbox/intent-definition.ts';
import { isTransient } from '../../../src/slack/outbox/transient-errors.ts';
import { createMemoryStores } from '../../../src/store/index.ts';
import type { Stores } from '../../../src/store/types.ts';
import { ticketWith } from '../../support/ticket-fixture.ts';
import { fakeDeps, silentLogger } from '../support/fake-deps.ts';
import { reservedEntry } from '../support/reserved-entry.ts';

const SLACK = 'http://slack.test';
const TICKET: Ticket = ticketWith({
  id: 'HR-7',
  title: 'Welcome pack',
  desk_id: 'hr',
  custom_fields: {},
  created_at: '2026-11-24T08:00:00Z',
});
const START_DATE: CustomField = {
  key: 'start_date',
  name: 'Start date',
  desk_id: 'hr',
  type: 'date',
  required: true,
  options: null,
  help: null,
};

function depsFor(stores: Stores, updates: UpdateTicketInput[] = []): SlackDeps {
  return fakeDeps({
    client: createBackgroundClient('xoxb-test', silentLogger(), `${SLACK}/api/`),
    serviceDesk: {
      updateTicket: async (_id: string, input: UpdateTicketInput) => {
        updates.push(input);
        return { ...TICKET, custom_fields: input.custom_fields };
      },
    },
    stores,
    people: { email: async () => 'alice@acme.example' },
    desks: { peek: () => [{ slug: 'hr', name: 'HR', parent_slug: null }], list: async () => [] },
    deskFields: { peek: () => [START_DATE], get: async () => [START_DATE] },
  });
}

const payload: SetDeskDetailsPayload = {
  ticketId: 'HR-7',
  actorUserId: 'U0ALICE',
  customFields: { start_date: '2027-01-04' },
  channel: 'C0ITHELP',
  viewId: 'V1',
};
const entry = reservedEntry(setDeskDetails, payload, { deliveryKey: 'details:msg:C0ITHELP:1.1' });
const form = (body: unknown) => body as Record<string, string>;

describe('the set-desk-details intent', () => {
  beforeAll(() => {
    nock.disableNetConnect();
  });
  afterEach(() => {
    nock.cleanAll();
  });

  it('updates the ticket’s custom fields as the person who filed it', async () => {
    const updates: UpdateTicketInput[] = [];
    const handler = intentHandler(setDeskDetails, depsFor(createMemoryStores(), updates));
    expect(await handler.run(entry)).toEqual({ ticketId: 'HR-7' });
    expect(updates).toEqual([
      { custom_fields: { start_date: '2027-01-04' }, actor_email: 'alice@acme.example' },
    ]);
  });

  it('leaves a failure to the form whose submission is waiting for it', async () => {
    const handler = intentHandler(setDeskDetails, depsFor(createMemoryStores()));
    // No Slack call at all: nock would refuse one.
    await handler.failed(entry, new Error('x'), {
      awaited: true,
    });
    expect(nock.pendingMocks()).toEqual([]);
  });

  it('tells the person in a DM, with what they entered, when Slack answers 500 to the form and 429 to the ephemeral', async () => {
    let dm: Record<string, string> | undefined;
    nock(SLACK)
      .post('/api/views.update')
      .times(2)
      .reply(500, 'oops')
      .post('/api/chat.postEphemeral')
      .reply(429, { ok: false, error: 'ratelimited' }, { 'retry-after': '1' })
      .post('/api/conversations.open')
      .reply(200, { ok: true, channel: { id: 'D0ALICE' } })
      .post('/api/chat.postMessage', (body) => {
        dm = form(body);
        return true;
      })
      .reply(200, { ok: true, channel: 'D0ALICE', ts: '2.2' });
    const handler = intentHandler(setDeskDetails, depsFor(createMemoryStores()));
    const gone = new NotFoundError({
      operation: 'updateTicket',
      method: 'PATCH',
      path: '/api/v1/tickets/HR-7/',
      status: 404,
      headers: {},
      body: { detail: 'Not Found' },
    });
    await handler.failed(entry, gone, { awaited: false });
    expect(dm?.channel).toBe('D0ALICE');
    expect(dm?.blocks).toContain('start_date: 2027-01-04');
    expect(dm?.text).toContain('no longer exists');
  });
});

describe('offering the missing desk fields of a filed ticket', () => {
  beforeAll(() => {
    nock.disableNetConnect();
  });
  afterEach(() => {
    nock.cleanAll();
  });

  const filing: CreateTicketPayload = {
    actorUserId: 'U0ALICE',
    requesterUserIds: ['U0ALICE'],
    ticket: { title: 'Welcome pack', desk_id: 'hr' },
    reply: { kind: 'thread', channel: 'C0ITHELP', threadTs: '1.1' },
  };
  const filed = (over: Partial<Parameters<typeof offerDeskDetails>[1]> = {}) => ({
    deliveryKey: 'msg:C0ITHELP:1.1',
    payload: filing,
    ticket: TICKET,
    deskId: 'hr',
    threadTs: undefined,
    ...over,
  });

  it('asks privately and keeps what the form needs', async () => {
    const stores = createMemoryStores();
    let asked: Record<string, string> | undefined;
    nock(SLACK)
      .post('/api/chat.postEphemeral', (body) => {
        asked = form(body);
        return true;
      })
      .reply(200, { ok: true, message_ts: '3.3' });
    await offerDeskDetails(depsFor(stores), filed());
    expect(asked?.text).toContain('*HR-7* is filed');
    expect(asked?.text).toContain('*Start date*');
    expect(await pendingDetailsOf({ stores }, 'msg:C0ITHELP:1.1')).toMatchObject({
      ticketId: 'HR-7',
      actorUserId: 'U0ALICE',
      keys: ['start_date'],
    });
  });

  it('asks nothing of a ticket that has its fields, or of a form’s filing', async () => {
    const stores = createMemoryStores();
    const complete = { ...TICKET, custom_fields: { start_date: '2027-01-04' } };
    await offerDeskDetails(depsFor(stores), filed({ ticket: complete }));
    await offerDeskDetails(depsFor(stores), filed({ payload: { ...filing, viewId: 'V1' } }));
    expect(await pendingDetailsOf({ stores }, 'msg:C0ITHELP:1.1')).toBeUndefined();
  });

  it('throws a transient failure for the entry to retry when Slack answers 500 to the ephemeral and the DM', async () => {
    nock(SLACK)
      .post('/api/chat.postEphemeral')
      .times(2)
      .reply(500, 'oops')
      .post('/api/conversations.open')
      .times(2)
      .reply(500, 'oops');
    const failure = await offerDeskDetails(depsFor(createMemoryStores()), filed()).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isTransient(failure)).toBe(true);
  });

  it('lets the filed ticket stand when Slack refuses the prompt and the DM for good', async () => {
    nock(SLACK)
      .post('/api/chat.postEphemeral')
      .reply(200, { ok: false, error: 'channel_not_found' })
      .post('/api/conversations.open')
      .reply(200, { ok: false, error: 'user_disabled' });
    await expect(offerDeskDetails(depsFor(createMemoryStores()), filed())).resolves.toBeUndefined();
    expect(nock.isDone()).toBe(true);
  });
});

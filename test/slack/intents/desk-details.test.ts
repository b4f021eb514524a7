/**
 * A filing without a form that its desk refuses for lacking required fields: the create-ticket
 * intent keeps it, asks its person privately, and completes; Slack failing the prompt (nock)
 * falls back to a DM, or is retried with nothing filed.
 */
import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CustomField } from '../../../src/contract/schemas.ts';
import {
  type CreateTicketInput,
  ServerError,
  ValidationError,
} from '../../../src/servicedesk/index.ts';
import { createBackgroundClient } from '../../../src/slack/app/slack-clients.ts';
import type { SlackDeps } from '../../../src/slack/deps.ts';
import { DetailsNotKeptError } from '../../../src/slack/errors.ts';
import {
  type CreateTicketPayload,
  createTicket,
} from '../../../src/slack/intents/create-ticket.ts';
import {
  awaitsDetails,
  deskDetailsKey,
  missingDeskFields,
  type PendingFiling,
  pendingDetailsOf,
  tellAwaitingDetails,
} from '../../../src/slack/intents/desk-details.ts';
import { intentHandler } from '../../../src/slack/outbox/intent-definition.ts';
import { isTransient } from '../../../src/slack/outbox/transient-errors.ts';
import { createMemoryStores } from '../../../src/store/index.ts';
import type { ReservedEntry, Stores } from '../../../src/store/types.ts';
import { fakeDeps, silentLogger } from '../support/fake-deps.ts';
import { reservedEntry } from '../support/reserved-entry.ts';

const SLACK = 'http://slack.test';
const KEY = 'msg:C0ITHELP:1700000000.000100';
const HR_FIELDS: CustomField[] = [
  {
    key: 'start_date',
    name: 'Start date',
    desk_id: 'hr',
    type: 'date',
    required: true,
    options: null,
    help: null,
  },
  {
    key: 'manager_email',
    name: 'Manager’s email',
    desk_id: 'hr',
    type: 'email',
    required: true,
    options: null,
    help: null,
  },
];

const apiInit = (status: number, body: unknown) => ({
  operation: 'createTicket' as const,
  method: 'POST',
  path: '/api/v1/tickets/',
  status,
  headers: {},
  body,
});
const missing = (...keys: string[]) =>
  new ValidationError(
    apiInit(422, {
      detail: keys.map((key) => ({
        loc: ['body', 'custom_fields', key],
        msg: 'Field required',
        type: 'missing',
      })),
    }),
  );

interface Setup {
  stores: Stores;
  deps: SlackDeps;
  sent: CreateTicketInput[];
}

function setup(
  options: { refuse?: unknown; fields?: CustomField[] | Error; desks?: boolean } = {},
): Setup {
  const stores = createMemoryStores();
  const sent: CreateTicketInput[] = [];
  const fields = options.fields ?? HR_FIELDS;
  const deps = fakeDeps({
    settings: { channelDesks: new Map([['C0ITHELP', 'hr']]) },
    client: createBackgroundClient('xoxb-test', silentLogger(), `${SLACK}/api/`),
    serviceDesk: {
      createTicket: async (input: CreateTicketInput) => {
        sent.push(input);
        throw options.refuse ?? missing('start_date', 'manager_email');
      },
      listCustomFields: async () => {
        if (fields instanceof Error) throw fields;
        return { items: fields, total_count: fields.length };
      },
    },
    desks: {
      peek: () => [{ slug: 'hr', name: 'People & HR', parent_slug: null }],
      list: async () => [],
    },
    stores,
    people: {
      person: async (id: string) => ({
        id,
        name: 'Alice',
        email: 'alice@acme.example',
        isBot: false,
      }),
    },
    mirror: { slackWrote: async () => {}, ticketFiled: () => {} },
    // None kept (a refusal names its fields from the platform's list); a prompt given again
    // names them by their keys.
    deskFields: undefined,
  });
  return { stores, deps, sent };
}

function entryOf(payload: CreateTicketPayload): ReservedEntry {
  return reservedEntry(createTicket, payload, { deliveryKey: KEY });
}

/** A request channel's message, as the listener queues it (its desk set from CHANNEL_DESKS). */
const fromChannel: CreateTicketPayload = {
  actorUserId: 'U0ALICE',
  requesterUserIds: ['U0ALICE'],
  ticket: { title: 'Laptop for Kim', description: 'Laptop for Kim, starts soon', desk_id: 'hr' },
  reply: { kind: 'thread', channel: 'C0ITHELP', threadTs: '1700000000.000100' },
  tellDelayPrivately: true,
};

const form = (body: unknown) => body as Record<string, string>;

describe('missingDeskFields', () => {
  it('names the keys of a 422 about desk fields only', () => {
    expect(missingDeskFields(missing('start_date', 'manager_email'))).toEqual([
      'start_date',
      'manager_email',
    ]);
  });

  it('is undefined for a 422 that names another field too', () => {
    const mixed = new ValidationError(
      apiInit(422, {
        detail: [
          { loc: ['body', 'custom_fields', 'start_date'], msg: 'Field required', type: 'missing' },
          { loc: ['body', 'title'], msg: 'Field required', type: 'missing' },
        ],
      }),
    );
    expect(missingDeskFields(mixed)).toBeUndefined();
  });

  it('is undefined for any other failure', () => {
    expect(missingDeskFields(new ServerError(apiInit(503, { detail: 'down' })))).toBeUndefined();
  });
});

describe('the create-ticket intent on a desk that requires fields', () => {
  beforeAll(() => {
    nock.disableNetConnect();
  });
  afterEach(() => {
    nock.cleanAll();
  });

  it('keeps the filing, asks its person privately with the button, and completes', async () => {
    const { stores, deps } = setup();
    const posted: Record<string, string>[] = [];
    nock(SLACK)
      .post('/api/chat.postEphemeral', (body) => {
        posted.push(form(body));
        return true;
      })
      .reply(200, { ok: true, message_ts: '1700000001.000100' });
    const result = await intentHandler(createTicket, deps).run(entryOf(fromChannel));
    expect(result).toEqual({
      awaitingDetails: true,
      deskId: 'hr',
      keys: ['start_date', 'manager_email'],
    });
    expect(posted).toHaveLength(1);
    expect(posted[0]).toMatchObject({ channel: 'C0ITHELP', user: 'U0ALICE' });
    // Its own message is top-level: the prompt is where they wrote it, not in a thread.
    expect(posted[0]?.thread_ts).toBeUndefined();
    expect(posted[0]?.text).toContain('*People &amp; HR* desk');
    expect(posted[0]?.text).toContain('*Start date*, *Manager’s email*');
    expect(posted[0]?.blocks).toContain('add_desk_details');
    expect(posted[0]?.blocks).toContain(KEY);
    const pending = await pendingDetailsOf({ stores }, KEY);
    expect(pending).toMatchObject({
      deskId: 'hr',
      keys: ['start_date', 'manager_email'],
      filing: { ticket: fromChannel.ticket, reply: fromChannel.reply },
    });
  });

  it('files a reacted message to its channel’s desk and keeps its words, author and thread', async () => {
    const { stores, deps, sent } = setup();
    nock(SLACK)
      .post('/api/conversations.replies')
      .reply(200, {
        ok: true,
        messages: [
          { type: 'message', user: 'U0BOB', ts: '1699999999.000100', text: 'Onboarding' },
          {
            type: 'message',
            user: 'U0BOB',
            ts: '1700000000.000100',
            thread_ts: '1699999999.000100',
            text: 'New starter Dana needs accounts',
          },
        ],
      })
      .post('/api/chat.getPermalink')
      .reply(200, { ok: true, permalink: 'https://acme.slack.com/archives/C0ITHELP/p1' })
      // A reply: the prompt goes into its thread, where they reacted.
      .post('/api/chat.postEphemeral', (body) => form(body).thread_ts === '1699999999.000100')
      .reply(200, { ok: true, message_ts: '1700000001.000100' });
    const reaction: CreateTicketPayload = {
      actorUserId: 'U0ALICE',
      requesterUserIds: ['U0ALICE'],
      fromMessage: { channel: 'C0ITHELP', ts: '1700000000.000100' },
      reply: { kind: 'thread', channel: 'C0ITHELP' },
    };
    await intentHandler(createTicket, deps).run(entryOf(reaction));
    expect(sent[0]?.desk_id).toBe('hr');
    const pending = (await pendingDetailsOf({ stores }, KEY)) as PendingFiling | undefined;
    expect(pending?.filing.requesterUserIds[0]).toBe('U0BOB');
    expect(pending?.filing.ticket?.title).toBe('New starter Dana needs accounts');
    expect(pending?.filing.ticket?.description).toContain('https://acme.slack.com/archives/');
    expect(pending?.filing.reply).toEqual({
      kind: 'thread',
      channel: 'C0ITHELP',
      threadTs: '1699999999.000100',
    });
    expect(nock.isDone()).toBe(true);
  });

  it('asks in a direct message when Slack rate-limits the ephemeral', async () => {
    const { deps } = setup();
    let dm: Record<string, string> | undefined;
    nock(SLACK)
      .post('/api/chat.postEphemeral')
      .reply(429, { ok: false, error: 'ratelimited' }, { 'retry-after': '1' })
      .post('/api/conversations.open')
      .reply(200, { ok: true, channel: { id: 'D0ALICE' } })
      .post('/api/chat.postMessage', (body) => {
        dm = form(body);
        return true;
      })
      .reply(200, { ok: true, channel: 'D0ALICE', ts: '1700000002.000100' });
    const result = await intentHandler(createTicket, deps).run(entryOf(fromChannel));
    expect(result).toMatchObject({ awaitingDetails: true });
    expect(dm?.channel).toBe('D0ALICE');
    expect(dm?.blocks).toContain('Add the details');
  });

  it('is retried with nothing filed when Slack answers 500 to the ephemeral and the DM, and asks once it answers', async () => {
    const { stores, deps } = setup();
    nock(SLACK)
      .post('/api/chat.postEphemeral')
      .times(2)
      .reply(500, 'oops')
      .post('/api/conversations.open')
      .times(2)
      .reply(500, 'oops');
    const handler = intentHandler(createTicket, deps);
    const failure = await handler.run(entryOf(fromChannel)).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeDefined();
    expect(isTransient(failure)).toBe(true);
    // The filing is kept already; the retry finds it and asks.
    expect(await pendingDetailsOf({ stores }, KEY)).toBeDefined();
    nock(SLACK)
      .post('/api/chat.postEphemeral')
      .reply(200, { ok: true, message_ts: '1700000003.000100' });
    expect(await handler.run(entryOf(fromChannel))).toMatchObject({ awaitingDetails: true });
    expect(nock.isDone()).toBe(true);
  });

  it('is retried, asking nothing yet, while another run holds the filing’s key', async () => {
    const { stores, deps } = setup();
    await stores.claims.claim(`desk-details:${KEY}`, 60_000);
    const failure = await intentHandler(createTicket, deps)
      .run(entryOf(fromChannel))
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(failure).toBeInstanceOf(DetailsNotKeptError);
    expect(isTransient(failure)).toBe(true);
    // No Slack call was made: nock would have refused it.
    expect(nock.pendingMocks()).toEqual([]);
  });

  it('leaves a form’s own submission to show the 422 on its inputs', async () => {
    const { stores, deps } = setup();
    const run = intentHandler(createTicket, deps).run(entryOf({ ...fromChannel, viewId: 'V1' }));
    await expect(run).rejects.toBeInstanceOf(ValidationError);
    expect(await pendingDetailsOf({ stores }, KEY)).toBeUndefined();
  });

  it('fails as before when the 422 names more than the desk’s fields', async () => {
    const refuse = new ValidationError(
      apiInit(422, {
        detail: [{ loc: ['body', 'title'], msg: 'String too long', type: 'string_too_long' }],
      }),
    );
    const { stores, deps } = setup({ refuse });
    await expect(intentHandler(createTicket, deps).run(entryOf(fromChannel))).rejects.toBe(refuse);
    expect(await pendingDetailsOf({ stores }, KEY)).toBeUndefined();
  });

  it('fails as before when a required field is one the form cannot show', async () => {
    const odd: CustomField = { ...HR_FIELDS[0], key: 'badge', type: 'signature' } as CustomField;
    const { stores, deps } = setup({ refuse: missing('badge'), fields: [odd] });
    await expect(
      intentHandler(createTicket, deps).run(entryOf(fromChannel)),
    ).rejects.toBeInstanceOf(ValidationError);
    expect(await pendingDetailsOf({ stores }, KEY)).toBeUndefined();
  });

  it('names the fields by their keys when the desk’s fields cannot be listed', async () => {
    const { deps } = setup({ fields: new Error('down') });
    let text = '';
    nock(SLACK)
      .post('/api/chat.postEphemeral', (body) => {
        text = form(body).text ?? '';
        return true;
      })
      .reply(200, { ok: true, message_ts: '1700000001.000100' });
    await intentHandler(createTicket, deps).run(entryOf(fromChannel));
    expect(text).toContain('*start_date*, *manager_email*');
  });

  it('files the details under a key of its own, never the first filing’s', () => {
    expect(deskDetailsKey(KEY)).not.toBe(KEY);
    expect(deskDetailsKey(KEY)).toContain(KEY);
  });
});

describe('telling a second 🎫 on a message that waits for its desk’s fields', () => {
  beforeAll(() => {
    nock.disableNetConnect();
  });
  afterEach(() => {
    nock.cleanAll();
  });

  async function waiting(): Promise<Setup> {
    const set = setup();
    nock(SLACK).post('/api/chat.postEphemeral').reply(200, { ok: true, message_ts: '1.5' });
    await intentHandler(createTicket, set.deps).run(entryOf(fromChannel));
    return set;
  }

  it('gives its filer the prompt again', async () => {
    const { deps } = await waiting();
    let sent: Record<string, string> | undefined;
    nock(SLACK)
      .post('/api/chat.postEphemeral', (body) => {
        sent = form(body);
        return true;
      })
      .reply(200, { ok: true, message_ts: '1.6' });
    await tellAwaitingDetails(deps, KEY, { userId: 'U0ALICE', channel: 'C0ITHELP' });
    expect(sent?.text).toContain('needs a few more details');
    expect(sent?.blocks).toContain(KEY);
  });

  it('tells anyone else who was asked, in a DM when Slack answers 500 to the ephemeral', async () => {
    const { deps } = await waiting();
    let dm: Record<string, string> | undefined;
    nock(SLACK)
      .post('/api/chat.postEphemeral')
      .times(2)
      .reply(500, 'oops')
      .post('/api/conversations.open')
      .reply(200, { ok: true, channel: { id: 'D0BOB' } })
      .post('/api/chat.postMessage', (body) => {
        dm = form(body);
        return true;
      })
      .reply(200, { ok: true, channel: 'D0BOB', ts: '1.7' });
    await tellAwaitingDetails(deps, KEY, { userId: 'U0BOB', channel: 'C0ITHELP' });
    expect(dm?.channel).toBe('D0BOB');
    expect(dm?.text).toContain('<@U0ALICE> was asked for them');
    expect(dm?.blocks).not.toContain('add_desk_details');
  });

  it('tells a waiting filing’s remembered result from a filed one’s', () => {
    expect(awaitsDetails({ awaitingDetails: true, deskId: 'hr', keys: ['start_date'] })).toBe(true);
    expect(awaitsDetails({ ticketId: 'HR-1', channel: 'C0ITHELP', ts: '1.1' })).toBe(false);
    expect(awaitsDetails(undefined)).toBe(false);
  });
});

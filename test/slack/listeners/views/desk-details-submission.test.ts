/** The details form's answer to Slack: for a refused filing, for a filed ticket, and refusals. */
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../../src/servicedesk/index.ts';
import { encodeDeskDetailsMetadata } from '../../../../src/slack/builders/required-fields-prompt-builder.ts';
import type { Settlement } from '../../../../src/slack/deps.ts';
import type { PendingDetails } from '../../../../src/slack/intents/desk-details.ts';
import { deskDetailsSubmission } from '../../../../src/slack/listeners/views/desk-details-submission.ts';
import { createMemoryStores } from '../../../../src/store/index.ts';
import { DAY_MS, type JsonValue } from '../../../../src/store/types.ts';
import { fakeDeps } from '../../support/fake-deps.ts';

const KEY = 'msg:C0ITHELP:1.1';

const refusedFiling: PendingDetails = {
  filing: {
    actorUserId: 'U0BOB',
    requesterUserIds: ['U0ALICE', 'U0BOB'],
    ticket: { title: 'Laptop for Kim', description: 'She starts Monday', desk_id: 'hr' },
    reply: { kind: 'thread', channel: 'C0ITHELP', threadTs: '1.1' },
  },
  deskId: 'hr',
  keys: ['start_date'],
};
const filedTicket: PendingDetails = {
  ticketId: 'HR-7',
  actorUserId: 'U0BOB',
  channel: 'C0ITHELP',
  deskId: 'hr',
  keys: ['start_date'],
};

const text = (value: string) => ({ type: 'plain_text_input', value });
const date = (value: string) => ({ type: 'datepicker', selected_date: value });

async function submit(options: {
  pending?: PendingDetails;
  user?: string;
  values?: Record<string, Record<string, unknown>>;
  settled?: Settlement;
}) {
  const stores = createMemoryStores();
  if (options.pending) {
    const claim = await stores.claims.claim(`desk-details:${KEY}`, 1_000);
    if (claim.state === 'claimed')
      await stores.claims.complete(
        `desk-details:${KEY}`,
        claim.token,
        options.pending as unknown as JsonValue,
        DAY_MS,
      );
  }
  const submitted: { key: string; kind: string; payload: unknown }[] = [];
  const acks: unknown[] = [];
  const deps = fakeDeps({
    stores,
    settings: { submitWaitMs: 10 },
    deskFields: { peek: () => undefined },
    worker: {
      async submit(key, kind, payload) {
        submitted.push({ key, kind, payload });
        return {
          outcome: { enqueued: true, id: 'e1' },
          ...(options.settled ? { settled: options.settled } : {}),
        };
      },
    },
  });
  const values = options.values ?? {
    title: { title_input: text('Laptop for Kim Li') },
    description: { description_input: text('She starts Monday') },
    cf_start_date: { 'custom_field_date.start_date': date('2027-01-04') },
  };
  const args = {
    ack: async (answer?: unknown) => {
      acks.push(answer);
    },
    body: { user: { id: options.user ?? 'U0BOB' } },
    view: {
      id: 'V9',
      private_metadata: encodeDeskDetailsMetadata(KEY),
      blocks: Object.keys(values).map((block_id) => ({ type: 'input', block_id })),
      state: { values },
    },
  };
  await deskDetailsSubmission(deps)(args as never);
  return { acks, submitted };
}

describe('the details form’s submission', () => {
  it('files the kept filing with the words as left and the fields, under the details’ key', async () => {
    const { acks, submitted } = await submit({
      pending: refusedFiling,
      settled: { state: 'done', result: { ticketId: 'HR-8', channel: 'C0ITHELP' } },
    });
    expect(acks).toEqual([{ response_action: 'clear' }]);
    expect(submitted).toHaveLength(1);
    expect(submitted[0]).toMatchObject({
      key: `details:${KEY}`,
      kind: 'create_ticket',
      payload: {
        actorUserId: 'U0BOB',
        requesterUserIds: ['U0ALICE', 'U0BOB'],
        ticket: {
          title: 'Laptop for Kim Li',
          description: 'She starts Monday',
          desk_id: 'hr',
          custom_fields: { start_date: '2027-01-04' },
        },
        viewId: 'V9',
      },
    });
  });

  it('shows an emptied title on its input and files nothing', async () => {
    const { acks, submitted } = await submit({
      pending: refusedFiling,
      values: { title: { title_input: text('') } },
    });
    expect(acks).toEqual([
      { response_action: 'errors', errors: { title: 'Give the ticket a title.' } },
    ]);
    expect(submitted).toHaveLength(0);
  });

  it('adds a filed ticket’s fields with one update, and shows the platform’s refusal on its input', async () => {
    const refusal = new ValidationError({
      operation: 'updateTicket',
      method: 'PATCH',
      path: '/api/v1/tickets/HR-7/',
      status: 422,
      headers: {},
      body: {
        detail: [
          {
            loc: ['body', 'custom_fields', 'start_date'],
            msg: 'Input should be a valid date',
            type: 'date_parsing',
          },
        ],
      },
    });
    const { acks, submitted } = await submit({
      pending: filedTicket,
      values: { cf_start_date: { 'custom_field_date.start_date': date('2027-01-04') } },
      settled: { state: 'failed', error: refusal },
    });
    expect(submitted[0]).toMatchObject({
      key: `details:${KEY}`,
      kind: 'set_desk_details',
      payload: { ticketId: 'HR-7', customFields: { start_date: '2027-01-04' }, viewId: 'V9' },
    });
    expect(acks).toEqual([
      { response_action: 'errors', errors: { cf_start_date: 'Input should be a valid date' } },
    ]);
  });

  it('refuses anyone but the person who filed, and files nothing', async () => {
    const { acks, submitted } = await submit({ pending: refusedFiling, user: 'U0EVE' });
    expect(JSON.stringify(acks[0])).toContain('Only the person who asked');
    expect(submitted).toHaveLength(0);
  });

  it('says a filing no longer kept is gone, where its words still are', async () => {
    const { acks, submitted } = await submit({});
    expect(JSON.stringify(acks[0])).toContain('no longer keeps it');
    expect(submitted).toHaveLength(0);
  });
});

/** The create form's desk select: the swap's views.update, and Slack failing it (nock). */
import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CustomField } from '../../../../src/contract/schemas.ts';
import { buildCreateModal } from '../../../../src/slack/builders/create-modal-builder.ts';
import type { Reads } from '../../../../src/slack/deps.ts';
import { deskSelectChanged } from '../../../../src/slack/listeners/actions/desk-select-changed.ts';
import {
  collectedTasks,
  fakePart,
  interactiveTestClient,
  SLACK_TEST_URL,
  warningsLogger,
} from '../../support/fake-deps.ts';

const SLACK = SLACK_TEST_URL;

const hrFields: CustomField[] = [
  { key: 'start_date', name: 'Start date', desk_id: 'hr', type: 'date', required: true },
];

function setUp() {
  const { logger, warnings } = warningsLogger();
  const { tasks, running } = collectedTasks();
  const handler = deskSelectChanged({
    // The one retry after a 5xx, without its wait.
    client: interactiveTestClient(),
    deskFields: { peek: () => hrFields, get: async () => hrFields },
    logger,
    // The fields are kept: nothing is read, so nothing is taken from the person's share.
    reads: fakePart<Reads>('reads', { payer: () => async () => {} }),
    tasks,
  });
  const view = {
    ...buildCreateModal({ privateMetadata: '{}', desks: [{ slug: 'hr', name: 'People' }] }),
    id: 'V1',
    hash: '1.abc',
    state: {
      values: {
        title: { title_input: { type: 'plain_text_input', value: 'Onboarding' } },
        desk: { desk_select: { type: 'static_select', selected_option: { value: 'hr' } } },
      },
    },
  };
  const choose = async () => {
    await handler({
      ack: async () => {},
      body: {
        user: { id: 'U0BOB' },
        view,
        actions: [{ action_id: 'desk_select', selected_option: { value: 'hr' } }],
      },
    } as never);
    return Promise.all(running);
  };
  return { warnings, choose };
}

describe('desk select changed', () => {
  beforeAll(() => nock.disableNetConnect());
  afterAll(() => nock.enableNetConnect());
  afterEach(() => {
    expect(nock.pendingMocks()).toEqual([]);
    nock.cleanAll();
  });

  it('updates the form under the hash of the view it was chosen in, with what was typed', async () => {
    let sent: Record<string, string> = {};
    nock(SLACK)
      .post('/api/views.update', (body: Record<string, string>) => {
        sent = body;
        return true;
      })
      .reply(200, { ok: true, view: { id: 'V1' } });
    await setUp().choose();
    expect(sent.view_id).toBe('V1');
    expect(sent.hash).toBe('1.abc');
    const view = JSON.parse(sent.view ?? '{}') as { blocks: { block_id?: string }[] };
    expect(view.blocks.map((b) => b.block_id)).toContain('cf_start_date');
    expect(sent.view).toContain('"initial_value":"Onboarding"');
  });

  it('leaves the form as it is when Slack answers 429 with a long Retry-After', async () => {
    nock(SLACK)
      .post('/api/views.update')
      .reply(429, { ok: false, error: 'ratelimited' }, { 'Retry-After': '30' });
    const { warnings, choose } = setUp();
    await choose();
    expect(warnings).toEqual(['desk fields not swapped into the create form; it stays as it was']);
  });

  it('leaves the form as it is when Slack answers 500, after the client’s one retry', async () => {
    nock(SLACK).post('/api/views.update').times(2).reply(500, 'Internal Server Error');
    const { warnings, choose } = setUp();
    await choose();
    expect(warnings).toEqual(['desk fields not swapped into the create form; it stays as it was']);
  });

  it('says nothing when a newer update has replaced the view (hash_conflict)', async () => {
    nock(SLACK).post('/api/views.update').reply(200, { ok: false, error: 'hash_conflict' });
    const { warnings, choose } = setUp();
    await choose();
    expect(warnings).toEqual([]);
  });
});

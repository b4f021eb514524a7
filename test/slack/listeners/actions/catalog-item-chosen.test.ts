/** The request form's catalog select: the item's views.update, and Slack failing it (nock). */
import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogItem, CustomField } from '../../../../src/contract/schemas.ts';
import { buildRequestModal } from '../../../../src/slack/builders/request-modal-builder.ts';
import type { CatalogRead, Reads } from '../../../../src/slack/deps.ts';
import { catalogItemChosen } from '../../../../src/slack/listeners/actions/catalog-item-chosen.ts';
import {
  collectedTasks,
  fakePart,
  interactiveTestClient,
  SLACK_TEST_URL,
  warningsLogger,
} from '../../support/fake-deps.ts';

const SLACK = SLACK_TEST_URL;

const onboarding: CatalogItem = {
  id: 'cat_006',
  name: 'New hire onboarding',
  description: 'Accounts, equipment and a desk for a new colleague.',
  desk_id: 'hr',
};
const hrFields: CustomField[] = [
  { key: 'start_date', name: 'Start date', desk_id: 'hr', type: 'date', required: true },
];

function setUp(kept: CatalogRead | undefined = { kind: 'items', items: [onboarding] }) {
  const { logger, warnings } = warningsLogger();
  const { tasks, running } = collectedTasks();
  const handler = catalogItemChosen({
    catalog: {
      peek: () => kept,
      get: async () => kept ?? { kind: 'absent' },
      within: async () => kept ?? 'loading',
    },
    // The one retry after a 5xx, without its wait.
    client: interactiveTestClient(),
    deskFields: { peek: () => hrFields, get: async () => hrFields },
    desks: { peek: () => [{ slug: 'hr', name: 'People' }], list: async () => [] },
    logger,
    // The fields are kept: nothing is read, so nothing is taken from the person's share.
    reads: fakePart<Reads>('reads', { payer: () => async () => {} }),
    tasks,
  });
  const view = {
    ...buildRequestModal({ privateMetadata: '{}', catalog: { kind: 'ready' } }),
    id: 'V1',
    hash: '1.abc',
    state: {
      values: {
        description: { description_input: { type: 'plain_text_input', value: 'Kim, sales' } },
      },
    },
  };
  const choose = async (value = 'hr|cat_006', text = 'New hire onboarding') => {
    await handler({
      ack: async () => {},
      body: {
        user: { id: 'U0BOB' },
        view,
        actions: [
          {
            action_id: 'catalog_item_select',
            selected_option: { text: { type: 'plain_text', text }, value },
          },
        ],
      },
    } as never);
    return Promise.all(running);
  };
  return { warnings, choose };
}

function capture(): { sent: Record<string, string> } {
  const box = { sent: {} as Record<string, string> };
  nock(SLACK)
    .post('/api/views.update', (body: Record<string, string>) => {
      box.sent = body;
      return true;
    })
    .reply(200, { ok: true, view: { id: 'V1' } });
  return box;
}

describe('catalog item chosen', () => {
  beforeAll(() => nock.disableNetConnect());
  afterAll(() => nock.enableNetConnect());
  afterEach(() => {
    expect(nock.pendingMocks()).toEqual([]);
    nock.cleanAll();
  });

  it('shows the item’s description and its desk’s fields under the hash it was chosen in, keeping what was typed', async () => {
    const box = capture();
    await setUp().choose();
    expect([box.sent.view_id, box.sent.hash]).toEqual(['V1', '1.abc']);
    const view = JSON.parse(box.sent.view ?? '{}') as { blocks: { block_id?: string }[] };
    expect(view.blocks.map((b) => b.block_id)).toEqual([
      'catalog_item',
      'catalog_item_about',
      'description',
      'cf_start_date',
    ]);
    expect(box.sent.view).toContain('Accounts, equipment and a desk for a new colleague.');
    expect(box.sent.view).toContain('Handled by People');
    expect(box.sent.view).toContain('"initial_value":"Kim, sales"');
  });

  it('shows an item the kept catalog does not know by its option’s name and desk', async () => {
    const box = capture();
    await setUp(undefined).choose('hr|cat_042', 'Desk plant');
    expect(box.sent.view).toContain('*Desk plant*');
    expect(box.sent.view).toContain('cf_start_date');
  });

  it('does nothing for a placeholder option (the catalog still loading)', async () => {
    const { warnings, choose } = setUp();
    await choose('none', 'Loading the catalog…');
    expect(warnings).toEqual([]);
  });

  it('leaves the form as it is when Slack answers 429 with a long Retry-After', async () => {
    nock(SLACK)
      .post('/api/views.update')
      .reply(429, { ok: false, error: 'ratelimited' }, { 'Retry-After': '30' });
    const { warnings, choose } = setUp();
    await choose();
    expect(warnings).toEqual([
      'the chosen catalog item not shown in the request form; it stays as it was',
    ]);
  });

  it('leaves the form as it is when Slack answers 500, after the client’s one retry', async () => {
    nock(SLACK).post('/api/views.update').times(2).reply(500, 'Internal Server Error');
    const { warnings, choose } = setUp();
    await choose();
    expect(warnings).toEqual([
      'the chosen catalog item not shown in the request form; it stays as it was',
    ]);
  });

  it('says nothing when a newer update has replaced the view (hash_conflict)', async () => {
    nock(SLACK).post('/api/views.update').reply(200, { ok: false, error: 'hash_conflict' });
    const { warnings, choose } = setUp();
    await choose();
    expect(warnings).toEqual([]);
  });
});

/** Opening the request form: at once from what is kept, filled in after, and Slack failing (nock). */
import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogItem, CustomField } from '../../../src/contract/schemas.ts';
import { ServerError } from '../../../src/servicedesk/index.ts';
import type { Catalog, CatalogRead, Reads } from '../../../src/slack/deps.ts';
import { openRequestModal } from '../../../src/slack/modals/request-modal.ts';
import {
  fakePart,
  interactiveTestClient,
  SLACK_TEST_URL,
  warningsLogger,
} from '../support/fake-deps.ts';

const SLACK = SLACK_TEST_URL;

const laptop: CatalogItem = {
  id: 'cat_001',
  name: 'New laptop',
  description: 'A standard laptop with the company image.',
  desk_id: 'it-hardware',
};
const serial: CustomField = {
  key: 'serial_number',
  name: 'Serial number',
  desk_id: 'it-hardware',
  type: 'text',
  required: false,
};

function setUp(options: {
  kept?: CatalogRead;
  loaded?: CatalogRead | Error;
  fieldsKept?: boolean;
}) {
  const { logger, warnings } = warningsLogger();
  const catalog: Catalog = {
    peek: () => options.kept,
    get: async () => {
      const loaded = options.loaded ?? options.kept ?? { kind: 'absent' };
      if (loaded instanceof Error) throw loaded;
      return loaded;
    },
    within: async () => options.kept ?? 'loading',
  };
  const deps = {
    catalog,
    client: interactiveTestClient(),
    deskFields: {
      peek: () => (options.fieldsKept ? [serial] : undefined),
      get: async () => [serial],
    },
    desks: { peek: () => [{ slug: 'it-hardware', name: 'Hardware' }], list: async () => [] },
    logger,
    // The person's share always has room here (the fair share has its own tests).
    reads: fakePart<Reads>('reads', {
      payer: () => async () => {},
      now: () => Date.now(),
    }),
  };
  const open = (words?: string) =>
    openRequestModal(deps, {
      triggerId: 'T1',
      userId: 'U0ALICE',
      metadata: { channel: 'C0IT' },
      words,
      tellAt: { channel: 'C0IT' },
    });
  return { warnings, open };
}

/** Records the bodies Slack got for a method. */
function record(method: string, reply: nock.ReplyFnResult | [number, unknown], times = 1) {
  const bodies: Record<string, string>[] = [];
  nock(SLACK)
    .post(`/api/${method}`, (body: Record<string, string>) => {
      bodies.push(body);
      return true;
    })
    .times(times)
    .reply(...(reply as [number, unknown]));
  return bodies;
}

const OPENED: [number, unknown] = [200, { ok: true, view: { id: 'V1', hash: '1.a' } }];

describe('opening the request form', () => {
  beforeAll(() => nock.disableNetConnect());
  afterAll(() => nock.enableNetConnect());
  afterEach(() => {
    expect(nock.pendingMocks()).toEqual([]);
    nock.cleanAll();
  });

  it('opens complete from the kept catalog and fields, the best match preselected, without an update', async () => {
    const opened = record('views.open', OPENED);
    await setUp({ kept: { kind: 'items', items: [laptop] }, fieldsKept: true }).open('laptop');
    const view = opened[0]?.view ?? '';
    expect(view).toContain('"value":"it-hardware|cat_001"');
    expect(view).toContain('cf_serial_number');
    expect(view).toContain('Handled by Hardware');
  });

  it('opens with the kept catalog’s match at once, its desk’s fields added by one update', async () => {
    const opened = record('views.open', OPENED);
    const updated = record('views.update', [200, { ok: true, view: { id: 'V1' } }]);
    await setUp({ kept: { kind: 'items', items: [laptop] } }).open('laptop');
    expect(opened[0]?.view).toContain('"value":"it-hardware|cat_001"');
    expect(opened[0]?.view).not.toContain('cf_serial_number');
    expect(updated[0]?.view).toContain('cf_serial_number');
  });

  it('opens loading when nothing is kept, then fills in the catalog under the opened view’s hash', async () => {
    const opened = record('views.open', OPENED);
    const updated = record('views.update', [200, { ok: true, view: { id: 'V1' } }]);
    await setUp({ loaded: { kind: 'items', items: [laptop] } }).open('laptop');
    expect(opened[0]?.view).toContain('Loading the service catalog');
    expect([updated[0]?.view_id, updated[0]?.hash]).toEqual(['V1', '1.a']);
    expect(updated[0]?.view).toContain('"value":"it-hardware|cat_001"');
    expect(updated[0]?.view).toContain('cf_serial_number');
  });

  it('fills in that the catalog cannot be loaded when the platform fails', async () => {
    record('views.open', OPENED);
    const updated = record('views.update', [200, { ok: true, view: { id: 'V1' } }]);
    const failure = new ServerError({
      operation: 'listCatalogItems',
      method: 'GET',
      path: '/api/v1/catalog-items/',
      status: 503,
      headers: {},
      body: {},
    });
    const { warnings, open } = setUp({ loaded: failure });
    await open();
    expect(updated[0]?.view).toContain('could not be loaded just now');
    expect(warnings).toEqual(['the service catalog could not be loaded for the request form']);
  });

  it('tells the person privately, with their words, when Slack answers views.open with 429', async () => {
    nock(SLACK)
      .post('/api/views.open')
      .reply(429, { ok: false, error: 'ratelimited' }, { 'Retry-After': '30' });
    const told = record('chat.postEphemeral', [200, { ok: true }]);
    await setUp({ kept: { kind: 'items', items: [laptop] } }).open('laptop for Kim');
    expect(told[0]?.text).toContain('Slack is busy');
    expect(JSON.stringify(told[0])).toContain('laptop for Kim');
  });

  it('tells the person privately when Slack answers views.open with 500', async () => {
    nock(SLACK).post('/api/views.open').times(2).reply(500, 'Internal Server Error');
    const told = record('chat.postEphemeral', [200, { ok: true }]);
    await setUp({ kept: { kind: 'items', items: [laptop] } }).open();
    expect(told[0]?.text).toContain('Slack did not open the form');
  });

  it('tells the person privately when Slack will not fill the form in (500)', async () => {
    record('views.open', OPENED);
    nock(SLACK).post('/api/views.update').times(2).reply(500, 'Internal Server Error');
    const told = record('chat.postEphemeral', [200, { ok: true }]);
    const { warnings, open } = setUp({ loaded: { kind: 'items', items: [laptop] } });
    await open('laptop');
    expect(told[0]?.text).toContain('Please close it and try again');
    expect(warnings).toEqual(['the request form could not be filled in']);
  });

  it('leaves a form opened from the kept catalog as it is when Slack will not add the fields', async () => {
    record('views.open', OPENED);
    nock(SLACK).post('/api/views.update').times(2).reply(500, 'Internal Server Error');
    const { warnings, open } = setUp({ kept: { kind: 'items', items: [laptop] } });
    await open('laptop');
    expect(warnings).toEqual(['the request form could not be filled in']);
  });

  it('says nothing when the person chose or closed before the catalog arrived (hash_conflict)', async () => {
    record('views.open', OPENED);
    record('views.update', [200, { ok: false, error: 'hash_conflict' }]);
    const { warnings, open } = setUp({ loaded: { kind: 'items', items: [laptop] } });
    await open();
    expect(warnings).toEqual([]);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { NotFoundError, ResponseValidationError } from '../../src/servicedesk/index.ts';
import { collect, envelope, type Harness, harness, rejectionOf } from './fixtures.ts';

const startDate = {
  key: 'start_date',
  name: 'Start date',
  desk_id: 'hr',
  type: 'date',
  required: true,
  options: null,
  help: 'The first working day.',
};

describe('listCustomFields', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('asks for one desk’s fields with desk_id, limit and offset', async () => {
    h = harness();
    h.pool
      .intercept({ path: /^\/api\/v1\/custom-fields\//, method: 'GET' })
      .reply(200, envelope([startDate]));
    const page = await h.client.listCustomFields({ desk_id: 'hr', limit: 100 });
    expect(page.items).toEqual([startDate]);
    const url = new URL(h.calls()[0]?.fullUrl ?? '');
    expect(url.pathname).toBe('/api/v1/custom-fields/');
    expect(Object.fromEntries(url.searchParams)).toEqual({ desk_id: 'hr', limit: '100' });
  });

  it('addresses the list under /service-desk under variant B', async () => {
    h = harness({ variant: 'b' });
    h.pool
      .intercept({ path: /^\/service-desk\/api\/v1\/custom-fields\//, method: 'GET' })
      .reply(200, envelope([]));
    await h.client.listCustomFields();
    expect(h.calls()[0]?.path).toBe('/service-desk/api/v1/custom-fields/');
  });

  it('reads a definition without required, options or help as an optional field', async () => {
    h = harness();
    h.pool
      .intercept({ path: /^\/api\/v1\/custom-fields\//, method: 'GET' })
      .reply(200, envelope([{ key: 'office', name: 'Office', type: 'text' }]));
    const page = await h.client.listCustomFields({ desk_id: 'it' });
    expect(page.items[0]).toMatchObject({ key: 'office', required: false });
  });

  it('passes a field type the contract does not know through', async () => {
    h = harness();
    h.pool
      .intercept({ path: /^\/api\/v1\/custom-fields\//, method: 'GET' })
      .reply(200, envelope([{ ...startDate, type: 'signature', colour: 'blue' }]));
    const page = await h.client.listCustomFields();
    expect(page.items[0]).toMatchObject({ type: 'signature', colour: 'blue' });
  });

  it('refuses a definition without a key', async () => {
    h = harness();
    h.pool
      .intercept({ path: /^\/api\/v1\/custom-fields\//, method: 'GET' })
      .reply(200, envelope([{ name: 'Office', type: 'text' }]));
    const error = await rejectionOf(h.client.listCustomFields());
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).operation).toBe('listCustomFields');
  });

  it('reports a platform without the endpoint as a NotFoundError, not retried', async () => {
    h = harness();
    h.pool
      .intercept({ path: /^\/api\/v1\/custom-fields\//, method: 'GET' })
      .reply(404, { detail: 'Not Found' });
    const error = await rejectionOf(h.client.listCustomFields({ desk_id: 'hr' }));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(h.calls()).toHaveLength(1);
  });

  it('iterates every definition page by page', async () => {
    h = harness();
    h.pool.intercept({ path: /offset=0/, method: 'GET' }).reply(200, envelope([startDate], 2));
    h.pool
      .intercept({ path: /offset=1/, method: 'GET' })
      .reply(200, envelope([{ ...startDate, key: 'manager_email', type: 'email' }], 2));
    const fields = await collect(h.client.iterateCustomFields({ desk_id: 'hr' }, { pageSize: 1 }));
    expect(fields.map((field) => field.key)).toEqual(['start_date', 'manager_email']);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { NotFoundError, ResponseValidationError } from '../../src/servicedesk/index.ts';
import { envelope, type Harness, harness, rejectionOf } from './fixtures.ts';

const laptop = {
  id: 'cat_001',
  name: 'New laptop',
  description: 'A standard laptop with the company image.',
  desk_id: 'it-hardware',
};

describe('listCatalogItems', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('asks for one page of catalog items with limit and offset', async () => {
    h = harness();
    h.pool
      .intercept({ path: /^\/api\/v1\/catalog-items\//, method: 'GET' })
      .reply(200, envelope([laptop]));
    const page = await h.client.listCatalogItems({ limit: 100, offset: 200 });
    expect(page.items).toEqual([laptop]);
    const url = new URL(h.calls()[0]?.fullUrl ?? '');
    expect(url.pathname).toBe('/api/v1/catalog-items/');
    expect(Object.fromEntries(url.searchParams)).toEqual({ limit: '100', offset: '200' });
  });

  it('reads an item without a description or desk, and passes unknown fields through', async () => {
    h = harness();
    h.pool
      .intercept({ path: /^\/api\/v1\/catalog-items\//, method: 'GET' })
      .reply(200, envelope([{ id: 'cat_9', name: 'Badge', price: 5 }]));
    const page = await h.client.listCatalogItems();
    expect(page.items[0]).toMatchObject({ id: 'cat_9', name: 'Badge', price: 5 });
  });

  it('refuses an item without a name', async () => {
    h = harness();
    h.pool
      .intercept({ path: /^\/api\/v1\/catalog-items\//, method: 'GET' })
      .reply(200, envelope([{ id: 'cat_9' }]));
    const error = await rejectionOf(h.client.listCatalogItems());
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).operation).toBe('listCatalogItems');
  });

  it('reports a platform without a service catalog as a NotFoundError, not retried', async () => {
    h = harness();
    h.pool
      .intercept({ path: /^\/api\/v1\/catalog-items\//, method: 'GET' })
      .reply(404, { detail: 'Not Found' });
    const error = await rejectionOf(h.client.listCatalogItems());
    expect(error).toBeInstanceOf(NotFoundError);
    expect(h.calls()).toHaveLength(1);
  });
});

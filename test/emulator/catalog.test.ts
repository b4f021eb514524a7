import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogItem, Envelope, Ticket } from '../../src/contract/schemas.ts';
import type { RunningEmulator } from '../../tools/emulator/index.ts';
import { call, callPath, emulator, type ValidationBody } from './support.ts';

describe('emulator service catalog', () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await emulator();
  });
  afterAll(async () => {
    await emu.close();
  });

  it('lists acme’s catalog items, each with its desk', async () => {
    const response = await call<Envelope<CatalogItem>>(emu, 'listCatalogItems', {
      query: { limit: '100' },
    });
    expect(response.status).toBe(200);
    expect(response.body.items.find((item) => item.name === 'New laptop')).toMatchObject({
      desk_id: 'it-hardware',
    });
    expect(response.body.items.every((item) => item.desk_id && item.description)).toBe(true);
  });

  it('serves the list under /service-catalog under variant B', async () => {
    const emuB = await emulator({ variant: 'b' });
    try {
      const response = await callPath<Envelope<CatalogItem>>(
        emuB,
        'GET',
        '/service-catalog/api/v1/catalog-items/',
      );
      expect(response.status).toBe(200);
      expect(response.body.items.length).toBeGreaterThan(0);
    } finally {
      await emuB.close();
    }
  });

  it('files a ticket naming its catalog item in custom_fields.catalog_item_id', async () => {
    const filed = await call<Ticket>(emu, 'createTicket', {
      body: {
        title: 'Parking permit',
        desk_id: 'facilities',
        custom_fields: { catalog_item_id: 'cat_007' },
      },
    });
    expect(filed.status).toBe(201);
    expect(filed.body.custom_fields).toEqual({ catalog_item_id: 'cat_007' });
  });

  it('refuses a catalog_item_id that names no item, at its key', async () => {
    const refused = await call<ValidationBody>(emu, 'createTicket', {
      body: { title: 'Yacht', custom_fields: { catalog_item_id: 'cat_999' } },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.detail[0]?.loc).toEqual(['body', 'custom_fields', 'catalog_item_id']);
  });

  it('lists an empty catalog once an admin empties it', async () => {
    const emptied = await emulator();
    try {
      emptied.model.setCatalogItems('acme', []);
      const response = await call<Envelope<CatalogItem>>(emptied, 'listCatalogItems');
      expect(response.body).toEqual({ items: [], total_count: 0 });
    } finally {
      await emptied.close();
    }
  });

  it('answers 404 on a platform without a service catalog', async () => {
    const without = await emulator({ capabilities: { catalog: false } });
    try {
      const listed = await call(without, 'listCatalogItems');
      expect(listed.status).toBe(404);
      expect(listed.body).toEqual({ detail: 'Not Found' });
    } finally {
      await without.close();
    }
  });
});

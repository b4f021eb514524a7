import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CustomField, Envelope, Ticket } from '../../src/contract/schemas.ts';
import type { RunningEmulator } from '../../tools/emulator/index.ts';
import { call, callPath, emulator, type ValidationBody } from './support.ts';

describe('emulator custom fields', () => {
  let emu: RunningEmulator;
  let emuB: RunningEmulator;
  beforeAll(async () => {
    emu = await emulator();
    emuB = await emulator({ variant: 'b' });
  });
  afterAll(async () => {
    await emu.close();
    await emuB.close();
  });

  const hrTicket = (custom_fields: Record<string, unknown>) => ({
    title: 'New colleague on Monday',
    desk_id: 'hr',
    custom_fields,
  });

  it('lists one desk’s field definitions with desk_id', async () => {
    const response = await call<Envelope<CustomField>>(emu, 'listCustomFields', {
      query: { desk_id: 'hr' },
    });
    expect(response.status).toBe(200);
    expect(response.body.items.map((field) => [field.key, field.type, field.required])).toEqual([
      ['start_date', 'date', true],
      ['manager_email', 'email', true],
    ]);
    expect(response.body.total_count).toBe(2);
  });

  it('lists every desk’s fields without desk_id, each naming its desk', async () => {
    const response = await call<Envelope<CustomField>>(emu, 'listCustomFields', {
      query: { limit: '100' },
    });
    const desks = new Set(response.body.items.map((field) => field.desk_id));
    expect(desks).toEqual(new Set(['it', 'it-hardware', 'it-access', 'hr', 'facilities']));
    const types = new Set(response.body.items.map((field) => field.type));
    expect(types).toEqual(
      new Set(['text', 'textarea', 'number', 'select', 'multi_select', 'date', 'email']),
    );
  });

  it('serves the list under /service-desk under variant B', async () => {
    const response = await callPath<Envelope<CustomField>>(
      emuB,
      'GET',
      '/service-desk/api/v1/custom-fields/',
      { query: { desk_id: 'it' } },
    );
    expect(response.status).toBe(200);
    expect(response.body.items.map((field) => field.key)).toEqual(['device_type', 'office']);
  });

  it('lists no fields for a desk that has none', async () => {
    const response = await call<Envelope<CustomField>>(emu, 'listCustomFields', {
      query: { desk_id: 'no-such-desk' },
    });
    expect(response.body).toEqual({ items: [], total_count: 0 });
  });

  it('refuses a create missing a required field with a 422 at its key', async () => {
    const response = await call<ValidationBody>(emu, 'createTicket', {
      body: hrTicket({ start_date: '2026-12-01' }),
    });
    expect(response.status).toBe(422);
    expect(response.body.detail).toEqual([
      { loc: ['body', 'custom_fields', 'manager_email'], msg: 'Field required', type: 'missing' },
    ]);
  });

  it('refuses a value not of its type at its key', async () => {
    const response = await call<ValidationBody>(emu, 'createTicket', {
      body: hrTicket({ start_date: '1st of December', manager_email: 'not-an-email' }),
    });
    expect(response.status).toBe(422);
    expect(response.body.detail.map((issue) => [issue.loc, issue.type])).toEqual([
      [['body', 'custom_fields', 'start_date'], 'date_parsing'],
      [['body', 'custom_fields', 'manager_email'], 'value_error'],
    ]);
  });

  it('refuses a select value outside its options', async () => {
    const response = await call<ValidationBody>(emu, 'createTicket', {
      body: { title: 'Screen flickers', desk_id: 'it', custom_fields: { device_type: 'toaster' } },
    });
    expect(response.status).toBe(422);
    expect(response.body.detail[0]).toMatchObject({
      loc: ['body', 'custom_fields', 'device_type'],
      type: 'enum',
    });
  });

  it('refuses a multi-select holding a value outside its options', async () => {
    const response = await call<ValidationBody>(emu, 'createTicket', {
      body: {
        title: 'Access please',
        desk_id: 'it-access',
        custom_fields: { systems: ['vpn', 'mainframe'] },
      },
    });
    expect(response.status).toBe(422);
    expect(response.body.detail[0]?.loc).toEqual(['body', 'custom_fields', 'systems']);
  });

  it('files valid values of every type and returns them on the ticket', async () => {
    const custom_fields = {
      floor: 3,
      location_details: 'Kitchen, by the window',
      affected_asset_id: 'ast_1',
    };
    const response = await call<Ticket>(emu, 'createTicket', {
      body: { title: 'Leaking tap', desk_id: 'facilities', custom_fields },
    });
    expect(response.status).toBe(201);
    expect(response.body.custom_fields).toEqual(custom_fields);
    const filed = await call<Ticket>(emu, 'createTicket', {
      body: hrTicket({ start_date: '2026-12-01', manager_email: 'lena@acme.example' }),
    });
    expect(filed.status).toBe(201);
  });

  it('answers 404 on a platform without custom fields, and files values unchecked', async () => {
    const without = await emulator({ capabilities: { customFields: false } });
    try {
      const listed = await call(without, 'listCustomFields', { key: null });
      expect(listed.status).toBe(404);
      expect(listed.body).toEqual({ detail: 'Not Found' });
      const filed = await call<Ticket>(without, 'createTicket', {
        body: hrTicket({ manager_email: 'not-an-email' }),
      });
      expect(filed.status).toBe(201);
      expect(filed.body.custom_fields).toEqual({ manager_email: 'not-an-email' });
    } finally {
      await without.close();
    }
  });

  it('checks the desk before its fields', async () => {
    const response = await call<ValidationBody>(emu, 'createTicket', {
      body: { title: 'Chair', desk_id: 'no-such-desk', custom_fields: {} },
    });
    expect(response.status).toBe(422);
    expect(response.body.detail[0]?.loc).toEqual(['body', 'desk_id']);
  });
});

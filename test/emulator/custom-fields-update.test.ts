/**
 * Update ticket's `custom_fields` (the contract: "custom_fields (object, merged)"), and a
 * platform that files a ticket without its required fields (`requiredFieldsOnCreate: false`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ticket } from '../../src/contract/schemas.ts';
import type { RunningEmulator } from '../../tools/emulator/index.ts';
import { call, emulator, type ValidationBody } from './support.ts';

describe('emulator custom fields on update', () => {
  let emu: RunningEmulator;
  let lenient: RunningEmulator;
  beforeAll(async () => {
    emu = await emulator();
    lenient = await emulator({ capabilities: { requiredFieldsOnCreate: false } });
  });
  afterAll(async () => {
    await emu.close();
    await lenient.close();
  });

  async function hrTicket(on: RunningEmulator, custom_fields: Record<string, unknown>) {
    const filed = await call<Ticket>(on, 'createTicket', {
      body: { title: 'New colleague on Monday', desk_id: 'hr', custom_fields },
    });
    expect(filed.status).toBe(201);
    return filed.body;
  }

  it('merges the given fields into the ticket’s, keeping the others', async () => {
    const ticket = await hrTicket(emu, {
      start_date: '2026-12-01',
      manager_email: 'lena@acme.example',
    });
    const updated = await call<Ticket>(emu, 'updateTicket', {
      ticketId: ticket.id,
      body: { custom_fields: { start_date: '2026-12-08' } },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.custom_fields).toEqual({
      start_date: '2026-12-08',
      manager_email: 'lena@acme.example',
    });
  });

  it('refuses a value not of its field’s type at its key, changing nothing', async () => {
    const ticket = await hrTicket(emu, {
      start_date: '2026-12-01',
      manager_email: 'lena@acme.example',
    });
    const refused = await call<ValidationBody>(emu, 'updateTicket', {
      ticketId: ticket.id,
      body: { priority: 'high', custom_fields: { manager_email: 'not-an-email' } },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.detail[0]?.loc).toEqual(['body', 'custom_fields', 'manager_email']);
    const now = emu.model.getTicket('acme', ticket.id);
    expect(now.priority).toBe('medium');
    expect(now.custom_fields).toMatchObject({ manager_email: 'lena@acme.example' });
  });

  it('files a ticket without its required fields when the platform asks for them later, and takes them by update', async () => {
    const ticket = await hrTicket(lenient, {});
    expect(ticket.custom_fields).toEqual({});
    const updated = await call<Ticket>(lenient, 'updateTicket', {
      ticketId: ticket.id,
      body: { custom_fields: { start_date: '2026-12-01', manager_email: 'lena@acme.example' } },
    });
    expect(updated.body.custom_fields).toEqual({
      start_date: '2026-12-01',
      manager_email: 'lena@acme.example',
    });
  });

  it('still checks the values a lenient platform is given on create', async () => {
    const refused = await call<ValidationBody>(lenient, 'createTicket', {
      body: { title: 'Badge', desk_id: 'hr', custom_fields: { start_date: 'soon' } },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.detail.map((issue) => issue.loc)).toEqual([
      ['body', 'custom_fields', 'start_date'],
    ]);
  });
});

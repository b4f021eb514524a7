import { describe, expect, it } from 'vitest';
import { TICKET_STATUSES } from '../../src/contract/schemas.ts';
import { EmulatorModel } from '../../tools/emulator/model.ts';
import { applySeed, bulkSeedTickets } from '../../tools/emulator/seed.ts';

const NOW = Date.UTC(2025, 4, 1, 12);

function seeded(kind: 'demo' | 'empty'): EmulatorModel {
  const model = new EmulatorModel(() => NOW);
  applySeed(model, kind, ['acme', 'acme', 'globex']);
  return model;
}

const everything = { page: 1, pageSize: 100 };

describe('emulator seeds', () => {
  it('gives acme tickets in every status', () => {
    const statuses = new Set(
      seeded('demo')
        .listTickets('acme', everything)
        .items.map((ticket) => ticket.status),
    );
    expect([...statuses].sort()).toEqual([...TICKET_STATUSES].sort());
  });

  it('gives acme a subdesk, about twenty employees and some agents', () => {
    const model = seeded('demo');
    const employees = model.listEmployees('acme', { limit: 100, offset: 0 }).items;
    expect(model.listDesks('acme').items.some((desk) => desk.parent_slug === 'it')).toBe(true);
    expect(employees).toHaveLength(20);
    expect(employees.filter((employee) => employee.role === 'agent').length).toBeGreaterThan(1);
  });

  it('gives acme discovered applications and assets assigned to people', () => {
    const model = seeded('demo');
    const apps = model.listApplications('acme', { limit: 100, offset: 0 }).items;
    const assets = model.listAssets('acme', { limit: 100, offset: 0, withTotal: true }).items;
    expect(apps.some((app) => app.discovered)).toBe(true);
    expect(assets.every((asset) => asset.assigned_to_email?.endsWith('@acme.example'))).toBe(true);
  });

  it('writes seeded history before the clock, so new tickets sort last', () => {
    const model = seeded('demo');
    const created = model.createTicket('acme', { title: 'New' });
    const last = model.listTickets('acme', everything).items.at(-1);
    expect(last?.id).toBe(created.id);
    expect(
      model
        .listTickets('acme', everything)
        .items.every((ticket) => Date.parse(ticket.created_at) <= NOW),
    ).toBe(true);
  });

  it('produces the same data from the same clock', () => {
    const strip = (model: EmulatorModel) => JSON.stringify(model.listTickets('acme', everything));
    expect(strip(seeded('demo'))).toBe(strip(seeded('demo')));
  });

  it('gives globex its own small set of tickets', () => {
    const items = seeded('demo').listTickets('globex', everything).items;
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((ticket) => ticket.id.startsWith('GX-'))).toBe(true);
  });

  it('keeps only desks and configuration in the empty seed', () => {
    const model = seeded('empty');
    expect(model.listDesks('acme').total_count).toBeGreaterThan(0);
    expect(model.ticketCount('acme')).toBe(0);
    expect(model.listEmployees('acme', { limit: 10, offset: 0 }).total_count).toBe(0);
  });

  it('bulk-seeds tickets spread over the desks', () => {
    const model = seeded('empty');
    bulkSeedTickets(model, 'acme', 50);
    expect(model.ticketCount('acme')).toBe(50);
    expect(model.listTickets('acme', { ...everything, deskId: 'hr' }).total_count).toBe(10);
  });
});

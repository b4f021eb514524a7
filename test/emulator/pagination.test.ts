import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type {
  Activity,
  Asset,
  Employee,
  Envelope,
  Message,
  Ticket,
} from '../../src/contract/schemas.ts';
import type { RunningEmulator } from '../../tools/emulator/index.ts';
import { call, emulator } from './support.ts';

type Page<T> = Envelope<T>;

describe('emulator pagination and filters', () => {
  let emu: RunningEmulator;
  beforeEach(async () => {
    emu = await emulator();
  });
  afterEach(async () => {
    await emu.close();
  });

  it('pages tickets oldest first with page and page_size', async () => {
    const first = await call<Page<Ticket>>(emu, 'listTickets', { query: { page_size: '5' } });
    const second = await call<Page<Ticket>>(emu, 'listTickets', {
      query: { page: '2', page_size: '5' },
    });
    expect(first.body.total_count).toBe(18);
    expect(first.body.items.map((ticket) => ticket.id)).toEqual([
      'IT-1',
      'IT-2',
      'IT-3',
      'IT-4',
      'IT-5',
    ]);
    expect(second.body.items.map((ticket) => ticket.id)).toEqual([
      'IT-6',
      'IT-7',
      'IT-8',
      'IT-9',
      'IT-10',
    ]);
  });

  it('uses a default page size of 25', async () => {
    for (let i = 0; i < 10; i += 1) emu.model.createTicket('acme', { title: `Extra ${i}` });
    const response = await call<Page<Ticket>>(emu, 'listTickets');
    expect(response.body.items).toHaveLength(25);
    expect(response.body.total_count).toBe(28);
  });

  it('answers a page past the end with no items and the full count', async () => {
    const response = await call<Page<Ticket>>(emu, 'listTickets', {
      query: { page: '9', page_size: '10' },
    });
    expect(response.body).toEqual({ items: [], total_count: 18 });
  });

  it('puts a new ticket last, so earlier pages stay as they were', async () => {
    const before = await call<Page<Ticket>>(emu, 'listTickets', { query: { page_size: '5' } });
    const created = await call<Ticket>(emu, 'createTicket', { body: { title: 'Newest' } });
    const after = await call<Page<Ticket>>(emu, 'listTickets', { query: { page_size: '5' } });
    const last = await call<Page<Ticket>>(emu, 'listTickets', {
      query: { page: '4', page_size: '5' },
    });
    expect(after.body.items).toEqual(before.body.items);
    expect(last.body.items.at(-1)?.id).toBe(created.body.id);
  });

  it('filters tickets by desk', async () => {
    const response = await call<Page<Ticket>>(emu, 'listTickets', {
      query: { desk_id: 'it-hardware' },
    });
    expect(response.body.total_count).toBeGreaterThan(0);
    expect(response.body.items.every((ticket) => ticket.desk_id === 'it-hardware')).toBe(true);
  });

  it('filters tickets created strictly after an instant', async () => {
    const all = await call<Page<Ticket>>(emu, 'listTickets', { query: { page_size: '100' } });
    const pivot = all.body.items[10] as Ticket;
    const response = await call<Page<Ticket>>(emu, 'listTickets', {
      query: { created_after: pivot.created_at },
    });
    expect(response.body.items[0]?.id).toBe(all.body.items[11]?.id);
    expect(response.body.total_count).toBe(7);
  });

  it('filters tickets by status and by requester email', async () => {
    const waiting = await call<Page<Ticket>>(emu, 'listTickets', {
      query: { status: 'waiting_on_requester' },
    });
    const ben = await call<Page<Ticket>>(emu, 'listTickets', {
      query: { requester_email: 'BEN.OKAFOR@acme.example' },
    });
    expect(waiting.body.total_count).toBeGreaterThan(0);
    expect(waiting.body.items.every((ticket) => ticket.status === 'waiting_on_requester')).toBe(
      true,
    );
    expect(ben.body.total_count).toBe(2);
  });

  it('pages employees by limit and offset', async () => {
    const response = await call<Page<Employee>>(emu, 'listEmployees', {
      query: { limit: '5', offset: '18' },
    });
    expect(response.body.items).toHaveLength(2);
    expect(response.body.total_count).toBe(20);
  });

  it('filters employees by email', async () => {
    const response = await call<Page<Employee>>(emu, 'listEmployees', {
      query: { email: 'sam.rivera@acme.example' },
    });
    expect(response.body.items.map((employee) => employee.role)).toEqual(['agent']);
  });

  it('leaves the asset count out with with_total=false', async () => {
    const response = await call<Page<Asset>>(emu, 'listAssets', {
      query: { with_total: 'false', limit: '3' },
    });
    expect(response.body.total_count).toBeNull();
    expect(response.body.items).toHaveLength(3);
  });

  it('filters assets by the person they are assigned to', async () => {
    const response = await call<Page<Asset>>(emu, 'listAssets', {
      query: { assigned_to_email: 'sam.rivera@acme.example' },
    });
    expect(response.body.total_count).toBeGreaterThan(0);
    expect(
      response.body.items.every((asset) => asset.assigned_to_email === 'sam.rivera@acme.example'),
    ).toBe(true);
  });

  it('pages a ticket’s messages oldest first', async () => {
    const response = await call<Page<Message>>(emu, 'listMessages', {
      ticketId: 'IT-7',
      query: { page_size: '2' },
    });
    const times = response.body.items.map((message) => message.created_at);
    expect(response.body.total_count).toBeGreaterThan(2);
    expect([...times].sort()).toEqual(times);
  });

  it('slices a ticket’s activity by limit and offset', async () => {
    const response = await call<Page<Activity>>(emu, 'listActivity', {
      ticketId: 'IT-7',
      query: { limit: '1', offset: '0' },
    });
    expect(response.body.items.map((entry) => entry.type)).toEqual(['created']);
    expect(response.body.total_count).toBeGreaterThan(1);
  });

  it('lists desks, applications, catalog items and requests in the envelope', async () => {
    const lists = await Promise.all([
      call<Page<unknown>>(emu, 'listDesks'),
      call<Page<unknown>>(emu, 'listApplications'),
      call<Page<unknown>>(emu, 'listCatalogItems'),
      call<Page<unknown>>(emu, 'listRequests'),
    ]);
    for (const list of lists) {
      expect(list.status).toBe(200);
      expect(list.body.items.length).toBeGreaterThan(0);
      expect(list.body.total_count).toBe(list.body.items.length);
    }
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { AbortError } from '../../src/servicedesk/index.ts';
import { collect, envelope, type Harness, harness, rejectionOf, ticket } from './fixtures.ts';

const tickets = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => ticket({ id: `IT-${from + i}` }));
const employees = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => ({
    id: `e${from + i}`,
    email: `e${from + i}@example.com`,
    name: `E ${from + i}`,
    role: 'employee',
  }));

describe('pagination', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('iterates page-based tickets until a short page', async () => {
    h = harness();
    h.pool
      .intercept({ path: '/api/v1/tickets/?desk_id=it&page=1&page_size=2', method: 'GET' })
      .reply(200, envelope(tickets(1, 2), null));
    h.pool
      .intercept({ path: '/api/v1/tickets/?desk_id=it&page=2&page_size=2', method: 'GET' })
      .reply(200, envelope(tickets(3, 1), null));
    const items = await collect(h.client.iterateTickets({ desk_id: 'it' }, { pageSize: 2 }));
    expect(items.map((t) => t.id)).toEqual(['IT-1', 'IT-2', 'IT-3']);
    expect(h.calls()).toHaveLength(2);
  });

  it('stops when total_count is reached without asking for another page', async () => {
    h = harness();
    h.pool
      .intercept({ path: '/api/v1/tickets/?page=1&page_size=2', method: 'GET' })
      .reply(200, envelope(tickets(1, 2), 4));
    h.pool
      .intercept({ path: '/api/v1/tickets/?page=2&page_size=2', method: 'GET' })
      .reply(200, envelope(tickets(3, 2), 4));
    const items = await collect(h.client.iterateTickets({}, { pageSize: 2 }));
    expect(items).toHaveLength(4);
    expect(h.calls()).toHaveLength(2);
  });

  it('stops on an empty page', async () => {
    h = harness();
    h.pool.intercept({ path: '/api/v1/requests/?page=1&page_size=2', method: 'GET' }).reply(
      200,
      envelope(
        [
          { id: 'r1', status: 'open', created_at: '2026-01-01T00:00:00Z', ticket_id: null },
          { id: 'r2', status: 'open', created_at: '2026-01-01T00:00:00Z', ticket_id: 'IT-1' },
        ],
        null,
      ),
    );
    h.pool
      .intercept({ path: '/api/v1/requests/?page=2&page_size=2', method: 'GET' })
      .reply(200, envelope([], null));
    const items = await collect(h.client.iterateRequests({ pageSize: 2 }));
    expect(items.map((r) => r.id)).toEqual(['r1', 'r2']);
    expect(h.calls()).toHaveLength(2);
  });

  it('stops after maxItems and asks for no more than it needs', async () => {
    h = harness();
    h.pool
      .intercept({ path: '/api/v1/tickets/?page=1&page_size=3', method: 'GET' })
      .reply(200, envelope(tickets(1, 3), 50));
    const items = await collect(h.client.iterateTickets({}, { maxItems: 3 }));
    expect(items).toHaveLength(3);
    expect(h.calls()).toHaveLength(1);
  });

  it('asks for 100 items a page unless told otherwise', async () => {
    h = harness();
    h.pool
      .intercept({ path: '/api/v1/tickets/IT-1/messages/?page=1&page_size=100', method: 'GET' })
      .reply(200, envelope([], 0));
    await collect(h.client.iterateMessages('it-1'));
    expect(h.calls()[0]?.searchParams).toEqual({ page: '1', page_size: '100' });
  });

  it('iterates offset-based employees with limit and offset', async () => {
    h = harness();
    h.pool
      .intercept({
        path: '/api/v1/employees/?email=a%40example.com&limit=2&offset=0',
        method: 'GET',
      })
      .reply(200, envelope(employees(0, 2), 5));
    h.pool
      .intercept({
        path: '/api/v1/employees/?email=a%40example.com&limit=2&offset=2',
        method: 'GET',
      })
      .reply(200, envelope(employees(2, 2), 5));
    h.pool
      .intercept({
        path: '/api/v1/employees/?email=a%40example.com&limit=2&offset=4',
        method: 'GET',
      })
      .reply(200, envelope(employees(4, 1), 5));
    const items = await collect(
      h.client.iterateEmployees({ email: 'a@example.com' }, { pageSize: 2 }),
    );
    expect(items.map((e) => e.id)).toEqual(['e0', 'e1', 'e2', 'e3', 'e4']);
  });

  it('shrinks the last offset page to maxItems', async () => {
    h = harness();
    h.pool
      .intercept({ path: '/api/v1/employees/?limit=2&offset=0', method: 'GET' })
      .reply(200, envelope(employees(0, 2), 10));
    h.pool
      .intercept({ path: '/api/v1/employees/?limit=1&offset=2', method: 'GET' })
      .reply(200, envelope(employees(2, 1), 10));
    const items = await collect(h.client.iterateEmployees({}, { pageSize: 2, maxItems: 3 }));
    expect(items).toHaveLength(3);
    expect(h.calls()).toHaveLength(2);
  });

  it('iterates assets with with_total=false and a null total_count', async () => {
    h = harness();
    const asset = (id: string) => ({ id, name: `Laptop ${id}` });
    h.pool
      .intercept({ path: '/api/v1/assets/?limit=2&offset=0&with_total=false', method: 'GET' })
      .reply(200, envelope([asset('a1'), asset('a2')], null));
    h.pool
      .intercept({ path: '/api/v1/assets/?limit=2&offset=2&with_total=false', method: 'GET' })
      .reply(200, envelope([asset('a3')], null));
    const items = await collect(h.client.iterateAssets({}, { pageSize: 2 }));
    expect(items.map((a) => a.id)).toEqual(['a1', 'a2', 'a3']);
    for (const call of h.calls()) expect(call.searchParams.with_total).toBe('false');
  });

  it('iterates activity, applications and catalog items by offset', async () => {
    h = harness();
    h.pool
      .intercept({ path: '/api/v1/tickets/IT-1/activity/?limit=100&offset=0', method: 'GET' })
      .reply(
        200,
        envelope(
          [{ id: 'ac1', ticket_id: 'IT-1', type: 'created', created_at: '2026-01-01T00:00:00Z' }],
          1,
        ),
      );
    h.pool
      .intercept({ path: '/api/v1/applications/?limit=100&offset=0', method: 'GET' })
      .reply(200, envelope([{ id: 'ap1', name: 'Zoom', discovered: true }], 1));
    h.pool
      .intercept({ path: '/api/v1/catalog-items/?limit=100&offset=0', method: 'GET' })
      .reply(200, envelope([{ id: 'c1', name: 'New laptop' }], 1));
    expect((await collect(h.client.iterateActivity('IT-1'))).map((a) => a.id)).toEqual(['ac1']);
    expect((await collect(h.client.iterateApplications())).map((a) => a.id)).toEqual(['ap1']);
    expect((await collect(h.client.iterateCatalogItems())).map((c) => c.id)).toEqual(['c1']);
  });

  it('stops iterating when the signal aborts, without fetching another page', async () => {
    h = harness();
    h.pool
      .intercept({ path: '/api/v1/tickets/?page=1&page_size=2', method: 'GET' })
      .reply(200, envelope(tickets(1, 2), 10));
    const controller = new AbortController();
    const seen: string[] = [];
    const { client } = h;
    const run = async () => {
      for await (const t of client.iterateTickets({}, { pageSize: 2, signal: controller.signal })) {
        seen.push(t.id);
        controller.abort();
      }
    };
    const error = await rejectionOf(run());
    expect(error).toBeInstanceOf(AbortError);
    expect(seen).toEqual(['IT-1']);
    expect(h.calls()).toHaveLength(1);
  });

  it('passes the iteration priority to the acquire hook', async () => {
    const priorities: string[] = [];
    h = harness({ acquire: async (t) => void priorities.push(t.priority) });
    h.pool
      .intercept({ path: '/api/v1/requests/?page=1&page_size=100', method: 'GET' })
      .reply(200, envelope([], 0));
    await collect(h.client.iterateRequests({ priority: 'background' }));
    expect(priorities).toEqual(['background']);
  });

  it('refuses a page size below 1', async () => {
    h = harness();
    await expect(collect(h.client.iterateRequests({ pageSize: 0 }))).rejects.toThrow(/pageSize/);
    expect(h.calls()).toHaveLength(0);
  });
});

/** List tickets' `assignee_email` and `status` filters ("More List tickets filters"). */
import { afterEach, describe, expect, it } from 'vitest';
import { collect, envelope, type Harness, harness, ticket } from './fixtures.ts';

describe('List tickets filters', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('sends several statuses comma-separated and the assignee email as given', async () => {
    h = harness();
    h.pool
      .intercept({
        path: '/api/v1/tickets/?assignee_email=sam%40acme.example&status=new%2Copen&page=1&page_size=10',
        method: 'GET',
      })
      .reply(200, envelope([ticket()], 1));
    const page = await h.client.listTickets({
      assignee_email: 'sam@acme.example',
      status: ['new', 'open'],
      page: 1,
      page_size: 10,
    });
    expect(page.items).toHaveLength(1);
    expect(h.calls()).toHaveLength(1);
  });

  it('sends an empty assignee email to list unassigned tickets', async () => {
    h = harness();
    h.pool
      .intercept({
        path: '/api/v1/tickets/?desk_id=it&assignee_email=&page=1&page_size=100',
        method: 'GET',
      })
      .reply(200, envelope([ticket({ id: 'IT-1' })], 1));
    const items = await collect(h.client.iterateTickets({ desk_id: 'it', assignee_email: '' }));
    expect(items.map((t) => t.id)).toEqual(['IT-1']);
  });

  it('sends one status as it is', async () => {
    h = harness();
    h.pool
      .intercept({ path: '/api/v1/tickets/?status=open&page=1&page_size=5', method: 'GET' })
      .reply(200, envelope([], 0));
    const page = await h.client.listTickets({ status: 'open', page: 1, page_size: 5 });
    expect(page.items).toEqual([]);
    expect(h.calls()).toHaveLength(1);
  });
});

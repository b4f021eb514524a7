import { afterEach, describe, expect, it } from 'vitest';
import { ResponseValidationError } from '../../src/servicedesk/index.ts';
import { envelope, type Harness, harness, rejectionOf, ticket } from './fixtures.ts';

describe('response validation', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('passes an unknown response field through', async () => {
    h = harness();
    h.pool
      .intercept({ path: '/api/v1/tickets/IT-42/', method: 'GET' })
      .reply(200, ticket({ sla_due_at: '2026-01-02T00:00:00Z', tags: ['vpn'] }));
    const got = await h.client.getTicket('IT-42');
    expect(got).toMatchObject({ id: 'IT-42', sla_due_at: '2026-01-02T00:00:00Z', tags: ['vpn'] });
  });

  it('accepts a status value the contract does not list', async () => {
    h = harness();
    h.pool
      .intercept({ path: '/api/v1/tickets/IT-42/', method: 'GET' })
      .reply(200, ticket({ status: 'pending_vendor' }));
    expect((await h.client.getTicket('IT-42')).status).toBe('pending_vendor');
  });

  it('names the operation and the field when a response breaks the schema', async () => {
    h = harness();
    h.pool
      .intercept({ path: '/api/v1/tickets/IT-42/', method: 'GET' })
      .reply(200, ticket({ status: 7 }));
    const error = (await rejectionOf(h.client.getTicket('IT-42'))) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.operation).toBe('getTicket');
    expect(error.field).toBe('status');
    expect(error.message).toMatch(/^getTicket: response field status: expected string/);
  });

  it('names the item index of a broken list entry', async () => {
    h = harness();
    h.pool
      .intercept({ path: '/api/v1/tickets/', method: 'GET' })
      .reply(200, envelope([ticket(), ticket({ status: null })]));
    const error = (await rejectionOf(h.client.listTickets())) as ResponseValidationError;
    expect(error.message).toMatch(/^listTickets: response field items\.1\.status: expected string/);
  });

  it('reports a missing envelope field', async () => {
    h = harness();
    h.pool.intercept({ path: '/api/v1/desks/', method: 'GET' }).reply(200, { items: [] });
    const error = (await rejectionOf(h.client.listDesks())) as ResponseValidationError;
    expect(error.field).toBe('total_count');
  });

  it('rejects a success body that is not JSON', async () => {
    h = harness();
    h.pool.intercept({ path: '/api/v1/desks/', method: 'GET' }).reply(200, '<html>login</html>');
    const error = (await rejectionOf(h.client.listDesks())) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.message).toBe('listDesks: response body: not JSON');
  });

  it('fills the default of a message without sources', async () => {
    h = harness();
    h.pool.intercept({ path: '/api/v1/tickets/IT-1/messages/', method: 'GET' }).reply(
      200,
      envelope([
        {
          id: 'm1',
          ticket_id: 'IT-1',
          body: 'hi',
          created_at: '2026-01-01T00:00:00Z',
          internal: false,
          author: { type: 'ai_agent', name: 'Desk AI' },
        },
      ]),
    );
    const page = await h.client.listMessages('IT-1');
    expect(page.items[0]?.sources).toEqual([]);
  });
});

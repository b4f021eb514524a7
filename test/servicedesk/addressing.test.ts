import { afterEach, describe, expect, it } from 'vitest';
import { hashIdempotencyKey, ServiceDeskClient } from '../../src/servicedesk/index.ts';
import { envelope, type Harness, harness, KEY, ticket } from './fixtures.ts';

describe('addressing and headers', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('addresses every operation without a prefix under variant A', async () => {
    h = harness();
    h.pool.intercept({ path: /.*/, method: /.*/ }).reply(200, envelope([])).persist();
    await h.client.listTickets();
    await h.client.listDesks();
    await h.client.listEmployees();
    await h.client.listAssets();
    await h.client.listApplications();
    await h.client.listCatalogItems();
    await h.client.listRequests();
    await h.client.listActivity('IT-1');
    await h.client.listMessages('IT-1');
    expect(h.calls().map((call) => call.path)).toEqual([
      '/api/v1/tickets/',
      '/api/v1/desks/',
      '/api/v1/employees/',
      '/api/v1/assets/',
      '/api/v1/applications/',
      '/api/v1/catalog-items/',
      '/api/v1/requests/',
      '/api/v1/tickets/IT-1/activity/',
      '/api/v1/tickets/IT-1/messages/',
    ]);
  });

  it('addresses every operation under its area prefix under variant B', async () => {
    h = harness({ variant: 'b' });
    h.pool.intercept({ path: /.*/, method: /.*/ }).reply(200, envelope([])).persist();
    await h.client.listTickets();
    await h.client.listDesks();
    await h.client.listEmployees();
    await h.client.listAssets();
    await h.client.listApplications();
    await h.client.listCatalogItems();
    await h.client.listRequests();
    await h.client.listMessages('IT-1');
    expect(h.calls().map((call) => call.path)).toEqual([
      '/service-desk/api/v1/tickets/',
      '/service-desk/api/v1/desks/',
      '/employees/api/v1/employees/',
      '/asset-management/api/v1/assets/',
      '/applications/api/v1/applications/',
      '/service-catalog/api/v1/catalog-items/',
      '/agents/api/v1/requests/',
      '/service-desk/api/v1/tickets/IT-1/messages/',
    ]);
  });

  it('never sends a tenant header under variant B', async () => {
    h = harness({ variant: 'b' });
    h.pool
      .intercept({ path: '/service-desk/api/v1/tickets/IT-42/', method: 'GET' })
      .reply(200, ticket());
    await h.client.getTicket('IT-42');
    const headers = h.calls()[0]?.headers ?? {};
    expect(Object.keys(headers).map((name) => name.toLowerCase())).not.toContain('x-tenant-id');
  });

  it('normalises the base URL and keeps a path it carries', async () => {
    h = harness({ baseUrl: '  https://proxy.example/desk///  ' });
    h.pool.intercept({ path: '/desk/api/v1/tickets/IT-42/', method: 'GET' }).reply(200, ticket());
    await h.client.getTicket('IT-42');
    expect(h.client.baseUrl).toBe('https://proxy.example/desk');
    expect(h.calls()[0]?.fullUrl).toBe('https://proxy.example/desk/api/v1/tickets/IT-42/');
  });

  it('sends the AccessKey authorization and Accept application/json on every call', async () => {
    h = harness();
    h.pool.intercept({ path: /.*/, method: /.*/ }).reply(200, ticket()).persist();
    await h.client.getTicket('IT-42');
    await h.client.updateTicket('IT-42', { status: 'resolved' });
    await h.client.createTicket({ title: 'x' });
    for (const call of h.calls()) {
      expect(call.headers?.authorization).toBe(`AccessKey ${KEY}`);
      expect(call.headers?.accept).toBe('application/json');
    }
    expect(h.calls()).toHaveLength(3);
  });

  it('sends a JSON body with Content-Type application/json', async () => {
    h = harness();
    h.pool.intercept({ path: '/api/v1/tickets/', method: 'POST' }).reply(201, ticket());
    await h.client.createTicket({ title: 'VPN is down', channel: 'slack' });
    const call = h.calls()[0];
    expect(call?.method).toBe('POST');
    expect(call?.headers?.['content-type']).toBe('application/json');
    expect(JSON.parse(String(call?.body))).toEqual({ title: 'VPN is down', channel: 'slack' });
  });

  it('sends no Content-Type on a request without a body', async () => {
    h = harness();
    h.pool.intercept({ path: '/api/v1/tickets/IT-42/', method: 'GET' }).reply(200, ticket());
    await h.client.getTicket('IT-42');
    expect(h.calls()[0]?.headers?.['content-type']).toBeUndefined();
  });

  it('uses PATCH for an update and POST for a message', async () => {
    h = harness();
    h.pool.intercept({ path: '/api/v1/tickets/IT-42/', method: 'PATCH' }).reply(200, ticket());
    h.pool.intercept({ path: '/api/v1/tickets/IT-42/messages/', method: 'POST' }).reply(201, {
      id: 'm1',
      ticket_id: 'IT-42',
      body: 'hi',
      created_at: '2026-01-01T00:00:00Z',
      internal: false,
      author: { type: 'system' },
    });
    await h.client.updateTicket('IT-42', { priority: 'urgent' });
    await h.client.addMessage('IT-42', { body: 'hi' });
    expect(h.calls().map((call) => `${call.method} ${call.path}`)).toEqual([
      'PATCH /api/v1/tickets/IT-42/',
      'POST /api/v1/tickets/IT-42/messages/',
    ]);
  });

  it('sends X-Idempotency-Key on create ticket and add message only', async () => {
    h = harness();
    h.pool.intercept({ path: /.*/, method: /.*/ }).reply(200, ticket()).persist();
    const key = hashIdempotencyKey('A1:T1:Ev1');
    await h.client.createTicket({ title: 'x' }, { idempotencyKey: key });
    await h.client.updateTicket('IT-42', { status: 'open' }, { idempotencyKey: key });
    expect(h.calls()[0]?.headers?.['x-idempotency-key']).toBe(key);
    expect(h.calls()[1]?.headers?.['x-idempotency-key']).toBeUndefined();
  });

  it('refuses an idempotency key that cannot travel in a header, before any request', async () => {
    h = harness();
    await expect(
      h.client.createTicket({ title: 'x' }, { idempotencyKey: 'two\nlines' }),
    ).rejects.toThrow(TypeError);
    expect(h.calls()).toHaveLength(0);
  });

  it('serialises the list query, a Date as ISO 8601, and leaves out unset values', async () => {
    h = harness();
    h.pool.intercept({ path: /.*/, method: 'GET' }).reply(200, envelope([])).persist();
    await h.client.listTickets({
      desk_id: 'it',
      page: 2,
      page_size: 50,
      created_after: new Date('2026-01-02T03:04:05Z'),
      status: undefined,
    });
    await h.client.listAssets({ with_total: false, assigned_to_email: 'a@example.com' });
    expect(h.calls()[0]?.searchParams).toEqual({
      desk_id: 'it',
      page: '2',
      page_size: '50',
      created_after: '2026-01-02T03:04:05.000Z',
    });
    expect(h.calls()[1]?.searchParams).toEqual({
      with_total: 'false',
      assigned_to_email: 'a@example.com',
    });
  });

  it('refuses a key that is not a header-safe string without quoting it', () => {
    const bad = `${KEY}\n`;
    let thrown: unknown;
    try {
      new ServiceDeskClient({ baseUrl: 'https://a.example', apiKey: bad });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TypeError);
    expect(String(thrown)).not.toContain(KEY);
  });

  it('refuses an unknown variant', () => {
    expect(
      () =>
        new ServiceDeskClient({
          baseUrl: 'https://a.example',
          apiKey: KEY,
          variant: 'c' as unknown as 'a',
        }),
    ).toThrow(/variant/);
  });
});

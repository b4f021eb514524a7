import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../tools/emulator/index.ts';
import { type ApiResponse, call, callPath, emulator, type ValidationBody } from './support.ts';

function firstIssue(response: ApiResponse<ValidationBody>) {
  return response.body.detail[0];
}

describe('emulator errors and validation', () => {
  let emu: RunningEmulator;
  beforeEach(async () => {
    emu = await emulator();
  });
  afterEach(async () => {
    await emu.close();
  });

  it('answers a create without a title with exactly loc ["body","title"]', async () => {
    const response = await call<ValidationBody>(emu, 'createTicket', {
      body: { description: 'no title' },
    });
    expect(response.status).toBe(422);
    expect(response.body.detail).toEqual([
      { loc: ['body', 'title'], msg: 'Field required', type: 'missing' },
    ]);
  });

  it.each([
    ['page_size', '101', 'less_than_equal'],
    ['page_size', '0', 'greater_than_equal'],
    ['page', '0', 'greater_than_equal'],
    ['page', 'two', 'int_parsing'],
    ['page_size', '2.5', 'int_parsing'],
  ])(
    'answers %s=%s on List tickets with a 422 at that query parameter',
    async (name, value, type) => {
      const response = await call<ValidationBody>(emu, 'listTickets', { query: { [name]: value } });
      expect(response.status).toBe(422);
      expect(firstIssue(response)).toMatchObject({ loc: ['query', name], type });
    },
  );

  it.each([
    ['limit', '101'],
    ['limit', '0'],
    ['limit', 'many'],
    ['offset', '-1'],
  ])('answers %s=%s on an offset list with a 422 at that query parameter', async (name, value) => {
    const response = await call<ValidationBody>(emu, 'listEmployees', { query: { [name]: value } });
    expect(response.status).toBe(422);
    expect(firstIssue(response)?.loc).toEqual(['query', name]);
  });

  it('answers an unknown priority in a body with a 422 at body.priority', async () => {
    const response = await call<ValidationBody>(emu, 'createTicket', {
      body: { title: 'x', priority: 'critical' },
    });
    expect(response.status).toBe(422);
    expect(firstIssue(response)).toMatchObject({ loc: ['body', 'priority'], type: 'enum' });
  });

  it('answers an unknown status on update with a 422 at body.status', async () => {
    const response = await call<ValidationBody>(emu, 'updateTicket', {
      ticketId: 'IT-18',
      body: { status: 'done' },
    });
    expect(response.status).toBe(422);
    expect(firstIssue(response)?.loc).toEqual(['body', 'status']);
  });

  it('answers an unknown status filter with a 422 at query.status', async () => {
    const response = await call<ValidationBody>(emu, 'listTickets', { query: { status: 'done' } });
    expect(response.status).toBe(422);
    expect(firstIssue(response)?.loc).toEqual(['query', 'status']);
  });

  it('answers a created_after that is not ISO 8601 with a 422', async () => {
    const response = await call<ValidationBody>(emu, 'listTickets', {
      query: { created_after: 'yesterday' },
    });
    expect(response.status).toBe(422);
    expect(firstIssue(response)?.loc).toEqual(['query', 'created_after']);
  });

  it('answers a body that is not JSON with json_invalid at loc ["body"]', async () => {
    const response = await call<ValidationBody>(emu, 'createTicket', { rawBody: '{"title": ' });
    expect(response.status).toBe(422);
    expect(firstIssue(response)).toMatchObject({ loc: ['body'], type: 'json_invalid' });
  });

  it('answers a JSON body that is not an object with a 422 at loc ["body"]', async () => {
    const response = await call<ValidationBody>(emu, 'createTicket', { body: ['title'] });
    expect(response.status).toBe(422);
    expect(firstIssue(response)?.loc).toEqual(['body']);
  });

  it('answers an unknown desk on create with a 422 at body.desk_id and creates nothing', async () => {
    const response = await call<ValidationBody>(emu, 'createTicket', {
      body: { title: 'x', desk_id: 'nope' },
    });
    expect(response.status).toBe(422);
    expect(firstIssue(response)?.loc).toEqual(['body', 'desk_id']);
    expect(emu.model.ticketCount('acme')).toBe(18);
  });

  it('answers an unknown ticket with 404 and a string detail', async () => {
    const response = await call<{ detail: unknown }>(emu, 'getTicket', { ticketId: 'IT-9999' });
    expect(response.status).toBe(404);
    expect(typeof response.body.detail).toBe('string');
  });

  it('answers an unknown path with 404 and a string detail', async () => {
    const response = await callPath<{ detail: unknown }>(emu, 'GET', '/api/v1/widgets/');
    expect(response.status).toBe(404);
    expect(response.body.detail).toBe('Not Found');
  });

  it('answers a route path without its trailing slash with 404', async () => {
    const response = await callPath(emu, 'GET', '/api/v1/tickets');
    expect(response.status).toBe(404);
  });

  it('answers a known path with a wrong method with 405 and an Allow header', async () => {
    const response = await callPath(emu, 'DELETE', '/api/v1/tickets/IT-1/');
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, PATCH');
  });
});

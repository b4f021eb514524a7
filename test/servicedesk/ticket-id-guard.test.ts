import { afterEach, describe, expect, it, vi } from 'vitest';
import { InvalidTicketIdError } from '../../src/servicedesk/index.ts';
import { collect, type Harness, harness, rejectionOf, ticket } from './fixtures.ts';

describe('ticket IDs in client calls', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('sends the ticket ID in upper case', async () => {
    h = harness();
    h.pool
      .intercept({ path: '/api/v1/tickets/ABC-12/', method: 'GET' })
      .reply(200, ticket({ id: 'ABC-12' }));
    await h.client.getTicket(' abc-12 ');
    expect(h.calls()[0]?.path).toBe('/api/v1/tickets/ABC-12/');
  });

  it('rejects an invalid ticket ID before any request and without spending rate budget', async () => {
    const acquire = vi.fn(async () => {});
    h = harness({ acquire });
    const calls = [
      h.client.getTicket('IT-0'),
      h.client.updateTicket('nope', { status: 'open' }),
      h.client.addMessage('IT-1/../x', { body: 'hi' }),
      h.client.listActivity(''),
      h.client.listMessages('42'),
    ];
    for (const call of calls) {
      const error = await rejectionOf(call);
      expect(error).toBeInstanceOf(InvalidTicketIdError);
      expect((error as InvalidTicketIdError).code).toBe('servicedesk_invalid_ticket_id');
    }
    expect(acquire).not.toHaveBeenCalled();
    expect(h.calls()).toHaveLength(0);
  });

  it('rejects a value that is not a string as an invalid ticket ID', async () => {
    h = harness();
    const error = await rejectionOf(h.client.getTicket(42 as unknown as string));
    expect(error).toBeInstanceOf(InvalidTicketIdError);
    expect(h.calls()).toHaveLength(0);
  });

  it('rejects an invalid ticket ID when iteration starts, with no request', async () => {
    h = harness();
    const error = await rejectionOf(collect(h.client.iterateMessages('bad id')));
    expect(error).toBeInstanceOf(InvalidTicketIdError);
    expect(h.calls()).toHaveLength(0);
  });
});

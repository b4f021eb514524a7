import { afterEach, describe, expect, it } from 'vitest';
import type { AcquireTicket } from '../../src/servicedesk/index.ts';
import { envelope, type Harness, harness, rejectionOf, ticket } from './fixtures.ts';

describe('acquire hook', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('runs before every attempt with the operation, method and priority', async () => {
    const events: string[] = [];
    const tickets: AcquireTicket[] = [];
    h = harness({
      acquire: async (t) => {
        events.push('acquire');
        tickets.push(t);
      },
    });
    const get = { path: '/api/v1/tickets/', method: 'GET' };
    h.pool.intercept(get).reply(() => {
      events.push('request');
      return { statusCode: 503, data: { detail: 'busy' } };
    });
    h.pool.intercept(get).reply(() => {
      events.push('request');
      return { statusCode: 200, data: envelope([]) };
    });
    await h.client.listTickets({}, { priority: 'background' });
    expect(events).toEqual(['acquire', 'request', 'acquire', 'request']);
    expect(tickets).toEqual([
      { operation: 'listTickets', method: 'GET', priority: 'background' },
      { operation: 'listTickets', method: 'GET', priority: 'background' },
    ]);
  });

  it('defaults the priority to interactive', async () => {
    const tickets: AcquireTicket[] = [];
    h = harness({ acquire: async (t) => void tickets.push(t) });
    h.pool.intercept({ path: '/api/v1/tickets/', method: 'POST' }).reply(201, ticket());
    await h.client.createTicket({ title: 'x' });
    expect(tickets).toEqual([
      { operation: 'createTicket', method: 'POST', priority: 'interactive' },
    ]);
  });

  it('passes the caller signal to the hook', async () => {
    const controller = new AbortController();
    let received: AbortSignal | undefined;
    h = harness({
      acquire: async (t) => {
        received = t.signal;
      },
    });
    h.pool.intercept({ path: '/api/v1/desks/', method: 'GET' }).reply(200, envelope([]));
    await h.client.listDesks({ signal: controller.signal });
    expect(received).toBe(controller.signal);
  });

  it('sends nothing when the hook refuses, and passes its error on unchanged', async () => {
    const refusal = new Error('rate budget exhausted');
    h = harness({
      acquire: async () => {
        throw refusal;
      },
    });
    expect(await rejectionOf(h.client.listDesks())).toBe(refusal);
    expect(h.calls()).toHaveLength(0);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { type ChangeFeedPlatform, detectFeedWay } from '../../src/mirror/index.ts';
import { apiErrorFromResponse, ServiceDeskClient } from '../../src/servicedesk/index.ts';
import type { ModelCapabilities } from '../../tools/emulator/index.ts';
import { type RunningEmulator, startEmulator } from '../../tools/emulator/index.ts';

let emulator: RunningEmulator | undefined;
let client: ServiceDeskClient | undefined;

afterEach(async () => {
  await client?.close();
  await emulator?.close();
  client = undefined;
  emulator = undefined;
});

/** The emulator over HTTP with the client the app uses, and what each request was. */
async function platform(capabilities: Partial<ModelCapabilities>, seed: 'demo' | 'empty' = 'demo') {
  emulator = await startEmulator({ capabilities, seed, aiDelayMs: 3_600_000 });
  const requests: string[] = [];
  client = new ServiceDeskClient({
    baseUrl: emulator.url,
    apiKey: 'sd_acme_rw',
    onResponse: ({ operation, method }) => void requests.push(`${method} ${operation}`),
  });
  return { client, requests, model: emulator.model };
}

describe('change feed detection', () => {
  it('finds the filter on a platform that honours updated_after, with two reads', async () => {
    const { client, requests, model } = await platform({});
    const tickets = model.ticketCount('acme');
    expect(await detectFeedWay(client, Date.now())).toEqual({ way: 'filter', requests: 2 });
    expect(requests).toEqual(['GET listTickets', 'GET listTickets']);
    expect(model.ticketCount('acme')).toBe(tickets);
  });

  it('finds a sweep on a platform whose tickets carry updated_at but which ignores updated_after', async () => {
    const { client } = await platform({ updatedAfter: false });
    expect(await detectFeedWay(client, Date.now())).toEqual({ way: 'sweep', requests: 2 });
  });

  it('finds neither on a platform whose tickets carry no updated_at', async () => {
    const { client } = await platform({ updatedAt: false });
    expect(await detectFeedWay(client, Date.now())).toEqual({ way: 'none', requests: 1 });
  });

  it('cannot tell on a tenant without tickets', async () => {
    const { client } = await platform({}, 'empty');
    expect(await detectFeedWay(client, Date.now())).toEqual({ way: 'unknown', requests: 1 });
  });

  it('takes a platform that refuses updated_after for one without the filter', async () => {
    const { client } = await platform({ updatedAfter: false });
    const refusing: ChangeFeedPlatform = {
      getTicket: (id, opts) => client.getTicket(id, opts),
      listTickets: async (query, opts) => {
        if (query?.updated_after === undefined) return client.listTickets(query, opts);
        throw apiErrorFromResponse({
          operation: 'listTickets',
          method: 'GET',
          path: '/api/v1/tickets/',
          status: 400,
          headers: {},
          body: { detail: 'Unknown parameter updated_after' },
        });
      },
    };
    expect(await detectFeedWay(refusing, Date.now())).toEqual({ way: 'sweep', requests: 2 });
  });
});

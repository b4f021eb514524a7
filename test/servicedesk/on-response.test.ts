/** The client's response hook: every HTTP attempt is reported, answered or not. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ResponseInfo, ServiceDeskClient } from '../../src/servicedesk/index.ts';
import { type RunningEmulator, startEmulator } from '../../tools/emulator/index.ts';

describe('onResponse', () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator();
  });
  afterAll(async () => {
    await emulator.close();
  });

  it('reports each answered attempt with its operation and status', async () => {
    const seen: ResponseInfo[] = [];
    const client = new ServiceDeskClient({
      baseUrl: emulator.url,
      apiKey: 'sd_acme_rw',
      onResponse: (info) => seen.push(info),
    });
    await client.listDesks();
    await expect(client.getTicket('IT-999999')).rejects.toMatchObject({ status: 404 });
    await client.close();
    expect(seen.map(({ operation, method, status }) => ({ operation, method, status }))).toEqual([
      { operation: 'listDesks', method: 'GET', status: 200 },
      { operation: 'getTicket', method: 'GET', status: 404 },
    ]);
    expect(seen.every((info) => info.durationMs >= 0)).toBe(true);
  });

  it('reports an attempt that got no answer with an undefined status', async () => {
    // A port that was just free: the connection is refused.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const seen: ResponseInfo[] = [];
    const client = new ServiceDeskClient({
      baseUrl: `http://127.0.0.1:${port}`,
      apiKey: 'sd_acme_rw',
      retry: { maxAttempts: 1 },
      onResponse: (info) => seen.push(info),
    });
    await expect(client.listDesks()).rejects.toMatchObject({ code: 'servicedesk_connection' });
    await client.close();
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ operation: 'listDesks', status: undefined });
  });

  it('ignores a listener that throws', async () => {
    const client = new ServiceDeskClient({
      baseUrl: emulator.url,
      apiKey: 'sd_acme_rw',
      onResponse: () => {
        throw new Error('observer bug');
      },
    });
    await expect(client.listDesks()).resolves.toMatchObject({ items: expect.any(Array) });
    await client.close();
  });
});

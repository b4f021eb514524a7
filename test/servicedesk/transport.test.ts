import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AbortError,
  ConnectionError,
  NotFoundError,
  ServerError,
  ServiceDeskClient,
  type ServiceDeskClientOptions,
  TimeoutError,
} from '../../src/servicedesk/index.ts';
import { KEY, rejectionOf } from './fixtures.ts';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

interface Loopback {
  server: Server;
  baseUrl: string;
  connections: number;
}

async function loopback(handler: Handler): Promise<Loopback> {
  const server = createServer(handler);
  const state: Loopback = { server, baseUrl: '', connections: 0 };
  server.on('connection', () => {
    state.connections++;
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

describe('transport (loopback HTTP server)', () => {
  const opened: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const item of opened.splice(0).reverse()) await item.close();
  });

  async function setup(handler: Handler, options: Partial<ServiceDeskClientOptions> = {}) {
    const lb = await loopback(handler);
    opened.push({
      close: async () => {
        lb.server.closeAllConnections();
        lb.server.close();
        await once(lb.server, 'close');
      },
    });
    const client = new ServiceDeskClient({
      baseUrl: lb.baseUrl,
      apiKey: KEY,
      sleep: async () => {},
      ...options,
    });
    opened.push(client);
    return { lb, client };
  }

  it('reads every response body so keep-alive connections are reused, error responses included', async () => {
    const { lb, client } = await setup(
      (req, res) => {
        if (req.url === '/api/v1/tickets/IT-1/') return json(res, 404, { detail: 'Not found' });
        if (req.url === '/api/v1/tickets/IT-2/') {
          // Larger than undici's buffer: unread, it would pin its socket.
          res.writeHead(500, { 'content-type': 'text/plain' });
          return res.end('x'.repeat(256 * 1024));
        }
        json(res, 200, { items: [], total_count: 0 });
      },
      { retry: { maxAttempts: 1 } },
    );
    for (let round = 0; round < 5; round++) {
      await client.listDesks();
      expect(await rejectionOf(client.getTicket('IT-1'))).toBeInstanceOf(NotFoundError);
      expect(await rejectionOf(client.getTicket('IT-2'))).toBeInstanceOf(ServerError);
    }
    // A socket is handed back a moment after its body ends, so a second one may open; one per
    // request (15) would mean bodies are left unread.
    expect(lb.connections).toBeLessThanOrEqual(2);
  });

  it('raises TimeoutError when the response headers do not arrive in time', async () => {
    const held: ServerResponse[] = [];
    const { client } = await setup((_req, res) => void held.push(res), {
      timeouts: { headersMs: 100 },
      retry: { maxAttempts: 1 },
    });
    const error = (await rejectionOf(client.listDesks())) as TimeoutError;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.code).toBe('servicedesk_timeout');
    expect(error.causeCode).toBe('UND_ERR_HEADERS_TIMEOUT');
  });

  it('raises ConnectionError when the connection is refused', async () => {
    const probe = await loopback(() => {});
    const { baseUrl } = probe;
    probe.server.close();
    await once(probe.server, 'close');
    const client = new ServiceDeskClient({ baseUrl, apiKey: KEY, retry: { maxAttempts: 1 } });
    opened.push(client);
    const error = (await rejectionOf(client.listDesks())) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.causeCode).toBe('ECONNREFUSED');
  });

  it('retries a connection the server resets and then succeeds', async () => {
    let requests = 0;
    const { client } = await setup((req, res) => {
      requests++;
      if (requests === 1) return req.socket.destroy();
      json(res, 200, { items: [], total_count: 0 });
    });
    await expect(client.listDesks()).resolves.toEqual({ items: [], total_count: 0 });
    expect(requests).toBe(2);
  });

  it('aborts a request the server is still working on', async () => {
    const controller = new AbortController();
    const held: ServerResponse[] = [];
    const { client } = await setup((_req, res) => {
      held.push(res);
      controller.abort();
    });
    const error = await rejectionOf(client.listDesks({ signal: controller.signal }));
    expect(error).toBeInstanceOf(AbortError);
  });
});

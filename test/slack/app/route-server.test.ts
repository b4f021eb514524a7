/** The routes' server: what it answers, its port, and a port already taken. */
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { isPortInUse } from '../../../src/port-in-use.ts';
import { RouteServer } from '../../../src/slack/app/route-server.ts';
import { holdPort } from '../../support/held-port.ts';

const routes = [
  {
    path: '/healthz',
    method: ['GET'],
    handler: (_req: unknown, res: import('node:http').ServerResponse) => {
      res.writeHead(200);
      res.end('ok');
    },
  },
];

let server: RouteServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

async function started(take?: ConstructorParameters<typeof RouteServer>[0]['take']) {
  server = new RouteServer({ routes, port: 0, ...(take ? { take } : {}) });
  await server.start();
  return `http://127.0.0.1:${server.port}`;
}

describe('the route server', () => {
  it('answers a route by its path and method', async () => {
    const base = await started();
    const answer = await request(`${base}/healthz?probe=1`);
    expect([answer.statusCode, await answer.body.text()]).toEqual([200, 'ok']);
  });

  it('answers 405 to a known path by another method', async () => {
    const base = await started();
    const answer = await request(`${base}/healthz`, { method: 'POST', body: '' });
    expect(answer.statusCode).toBe(405);
    await answer.body.dump();
  });

  it('answers 404 to an unknown path', async () => {
    const base = await started();
    const answer = await request(`${base}/nothing-here`);
    expect(answer.statusCode).toBe(404);
    await answer.body.dump();
  });

  it('hands the requests its taker claims to the taker, before the routes', async () => {
    const base = await started((req, res) => {
      if (req.url !== '/healthz') return false;
      res.writeHead(202);
      res.end();
      return true;
    });
    const answer = await request(`${base}/healthz`);
    expect(answer.statusCode).toBe(202);
    await answer.body.dump();
  });

  it('answers 500 to a route that throws and tells its error handler, still serving', async () => {
    const errors: unknown[] = [];
    server = new RouteServer({
      routes: [
        {
          path: '/broken',
          method: 'GET',
          handler: () => {
            throw new Error('a route with a bug');
          },
        },
        ...routes,
      ],
      port: 0,
      onError: (error) => errors.push(error),
    });
    await server.start();
    const broken = await request(`http://127.0.0.1:${server.port}/broken`);
    await broken.body.dump();
    const health = await request(`http://127.0.0.1:${server.port}/healthz`);
    await health.body.dump();
    expect([broken.statusCode, health.statusCode, errors.length]).toEqual([500, 200, 1]);
  });

  it('has no port before it starts', () => {
    expect(new RouteServer({ routes, port: 0 }).port).toBeUndefined();
  });

  it('rejects its start with the listen error when the port is taken', async () => {
    const held = await holdPort();
    try {
      const error = await new RouteServer({ routes, port: held.port })
        .start()
        .catch((e: unknown) => e);
      expect(isPortInUse(error)).toBe(true);
      expect(isPortInUse(error) && error.port).toBe(held.port);
    } finally {
      await held.release();
    }
  });
});

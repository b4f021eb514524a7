/**
 * A plain HTTP server for the extra routes (health, readiness, metrics) of a process that
 * takes no Slack requests (the worker role): Bolt's receivers serve them otherwise, beside
 * /slack/events, which such a process must not offer.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { CustomRoute } from '@slack/bolt';

/** Serves `routes` on `port` (0 for any); anything else is 404, a known path by another method 405. */
export async function serveRoutes(routes: readonly CustomRoute[], port: number): Promise<Server> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const matching = routes.filter((route) => route.path === path);
    const method = req.method ?? 'GET';
    const route = matching.find((r) => [r.method].flat().some((m) => m.toUpperCase() === method));
    if (route) {
      // Bolt hands its routes a request with the path's parameters; these have none.
      route.handler(Object.assign(req, { params: {} }), res);
      return;
    }
    res.writeHead(matching.length > 0 ? 405 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: matching.length > 0 ? 'method not allowed' : 'not found' }));
  });
  server.listen(port);
  await once(server, 'listening');
  return server;
}

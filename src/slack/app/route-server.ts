/**
 * The app's one HTTP server for its extra routes (health, readiness, metrics, the platform's
 * webhook), owned by whichever receiver runs: the HTTP receiver hands it Slack's endpoint too,
 * Socket Mode serves the routes alone beside its WebSocket, and a process that takes no Slack
 * requests (the worker role) runs it as its receiver, so that Bolt starts and stops it. Owning
 * the server, the receiver knows its port without reading anything private of Bolt's.
 */
import { once } from 'node:events';
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import { type CustomRoute, type Receiver, ReceiverInconsistentStateError } from '@slack/bolt';

/** A receiver of ours: it owns its HTTP server, so its port is known once it listens. */
export interface ServingReceiver extends Receiver {
  /** Listens (and connects, in Socket Mode); rejects when the port is taken (EADDRINUSE). */
  start(): Promise<unknown>;
  stop(): Promise<void>;
  /** The port the server listens on, once started. */
  readonly port: number | undefined;
}

/** Options of `RouteServer`. */
export interface RouteServerOptions {
  routes: readonly CustomRoute[];
  /** The port to listen on (0 for any). */
  port: number;
  /** Takes the requests it returns true for before the routes are looked at (Slack's endpoint). */
  take?: (req: IncomingMessage, res: ServerResponse) => boolean;
  /** Told of a handler that threw (answered 500); without it the error goes on up. */
  onError?: (error: unknown) => void;
}

/**
 * Serves the routes on the port; anything else is 404, a known path by another method 405. As a
 * Bolt receiver it takes no Slack requests: the worker role's.
 */
export class RouteServer implements ServingReceiver {
  readonly #options: RouteServerOptions;
  #server: Server | undefined;

  constructor(options: RouteServerOptions) {
    this.#options = options;
  }

  /** Nothing of the app is needed: the routes are their own handlers. */
  init(): void {}

  get port(): number | undefined {
    const address = this.#server?.address();
    return typeof address === 'object' && address ? address.port : undefined;
  }

  async start(): Promise<Server> {
    if (this.#server)
      throw new ReceiverInconsistentStateError('the route server is already started');
    const server = createServer(this.#listener);
    this.#server = server;
    // once() rejects on 'error', which is how a port in use comes back.
    const listening = once(server, 'listening');
    server.listen(this.#options.port);
    try {
      await listening;
    } catch (error) {
      this.#server = undefined;
      throw error;
    }
    return server;
  }

  async stop(): Promise<void> {
    const server = this.#server;
    if (!server) return;
    this.#server = undefined;
    // In-flight requests finish (an ack waiting on its enqueue); idle keep-alives do not hold it.
    const closed = new Promise<void>((resolve, reject) =>
      server.close((error) => (error ? reject(error) : resolve())),
    );
    server.closeIdleConnections();
    await closed;
  }

  readonly #listener: RequestListener = (req, res) => {
    try {
      if (this.#options.take?.(req, res)) return;
      answerRoute(this.#options.routes, req, res);
    } catch (error) {
      if (!res.headersSent) res.writeHead(500);
      res.end();
      // Told, a handler that throws does not take the process down; untold, it goes on up.
      if (!this.#options.onError) throw error;
      this.#options.onError(error);
    }
  };
}

/** Answers a request by the route of its path and method: 404 for no path, 405 for no method. */
export function answerRoute(
  routes: readonly CustomRoute[],
  req: IncomingMessage,
  res: ServerResponse,
): void {
  const path = requestPath(req);
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
}

/** The path of a request, without its query; a target no URL parses is no path of ours. */
export function requestPath(req: IncomingMessage): string {
  try {
    return new URL(req.url ?? '/', 'http://localhost').pathname;
  } catch {
    return '';
  }
}

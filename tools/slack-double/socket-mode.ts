/**
 * Socket Mode as Slack speaks it: `apps.connections.open` (with the app-level token) hands out
 * a WebSocket URL; on connect the double says `hello`, then delivers envelopes (`events_api`,
 * `slash_commands`, `interactive`) and reads the app's acknowledgement (`{ envelope_id,
 * payload }`), which is where a Socket Mode app puts what an HTTP app puts in its response.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import { NoSocketConnectionError, SocketAckTimeoutError } from './errors.ts';
import { type ApiResponse, fail, ok } from './web-api/args.ts';
import type { Workspace } from './workspace.ts';

/** The envelope types Slack sends over Socket Mode. */
export type SocketEnvelopeType = 'events_api' | 'slash_commands' | 'interactive';

/** The app's acknowledgement of one envelope. */
export interface SocketAck {
  envelopeId: string;
  /** What the app answered with (a view's `response_action`, a command's message), if anything. */
  payload: unknown;
  ackMs: number;
}

interface PendingAck {
  resolve: (ack: SocketAck) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
  started: number;
}

const LINK_PATH = '/link/';

/** The Socket Mode side of the double, sharing the double's HTTP server and port. */
export class SocketModeServer {
  /** The app-level token `apps.connections.open` accepts. */
  readonly appToken: string;
  readonly #workspace: Workspace;
  readonly #wss = new WebSocketServer({ noServer: true });
  readonly #tickets = new Set<string>();
  readonly #sockets = new Set<WebSocket>();
  readonly #pending = new Map<string, PendingAck>();
  readonly #pingMs: number;
  #baseUrl = '';

  constructor(options: { workspace: Workspace; appToken: string; pingMs?: number }) {
    this.#workspace = options.workspace;
    this.appToken = options.appToken;
    this.#pingMs = options.pingMs ?? 10_000;
  }

  /** Takes the WebSocket upgrades of the double's HTTP server (`http://host:port`). */
  attach(server: Server, baseUrl: string): void {
    this.#baseUrl = baseUrl.replace(/^http/, 'ws');
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      const url = new URL(req.url ?? '/', 'http://double');
      const ticket = url.searchParams.get('ticket') ?? '';
      // A ticket is good for one connection, as Slack's are.
      if (url.pathname !== LINK_PATH || !this.#tickets.delete(ticket)) {
        socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n\r\n');
        return;
      }
      this.#wss.handleUpgrade(req, socket, head, (ws) => this.#connected(ws));
    });
  }

  /** Answers `apps.connections.open`: a one-use WebSocket URL for the app-level token. */
  open(token: string | undefined): ApiResponse {
    if (token === undefined || token === '') return fail('not_authed');
    if (!token.startsWith('xapp-')) return fail('not_allowed_token_type');
    if (token !== this.appToken) return fail('invalid_auth');
    const ticket = randomUUID();
    this.#tickets.add(ticket);
    return ok({ url: `${this.#baseUrl}${LINK_PATH}?ticket=${ticket}` });
  }

  /** How many app connections are open. */
  get connections(): number {
    return this.#sockets.size;
  }

  /** Resolves once the app has a connection open; bounded. */
  async waitForConnection(timeoutMs = 5_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.#sockets.size === 0) {
      if (Date.now() > deadline) throw new NoSocketConnectionError();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /**
   * Delivers one envelope over an open connection and resolves with the app's ack; rejects when
   * no connection is open or no ack comes within `timeoutMs` (Slack's 3 s by default).
   */
  deliver(
    type: SocketEnvelopeType,
    payload: Record<string, unknown>,
    options: { timeoutMs?: number; retryAttempt?: number; retryReason?: string } = {},
  ): Promise<SocketAck> {
    const socket = [...this.#sockets].at(-1);
    if (!socket) return Promise.reject(new NoSocketConnectionError());
    const envelopeId = randomUUID();
    const timeoutMs = options.timeoutMs ?? 3_000;
    const envelope: Record<string, unknown> = {
      envelope_id: envelopeId,
      type,
      payload,
      accepts_response_payload: type !== 'events_api',
    };
    if (type === 'events_api') {
      envelope.retry_attempt = options.retryAttempt ?? 0;
      envelope.retry_reason = options.retryReason ?? '';
    }
    return new Promise<SocketAck>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(envelopeId);
        reject(new SocketAckTimeoutError(envelopeId, timeoutMs));
      }, timeoutMs);
      this.#pending.set(envelopeId, { resolve, reject, timer, started: performance.now() });
      socket.send(JSON.stringify(envelope));
    });
  }

  /** Asks the app to reconnect, as Slack does before recycling a connection. */
  sendDisconnect(reason = 'refresh_requested'): void {
    for (const socket of this.#sockets) {
      socket.send(JSON.stringify({ type: 'disconnect', reason, debug_info: { host: 'double' } }));
    }
  }

  /** Closes every connection and rejects the acks still awaited. */
  async close(): Promise<void> {
    for (const [id, pending] of this.#pending) {
      clearTimeout(pending.timer);
      pending.reject(new SocketAckTimeoutError(id, 0));
    }
    this.#pending.clear();
    for (const socket of this.#sockets) socket.terminate();
    this.#sockets.clear();
    await new Promise<void>((resolve) => this.#wss.close(() => resolve()));
  }

  #connected(socket: WebSocket): void {
    this.#sockets.add(socket);
    // Slack pings its clients; the app's client reconnects when the pings stop.
    const ping = setInterval(() => socket.ping(), this.#pingMs);
    ping.unref();
    socket.on('close', () => {
      clearInterval(ping);
      this.#sockets.delete(socket);
    });
    socket.on('message', (data, isBinary) => {
      if (isBinary) return;
      this.#acked(String(data));
    });
    socket.send(
      JSON.stringify({
        type: 'hello',
        num_connections: this.#sockets.size,
        debug_info: { host: 'slack-double', build_number: 1, approximate_connection_time: 3600 },
        connection_info: { app_id: this.#workspace.appId },
      }),
    );
  }

  #acked(text: string): void {
    let message: { envelope_id?: unknown; payload?: unknown };
    try {
      message = JSON.parse(text) as typeof message;
    } catch {
      return;
    }
    if (typeof message.envelope_id !== 'string') return;
    const pending = this.#pending.get(message.envelope_id);
    if (!pending) return;
    this.#pending.delete(message.envelope_id);
    clearTimeout(pending.timer);
    pending.resolve({
      envelopeId: message.envelope_id,
      payload: message.payload,
      ackMs: performance.now() - pending.started,
    });
  }
}

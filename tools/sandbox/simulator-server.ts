/**
 * The simulator's web server (node:http, no framework): the page and its assets, the snapshot
 * the page renders, the change stream it listens to, the actions it sends, and the platform's
 * ticket page that "Open in dashboard" links reach. Loopback by default.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ticketPage } from '../emulator/dashboard.ts';
import type { EmulatorModel } from '../emulator/index.ts';
import { ActionNotJsonError, ActionTooLargeError, SandboxError } from './errors.ts';
import type { RevisionFeed } from './revision-feed.ts';
import type { SimulatorActions } from './simulator-actions.ts';
import type { SimulatorSnapshot } from './simulator-state.ts';

/** What the server serves from. */
export interface SimulatorServerOptions {
  host: string;
  port: number;
  feed: RevisionFeed;
  actions: SimulatorActions;
  model: EmulatorModel;
  /** The snapshot for one visitor identity in one workspace (team id), and one opened ticket. */
  snapshot: (
    userId: string | undefined,
    ticketId: string | undefined,
    team: string | undefined,
  ) => SimulatorSnapshot;
}

/** A running simulator server. */
export interface SimulatorServer {
  url: string;
  close(): Promise<void>;
}

const PUBLIC_DIR = new URL('./public/', import.meta.url);

// The only files served, with their types: nothing else on disk is reachable.
const ASSETS: Readonly<Record<string, string>> = {
  'index.html': 'text/html; charset=utf-8',
  'style.css': 'text/css; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'state.js': 'text/javascript; charset=utf-8',
  'connection.js': 'text/javascript; charset=utf-8',
  'names.js': 'text/javascript; charset=utf-8',
  'navigation.js': 'text/javascript; charset=utf-8',
  'render.js': 'text/javascript; charset=utf-8',
  'messages.js': 'text/javascript; charset=utf-8',
  'menus.js': 'text/javascript; charset=utf-8',
  'threads.js': 'text/javascript; charset=utf-8',
  'composers.js': 'text/javascript; charset=utf-8',
  'modals.js': 'text/javascript; charset=utf-8',
  'block-context.js': 'text/javascript; charset=utf-8',
  'notices.js': 'text/javascript; charset=utf-8',
  'platform-forms.js': 'text/javascript; charset=utf-8',
  'block-kit.js': 'text/javascript; charset=utf-8',
  'block-kit-fields.js': 'text/javascript; charset=utf-8',
  'block-kit-rich-text.js': 'text/javascript; charset=utf-8',
  'mrkdwn.js': 'text/javascript; charset=utf-8',
  'emoji.js': 'text/javascript; charset=utf-8',
  'platform.js': 'text/javascript; charset=utf-8',
  'dom.js': 'text/javascript; charset=utf-8',
  'time.js': 'text/javascript; charset=utf-8',
};

// Defence in depth: even if app text reached the DOM as markup, no script could run.
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

const BODY_LIMIT = 256 * 1024;

function send(res: ServerResponse, status: number, type: string, body: string | Buffer): void {
  res.writeHead(status, { 'content-type': type, ...SECURITY_HEADERS });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(body));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > BODY_LIMIT) throw new ActionTooLargeError();
    chunks.push(buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw new ActionNotJsonError();
  }
}

async function loadAssets(): Promise<Map<string, Buffer>> {
  const assets = new Map<string, Buffer>();
  for (const name of Object.keys(ASSETS)) {
    assets.set(name, await readFile(new URL(name, PUBLIC_DIR)));
  }
  return assets;
}

/** Starts the simulator's web server. */
export async function startSimulatorServer(
  options: SimulatorServerOptions,
): Promise<SimulatorServer> {
  const assets = await loadAssets();
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (error instanceof SandboxError) {
        sendJson(res, 400, { ok: false, error: error.message, code: error.code });
        return;
      }
      sendJson(res, 500, { ok: false, error: 'the sandbox failed to answer; see its log' });
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    const path = url.pathname;
    if (req.method === 'GET' && (path === '/' || path === '/index.html')) {
      send(res, 200, ASSETS['index.html'] ?? 'text/html', assets.get('index.html') ?? '');
      return;
    }
    const asset = /^\/assets\/([a-z-]+\.(?:js|css))$/.exec(path)?.[1];
    if (req.method === 'GET' && asset !== undefined) {
      const body = assets.get(asset);
      const type = ASSETS[asset];
      if (body && type) send(res, 200, type, body);
      else sendJson(res, 404, { ok: false, error: 'not found' });
      return;
    }
    if (req.method === 'GET' && path === '/api/state') {
      const as = url.searchParams.get('as') ?? undefined;
      const ticket = url.searchParams.get('ticket') ?? undefined;
      const team = url.searchParams.get('team') ?? undefined;
      sendJson(res, 200, options.snapshot(as, ticket, team));
      return;
    }
    if (req.method === 'GET' && path === '/api/events') {
      options.feed.subscribe(res);
      return;
    }
    if (req.method === 'POST' && path === '/api/actions') {
      // A JSON content type cannot be sent cross-site without a CORS preflight we never grant.
      if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
        sendJson(res, 415, { ok: false, error: 'actions are JSON' });
        return;
      }
      const result = await options.actions.perform(await readJson(req));
      sendJson(res, 200, result);
      return;
    }
    const dashboard = /^\/platform\/dashboard\/([^/]+)\/tickets\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && dashboard) {
      const tenant = decodeURIComponent(dashboard[1] ?? '');
      const id = decodeURIComponent(dashboard[2] ?? '');
      const ticket = options.model.hasTenant(tenant)
        ? options.model.findTicket(tenant, id)
        : undefined;
      if (!ticket) {
        send(res, 404, 'text/plain; charset=utf-8', 'No such ticket');
        return;
      }
      send(
        res,
        200,
        'text/html; charset=utf-8',
        ticketPage(ticket, options.model.listMessages(tenant, id)),
      );
      return;
    }
    if (req.method === 'GET' && path === '/healthz') {
      sendJson(res, 200, { status: 'ok' });
      return;
    }
    sendJson(res, 404, { ok: false, error: 'not found' });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const displayHost = host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host;
  return {
    url: `http://${displayHost}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        options.feed.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * The Bolt app with everything attached: receivers (HTTP or Socket Mode), listeners, the
 * outbox worker and the error path. Transport only in the receivers; the guarantees live in
 * the listeners and the outbox.
 */
import {
  App,
  type CustomRoute,
  HTTPReceiver,
  type Receiver,
  SocketModeReceiver,
} from '@slack/bolt';
import type { Logger } from 'pino';
import type { ServiceDeskClient } from '../servicedesk/index.ts';
import type { Stores } from '../store/types.ts';
import { BackgroundTasks, type ErrorReporter } from './background-tasks.ts';
import { boltLogger } from './bolt-logger.ts';
import type { SlackDeps, SlackSettings } from './deps.ts';
import { DeskCatalog } from './desk-catalog.ts';
import { ADD_MESSAGE, addMessageIntent } from './intents/add-message.ts';
import { CREATE_TICKET, createTicketIntent } from './intents/create-ticket.ts';
import { registerActions } from './listeners/actions/index.ts';
import { registerCommands } from './listeners/commands/index.ts';
import { registerEvents } from './listeners/events/index.ts';
import { registerShortcuts } from './listeners/shortcuts/index.ts';
import { registerViews } from './listeners/views/index.ts';
import { OutboxWorker } from './outbox/outbox-worker.ts';
import { PeopleDirectory } from './people-directory.ts';

/** What the Slack app is built from. */
export interface SlackAppOptions {
  botToken: string;
  /** HTTP mode when set and no app token is given. */
  signingSecret?: string | undefined;
  /** Socket Mode when set. */
  appToken?: string | undefined;
  /** Another Slack Web API base (tests, the sandbox); must end with a slash. */
  apiUrl?: string | undefined;
  port: number;
  agentEmails: ReadonlySet<string>;
  agentUsergroup?: string | undefined;
  settings: Omit<SlackSettings, 'submitWaitMs'> & { submitWaitMs?: number };
  logger: Logger;
  serviceDesk: ServiceDeskClient;
  stores: Stores;
  /** Extra HTTP routes (health, readiness, metrics) served in both modes. */
  routes?: CustomRoute[];
  worker?: { concurrency?: number; idleMs?: number; backoffBaseMs?: number; backoffMaxMs?: number };
}

/** A built Slack app. */
export interface SlackApp {
  app: App;
  deps: SlackDeps;
  /** Starts listening (HTTP server or Socket Mode connection) and the outbox worker; returns the HTTP port. */
  start(): Promise<number>;
  /** Stops taking requests, finishes in-flight work, leaves unfinished outbox entries stored. */
  stop(): Promise<void>;
}

/** Builds the Slack app. */
export function createSlackApp(options: SlackAppOptions): SlackApp {
  const logger = options.logger;
  const routes: CustomRoute[] = [
    {
      path: '/healthz',
      method: ['GET'],
      handler: (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"status":"ok"}');
      },
    },
    ...(options.routes ?? []),
  ];
  const receiver = createReceiver(options, routes);
  const app = new App({
    token: options.botToken,
    receiver,
    logger: boltLogger(logger),
    // Our own posts in linked threads must not come back as replies to the ticket.
    ignoreSelf: true,
    ...(options.apiUrl ? { clientOptions: { slackApiUrl: options.apiUrl } } : {}),
  });

  const report: ErrorReporter = (error, context) => {
    logger.error({ err: error, ...context }, 'unexpected error after Slack was answered');
  };
  const tasks = new BackgroundTasks(report);
  const people = new PeopleDirectory({
    client: app.client,
    agentEmails: options.agentEmails,
    agentUsergroup: options.agentUsergroup,
  });
  const handlers: ConstructorParameters<typeof OutboxWorker>[0]['handlers'] = {};
  const worker = new OutboxWorker({
    outbox: options.stores.outbox,
    handlers,
    logger,
    report,
    ...options.worker,
  });
  const deps: SlackDeps = {
    settings: { submitWaitMs: 2_000, ...options.settings },
    logger,
    client: app.client,
    serviceDesk: options.serviceDesk,
    stores: options.stores,
    people,
    desks: new DeskCatalog(options.serviceDesk),
    tasks,
    worker,
  };
  Object.assign(handlers, {
    [CREATE_TICKET]: createTicketIntent(deps),
    [ADD_MESSAGE]: addMessageIntent(deps),
  });

  registerCommands(app, deps);
  registerShortcuts(app, deps);
  registerViews(app, deps);
  registerActions(app);
  registerEvents(app, deps);

  app.error(async (error) => {
    const original = (error as { original?: unknown }).original ?? error;
    logger.error({ err: original, code: error.code }, 'unhandled error in a Slack listener');
    // Rethrown so the receiver answers 500 and Slack delivers again: an intent that could not
    // be stored must not be acknowledged as if it had been.
    throw error;
  });

  return {
    app,
    deps,
    async start() {
      const server = await app.start(options.port);
      worker.start();
      const address = (server as { address?: () => unknown } | undefined)?.address?.();
      return typeof address === 'object' && address && 'port' in address
        ? Number(address.port)
        : options.port;
    },
    async stop() {
      await app
        .stop()
        .catch((error: unknown) => logger.warn({ err: error }, 'receiver did not stop cleanly'));
      await tasks.drain(8_000);
      await worker.stop();
    },
  };
}

function createReceiver(options: SlackAppOptions, routes: CustomRoute[]): Receiver {
  const logger = boltLogger(options.logger);
  if (options.appToken) {
    return new SocketModeReceiver({
      appToken: options.appToken,
      logger,
      customRoutes: routes,
      installerOptions: { port: options.port },
    });
  }
  if (!options.signingSecret) throw new TypeError('HTTP mode needs a signing secret');
  return new HTTPReceiver({
    signingSecret: options.signingSecret,
    endpoints: '/slack/events',
    customRoutes: routes,
    logger,
    // Answer Slack only after the listener stored the intent (see app.error above). Bolt's
    // receiver already answers 401 to a bad or stale signature and 400 to a malformed body.
    processBeforeResponse: true,
  });
}

/**
 * The Bolt app with everything attached: receivers (HTTP or Socket Mode), listeners, the
 * outbox worker and the error path. Transport only in the receivers; the guarantees live in
 * the listeners and the outbox. One process may do everything, or only its part: a web
 * process answers Slack, a worker process runs the outbox and the mirror.
 */

import {
  type AnyMiddlewareArgs,
  App,
  type Authorize,
  type CustomRoute,
  type Middleware,
} from '@slack/bolt';
import type { WebClient, WebClientOptions } from '@slack/web-api';
import type { Logger } from 'pino';
import type { Now } from '../clock.ts';
import type { AppRole } from '../config.ts';
import type { Mirror } from '../mirror/mirror.ts';
import type { MirrorPoster } from '../mirror/types.ts';
import type { ServiceDeskClient } from '../servicedesk/index.ts';
import type { InstallationRecords, OAuthStateRecords } from '../store/install-types.ts';
import type { Stores } from '../store/types.ts';
import { answerUnhandled } from './app/answer-unhandled.ts';
import { BackgroundTasks, type ErrorReporter } from './app/background-tasks.ts';
import { boltLogger, installerLogger } from './app/bolt-logger.ts';
import { botAuthorization } from './app/bot-authorization.ts';
import { ConversationHomeBook, recordHomes } from './app/conversation-homes.ts';
import { InstalledTokens, InstalledWebClient, WorkspaceScope } from './app/installed-clients.ts';
import type { SignatureFailureReason } from './app/request-signature.ts';
import { RouteServer, type ServingReceiver } from './app/route-server.ts';
import {
  backgroundClientOptions,
  createBackgroundClient,
  interactiveClientOptions,
} from './app/slack-clients.ts';
import { SlackHttpReceiver } from './app/slack-http-receiver.ts';
import { HeldWebClient, SlackMethodHolds, workspaceOfToken } from './app/slack-method-holds.ts';
import { SlackSocketReceiver } from './app/slack-socket-receiver.ts';
import {
  adoptingRecords,
  forgetWorkspace,
  recordsOfEveryWorkspace,
} from './app/workspace-records.ts';
import { CardUpdater } from './cards/card-updater.ts';
import { serviceClockInputs } from './cards/service-clocks.ts';
import type { Installs, IntentDeps, SlackDeps, SlackSettings } from './deps.ts';
import { BOT_SCOPES } from './ids.ts';
import { addMessage } from './intents/add-message.ts';
import { addTriageNote } from './intents/add-triage-note.ts';
import { completeWorkflowStep } from './intents/complete-workflow-step.ts';
import { createTicket } from './intents/create-ticket.ts';
import {
  addHeldEdit,
  fileChannelMessage,
  withdrawChannelMessage,
} from './intents/file-channel-message.ts';
import { requestHuman } from './intents/request-human.ts';
import { askAfterResolve } from './intents/resolved-follow-up.ts';
import { sendToRequester } from './intents/send-to-requester.ts';
import { setDeskDetails } from './intents/set-desk-details.ts';
import { updateTicket } from './intents/update-ticket.ts';
import { registerActions } from './listeners/actions/index.ts';
import { registerCommands } from './listeners/commands/index.ts';
import { registerEvents } from './listeners/events/index.ts';
import { registerFunctions } from './listeners/functions/index.ts';
import { registerOptions } from './listeners/options/index.ts';
import { registerShortcuts } from './listeners/shortcuts/index.ts';
import { registerViews } from './listeners/views/index.ts';
import { type AnyIntentDefinition, intentHandlers } from './outbox/intent-definition.ts';
import { OutboxWorker } from './outbox/outbox-worker.ts';
import { knownTicketStatus, type PeopleReadMetrics, PeopleReads } from './people/fair-share.ts';
import { PeopleByEmail } from './people/people-by-email.ts';
import { PeopleDirectory } from './people/people-directory.ts';
import { TriageMembership } from './people/triage-membership.ts';
import { HealWindow } from './threads/heal-window.ts';
import { SlackMirrorPoster } from './threads/mirror-poster.ts';
import { DEFAULT_REOPEN_WINDOW_MS, RequesterNotices } from './threads/requester-notices.ts';
import { TriageThreadFinder } from './threads/triage-threads.ts';
import { DeskCatalog } from './tickets/desk-catalog.ts';
import { DeskFieldCatalog, deskFieldsOf } from './tickets/desk-fields.ts';
import { ServiceCatalog } from './tickets/service-catalog.ts';
import { TicketStatusMemo } from './tickets/ticket-status-memo.ts';
import { TriageChannelHeal } from './tickets/triage-channel-heal.ts';
import { TriageChannelRecords } from './tickets/triage-channel-records.ts';
import { TriageChannelPrivacy } from './triage/channel-privacy.ts';
import { logPublicTriageChannels } from './triage/public-triage-channels.ts';
import { TriageDigest, type TriageDigestOptions } from './triage/triage-digest.ts';

/** Installing by OAuth: Bolt's installer options, and our stores behind them. */
export interface SlackOAuthOptions {
  clientId: string;
  clientSecret: string;
  stateSecret: string;
  installations: InstallationRecords;
  states: OAuthStateRecords;
}

/** What the Slack app is built from. */
export interface SlackAppOptions {
  /** One workspace's bot token; unset when installed by OAuth (`oauth`). */
  botToken?: string | undefined;
  /** Installed by OAuth, into any number of workspaces or org-wide; exclusive of `botToken`. */
  oauth?: SlackOAuthOptions | undefined;
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
  /** Global Bolt middleware run before every listener (request metrics). */
  middleware?: Middleware<AnyMiddlewareArgs>[];
  /** Where people's refused reads, budget waits and answers are counted (metrics). */
  peopleMetrics?: PeopleReadMetrics;
  /** Told of each request that fails the signature check (HTTP mode; see the HTTP receiver). */
  onSignatureFailure?: (reason: SignatureFailureReason) => void;
  worker?: { concurrency?: number; idleMs?: number; backoffBaseMs?: number; backoffMaxMs?: number };
  /** How often the store's epoch marker is read (tests shorten it; see `HealWindow`). */
  healRecheckMs?: number;
  /** Wait between Slack calls while triage channels are read back (tests shorten it). */
  triageHealPaceMs?: number;
  /** How long a triage channel's privacy is kept (default 2 min; tests shorten it). */
  triagePrivacyMs?: number;
  /** The mirror (platform → Slack), built by the runtime: told of writes from Slack. */
  mirror: Mirror;
  /** The time the cards' service-level clocks are shown as of (default Date.now; tests move it). */
  now?: Now;
  /**
   * The triage channels' morning summary (TRIAGE_DIGEST_AT/TZ, with SLA_TARGETS and SLA_WARN_AT
   * for its clocks); unset: none. `now` and `sleep` are for tests.
   */
  triageDigest?:
    | Pick<TriageDigestOptions, 'schedule' | 'targets' | 'warnAt' | 'now' | 'sleep'>
    | undefined;
  /**
   * What this process runs (default all). `web`: the receiver and listeners, and the modal
   * submissions it waits on; the outbox's loops and the mirror run elsewhere. `worker`: the
   * outbox's loops and the mirror, and the routes on a plain HTTP server; no Slack requests.
   */
  role?: AppRole;
}

/** A built Slack app. */
export interface SlackApp {
  app: App;
  deps: SlackDeps;
  /** The outbox worker (tests run its entries one at a time with `runOnce`). */
  worker: OutboxWorker;
  /** The mirror's Slack side: what its worker posts with (the runtime runs the worker). */
  poster: MirrorPoster;
  /** The triage channels' morning summary, when configured (runs where the worker runs). */
  digest: TriageDigest | undefined;
  /**
   * Installed by OAuth: each call's token, and `runAs` to run work outside a request as a
   * given workspace (for records that carry their team); unset with one bot token.
   */
  installedTokens: InstalledTokens | undefined;
  /**
   * Starts what the role runs: listening (HTTP server or Socket Mode connection, or for a
   * worker only the routes) and the outbox worker; returns the HTTP port.
   */
  start(): Promise<number>;
  /** Stops taking requests, finishes in-flight work, leaves unfinished outbox entries stored. */
  stop(): Promise<void>;
}

/** Every kind of queued write the outbox worker runs. */
export const INTENTS: readonly AnyIntentDefinition[] = [
  createTicket,
  addMessage,
  updateTicket,
  requestHuman,
  fileChannelMessage,
  withdrawChannelMessage,
  addHeldEdit,
  askAfterResolve,
  addTriageNote,
  sendToRequester,
  setDeskDetails,
  completeWorkflowStep,
];

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
  const clientOptions = {
    ...interactiveClientOptions,
    ...(options.apiUrl ? { slackApiUrl: options.apiUrl } : {}),
  };
  const built = buildClients(options, clientOptions);
  const receiver = createReceiver(
    built.homes && built.tokens && options.oauth
      ? {
          ...options,
          oauth: {
            ...options.oauth,
            installations: adoptingRecords(options.oauth.installations, {
              homes: built.homes,
              tokens: built.tokens,
              stores: options.stores,
              logger,
            }),
          },
        }
      : options,
    routes,
  );
  const { interactive, background } = built;
  const app = new App({
    // Not `token`: Bolt would call auth.test in its constructor and own none of its failure.
    // Installed by OAuth, Bolt takes the receiver's installer's `authorize` instead.
    ...(built.authorize ? { authorize: built.authorize } : {}),
    receiver,
    logger: boltLogger(logger),
    // Our own posts in linked threads must not come back as replies to the ticket.
    ignoreSelf: true,
    // No listener keeps conversation state; Bolt's store would run on every event for nothing.
    convoStore: false,
    // The clients Bolt hands listeners carry the token `authorize` gives, with these options.
    clientOptions,
  });
  const installs: Installs | undefined =
    options.oauth && built.tokens && built.homes
      ? removeInstallations(options.oauth.installations, built.tokens, logger, {
          homes: built.homes,
          stores: options.stores,
        })
      : undefined;

  const report: ErrorReporter = (error, context) => {
    logger.error({ err: error, ...context }, 'unexpected error after Slack was answered');
  };
  // Built in dependency order: the mirror's poster, the intents' dependencies,
  // the worker that runs the intents, and last the listeners' dependencies around them.
  // No card or note goes to a triage channel Slack does not call private (fail closed).
  const triagePrivacy = new TriageChannelPrivacy({
    client: background,
    ...(options.triagePrivacyMs !== undefined ? { ttlMs: options.triagePrivacyMs } : {}),
  });
  const desks = new DeskCatalog(options.serviceDesk);
  const triageMembers = new TriageMembership({
    client: background,
    stores: options.stores,
    privacy: triagePrivacy,
    desks,
  });
  const people = new PeopleDirectory({
    client: interactive,
    agentEmails: options.agentEmails,
    agentUsergroup: options.agentUsergroup,
    deskAgents: triageMembers,
  });
  const statuses = new TicketStatusMemo();
  const deskFields = new DeskFieldCatalog({
    client: options.serviceDesk,
    onRefreshError: (error, desk) =>
      logger.warn({ err: error, desk }, 'desk fields could not be refreshed; the kept copy serves'),
  });
  // A card shows a desk's field values by their names; a card never fails for want of them.
  const fieldsOf = (desk: string | null | undefined) => deskFieldsOf({ logger, deskFields }, desk);
  // Slack people by the platform's emails, one cache for the cards and the mirror's lines.
  const byEmail = new PeopleByEmail({ client: background });
  // The clocks agents see on cards, computed as each card is built.
  const serviceClocks = serviceClockInputs(options.settings, options.now ?? Date.now);
  const cards = new CardUpdater({
    serviceClocks,
    client: background,
    dashboardUrl: options.settings.dashboardUrl,
    logger: logger.child({ component: 'cards' }),
    deskFields: fieldsOf,
    byEmail: (email) => byEmail.person(email),
  });
  const { mirror } = options;
  const poster = new SlackMirrorPoster({
    client: background,
    byEmail,
    deskFields: fieldsOf,
    cards,
    dashboardUrl: options.settings.dashboardUrl,
    notices: new RequesterNotices(background, options.stores.claims, {
      kept: options.stores.fairShare,
      windowMs: options.settings.reopenWindowMs ?? DEFAULT_REOPEN_WINDOW_MS,
    }),
    personAsked: (ticketId) => mirror.isPersonAsked(ticketId),
    onStatus: (ticketId, status, seen) => statuses.setStatus(ticketId, status, seen),
    triagePrivacy,
    logger: logger.child({ component: 'triage-privacy' }),
    serviceClocks,
    oncallGroups: options.settings.deskOncallGroups,
  });
  // Intents run under an outbox lease: their Slack calls go through the bounded background
  // client, which answers a 429 at once instead of sleeping past the lease.
  const intentDeps: IntentDeps = {
    settings: { submitWaitMs: 2_000, ...options.settings },
    logger,
    client: background,
    serviceDesk: options.serviceDesk,
    stores: options.stores,
    people,
    statuses,
    desks,
    reads: new PeopleReads({
      store: options.stores.fairShare,
      serviceDesk: options.serviceDesk,
      logger: logger.child({ component: 'fair-share' }),
      metrics: options.peopleMetrics,
      known: (ticketId) => knownTicketStatus({ statuses, mirror }, ticketId),
    }),
    healWindow: new HealWindow({
      claims: options.stores.claims,
      ...(options.healRecheckMs !== undefined ? { recheckMs: options.healRecheckMs } : {}),
    }),
    mirror,
    triageThreads: new TriageThreadFinder({
      client: background,
      stores: options.stores,
      relink: (ticketId, thread) => mirror.relinkThread(ticketId, thread),
    }),
    triageMembers,
    deskFields,
    serviceClocks,
  };
  const worker = new OutboxWorker({
    outbox: options.stores.outbox,
    handlers: intentHandlers(INTENTS, intentDeps),
    logger,
    report,
    ...options.worker,
  });
  const tasks = new BackgroundTasks(report);
  const triageRecords = new TriageChannelRecords({
    client: background,
    ...(options.triageHealPaceMs !== undefined ? { paceMs: options.triageHealPaceMs } : {}),
  });
  // Installed by OAuth: each installation's triage channels read back with its own token.
  const healRecords =
    built.scope && built.tokens && built.homes
      ? recordsOfEveryWorkspace({
          recordsOf: () =>
            new TriageChannelRecords({
              client: background,
              ...(options.triageHealPaceMs !== undefined
                ? { paceMs: options.triageHealPaceMs }
                : {}),
            }),
          writer: triageRecords,
          tokens: built.tokens,
          scope: built.scope,
          homes: built.homes,
        })
      : triageRecords;
  const triageHeal = new TriageChannelHeal({
    records: healRecords,
    stores: options.stores,
    logger: logger.child({ component: 'triage-heal' }),
    report,
    ...(options.healRecheckMs !== undefined ? { recheckMs: options.healRecheckMs } : {}),
  });
  const catalog = new ServiceCatalog({
    client: options.serviceDesk,
    onRefreshError: (error) =>
      logger.warn({ err: error }, 'service catalog not refreshed; the kept copy serves'),
    onTruncated: (kept) => logger.warn({ kept }, 'service catalog cut to its first items'),
  });
  const digest = options.triageDigest
    ? new TriageDigest({
        ...options.triageDigest,
        client: background,
        platform: options.serviceDesk,
        stores: options.stores,
        privacy: triagePrivacy,
        dashboardUrl: options.settings.dashboardUrl,
        logger: logger.child({ component: 'triage-digest' }),
      })
    : undefined;
  const deps: SlackDeps = {
    ...intentDeps,
    client: interactive,
    tasks,
    worker,
    deskFields,
    catalog,
    triageRecords,
    ...(installs ? { installs } : {}),
  };

  // First, so that it finishes last and answers what no listener did.
  app.use(answerUnhandled(logger));
  // Installed by OAuth: the request's token (found by `authorize`) serves every Slack call its
  // listeners and their background tasks make through the app's own clients.
  const { scope } = built;
  if (scope) {
    app.use(async ({ context, next }) => {
      const workspace = context.isEnterpriseInstall
        ? context.enterpriseId
        : (context.teamId ?? context.enterpriseId);
      if (!context.botToken || !workspace) return next();
      await scope.run({ token: context.botToken, workspace, actor: context.userId }, next);
    });
  }
  // Installed by OAuth: each request's conversation and person live in its workspace, so
  // later work naming them (outside any request too) is done with that workspace's token.
  if (built.homes) app.use(recordHomes(built.homes, logger));
  for (const middleware of options.middleware ?? []) app.use(middleware);
  registerCommands(app, deps);
  registerShortcuts(app, deps);
  registerViews(app, deps);
  registerActions(app, deps);
  registerOptions(app, deps);
  registerEvents(app, deps);
  registerFunctions(app, deps);

  app.error(async (error) => {
    const original = (error as { original?: unknown }).original ?? error;
    logger.error({ err: original, code: error.code }, 'unhandled error in a Slack listener');
    // Rethrown so the receiver answers 500 and Slack delivers again: an intent that could not
    // be stored must not be acknowledged as if it had been.
    throw error;
  });

  const role = options.role ?? 'all';
  // The start-up look at the triage channels, looked again at the heal's pace while the app
  // is installed in no workspace yet (OAuth mode before the first install).
  let lookAgain: NodeJS.Timeout | undefined;
  let stopping = false;
  const lookAtTriageChannels = (waited: boolean): void =>
    tasks.run('check-triage-channels', async () => {
      const looked = await logPublicTriageChannels(
        { stores: options.stores, logger },
        triagePrivacy,
      );
      if (looked === 'checked' || stopping) return;
      if (!waited) {
        logger.info(
          'triage channels not checked for privacy yet: the app is installed in no workspace yet; checked after an install',
        );
      }
      lookAgain = setTimeout(() => lookAtTriageChannels(true), options.healRecheckMs ?? 60_000);
      lookAgain.unref();
    });
  return {
    app,
    deps,
    worker,
    poster,
    digest,
    installedTokens: built.tokens,
    async start() {
      // Bolt starts the receiver, which owns its server and so knows its port.
      await app.start();
      if (role !== 'web') {
        worker.start();
        triageHeal.start();
        digest?.start();
        // Said at start, as whenever a post is withheld: a public triage channel gets nothing.
        lookAtTriageChannels(false);
      }
      return receiver.port ?? options.port;
    },
    async stop() {
      stopping = true;
      clearTimeout(lookAgain);
      await app
        .stop()
        .catch((error: unknown) => logger.warn({ err: error }, 'receiver did not stop cleanly'));
      // Side by side: the whole shutdown has 10 s, and an entry left unfinished stays stored.
      await Promise.all([tasks.drain(8_000), worker.stop(), triageHeal.stop(), digest?.stop()]);
      await cards.stop();
    },
  };
}

// Receivers of ours on Bolt's Receiver interface: Bolt's own are patched by nothing here.
function createReceiver(options: SlackAppOptions, routes: CustomRoute[]): ServingReceiver {
  // A worker takes no Slack requests: its receiver only serves the routes.
  if (options.role === 'worker') return new RouteServer({ routes, port: options.port });
  const logger = options.logger;
  if (options.appToken) {
    return new SlackSocketReceiver({
      appToken: options.appToken,
      apiUrl: options.apiUrl,
      routes,
      port: options.port,
      logger,
      boltLogger: boltLogger(logger),
    });
  }
  if (!options.signingSecret) throw new TypeError('HTTP mode needs a signing secret');
  const { oauth } = options;
  return new SlackHttpReceiver({
    ...(oauth
      ? {
          clientId: oauth.clientId,
          clientSecret: oauth.clientSecret,
          stateSecret: oauth.stateSecret,
          installationStore: oauth.installations,
          scopes: Object.keys(BOT_SCOPES),
          installerOptions: {
            stateStore: oauth.states,
            // /slack/install sends the admin straight to Slack's consent screen.
            directInstall: true,
            // An admin waits in the browser: one quick retry, a 429 answered at once (they
            // start again from /slack/install), as for anyone waiting on the app.
            clientOptions: {
              ...interactiveClientOptions,
              ...(options.apiUrl ? { slackApiUrl: options.apiUrl } : {}),
            },
            // Slack's authorize page beside its Web API (the double's too).
            ...(options.apiUrl
              ? { authorizationUrl: new URL('../oauth/v2/authorize', options.apiUrl).href }
              : {}),
            // Also its Web API client's: that one's debug lines would print the client secret.
            logger: installerLogger(logger),
          },
        }
      : {}),
    signingSecret: options.signingSecret,
    endpoint: SLACK_EVENTS_PATH,
    routes,
    port: options.port,
    logger,
    boltLogger: boltLogger(logger),
    ...(options.onSignatureFailure ? { onSignatureFailure: options.onSignatureFailure } : {}),
  });
}

const SLACK_EVENTS_PATH = '/slack/events';

/** The app's two clients, and what OAuth mode adds to find each call's token. */
interface BuiltClients {
  interactive: WebClient;
  background: WebClient;
  /** Single-token mode, and a worker's (which takes no requests); unset: the installer's. */
  authorize?: Authorize<boolean>;
  scope?: WorkspaceScope;
  tokens?: InstalledTokens;
  /** Installed by OAuth: where conversations and people live. */
  homes?: ConversationHomeBook;
}

// One bot token: as ever. Installed by OAuth: clients that find each call's token.
function buildClients(options: SlackAppOptions, clientOptions: WebClientOptions): BuiltClients {
  const { logger, oauth } = options;
  if (oauth) {
    const scope = new WorkspaceScope();
    const homes = new ConversationHomeBook({ homes: options.stores.homes });
    const tokens = new InstalledTokens({
      scope,
      installations: oauth.installations,
      claims: options.stores.claims,
      homes,
    });
    const withApi = options.apiUrl ? { slackApiUrl: options.apiUrl } : {};
    return {
      interactive: new InstalledWebClient({ ...clientOptions, logger: boltLogger(logger) }, tokens),
      background: new InstalledWebClient(
        { ...backgroundClientOptions, ...withApi, logger: boltLogger(logger) },
        tokens,
      ),
      scope,
      tokens,
      homes,
      // A worker serves no Slack request, so nothing asks it; Bolt wants one all the same.
      ...(options.role === 'worker'
        ? {
            authorize: async () => {
              throw new TypeError('a worker process takes no Slack requests');
            },
          }
        : {}),
    };
  }
  const botToken = options.botToken;
  if (!botToken) throw new TypeError('the Slack app needs a bot token or OAuth options');
  // The client people wait on; background work has its own (see slack-clients).
  // One Retry-After per method for the workspace, whichever client met the 429.
  const holds = new SlackMethodHolds({
    claims: options.stores.claims,
    workspace: workspaceOfToken(botToken),
  });
  const interactive = new HeldWebClient(
    botToken,
    { ...clientOptions, logger: boltLogger(logger) },
    holds,
  );
  return {
    interactive,
    background: createBackgroundClient(botToken, logger, options.apiUrl, { holds }),
    authorize: botAuthorization(interactive, botToken),
  };
}

// Removing an installation: from the store, what the clients kept of it, and the records of
// its workspace (homes, thread links, triage channels, channel modes); the other
// workspaces' records stay as they are.
function removeInstallations(
  installations: InstallationRecords,
  tokens: InstalledTokens,
  logger: Logger,
  kept: { homes: ConversationHomeBook; stores: Stores },
): Installs {
  return {
    async remove(ref, why) {
      const query = ref.isEnterpriseInstall
        ? { teamId: undefined, enterpriseId: ref.enterpriseId as string, isEnterpriseInstall: true }
        : {
            teamId: ref.teamId as string,
            enterpriseId: ref.enterpriseId,
            isEnterpriseInstall: false,
          };
      await installations.deleteInstallation(query);
      const workspace = ref.isEnterpriseInstall ? ref.enterpriseId : ref.teamId;
      const removed = workspace
        ? await forgetWorkspace(workspace, kept)
        : { ids: [], links: 0, triage: 0, modes: 0 };
      tokens.forget(workspace, removed.ids);
      logger.info(
        {
          team: ref.teamId,
          enterprise: ref.enterpriseId,
          kind: ref.isEnterpriseInstall ? 'org' : 'workspace',
          why,
          homes: removed.ids.length,
          links: removed.links,
          triageChannels: removed.triage,
          channelModes: removed.modes,
        },
        'Slack installation removed: the app no longer calls Slack for it',
      );
    },
  };
}

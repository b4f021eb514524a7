/**
 * The app, put together once: settings, logger, Redis and stores, the service-desk client with
 * the shared rate budget and metrics, readiness, the platform's webhook route, the Slack app
 * with its outbox worker and the mirror. `main.ts`, the sandbox, the end-to-end tests and the
 * ack benchmark all build the app here, so they run exactly what production runs; what they
 * may replace (stores, the platform's dispatcher, the mirror's pace for tests) is named in
 * `RuntimeParts`, and nothing else differs.
 */
import type { CustomRoute } from '@slack/bolt';
import { WebClient } from '@slack/web-api';
import type { Cluster, Redis } from 'ioredis';
import type { Logger } from 'pino';
import { Registry } from 'prom-client';
import type { Clock, Now } from './clock.ts';
import type { Config } from './config.ts';
import {
  type ChangeFeedMode,
  createBudgetHooks,
  MirrorComponent,
  type MirrorComponentOptions,
  type PollPlanner,
  WEBHOOK_PATH,
  webhookHandler,
} from './mirror/index.ts';
import { authTestAnyInstallation } from './ops/installations-auth-test.ts';
import { type AppMetrics, createMetrics } from './ops/metrics.ts';
import { opsRoutes } from './ops/ops-routes.ts';
import { Readiness } from './ops/readiness.ts';
import { createRedisClient } from './ops/redis-client.ts';
import { SignatureFailures } from './ops/signature-failures.ts';
import { slackRequestMetrics, withDuplicateCounting } from './ops/slack-request-metrics.ts';
import { ServiceDeskClient, type ServiceDeskClientOptions } from './servicedesk/index.ts';
import { createSlackApp, type SlackApp } from './slack/create-slack-app.ts';
import {
  createMemoryInstallStores,
  createMemoryStores,
  createRedisInstallStores,
  createRedisStores,
  type InstallStores,
  TokenCipher,
} from './store/index.ts';
import type { Stores } from './store/types.ts';

/** What a caller may put in place of what the settings would build. */
export interface RuntimeParts {
  /** The Redis connection; by default one to `REDIS_URL`, closed on stop. */
  redis?: Redis | Cluster;
  /** The stores; by default on Redis (or in memory without `REDIS_URL`). */
  stores?: Stores;
  /** The platform client's retries, timeouts and dispatcher (tests shorten or mock them). */
  platform?: Pick<ServiceDeskClientOptions, 'retry' | 'timeouts' | 'dispatcher'>;
  /** Told each platform response after the metrics and readiness (tests count requests). */
  onPlatformResponse?: (operation: string, status: number | undefined) => void;
  /** The mirror's rule and pace (tests shorten them), or false for no mirror in this process. */
  mirror?: { planner?: PollPlanner; idleMs?: number; leaseMs?: number; pacer?: boolean } | false;
  /** The change feed's pace and way (tests force them), or false for no feed in this process. */
  changeFeed?: (MirrorComponentOptions['feed'] & { mode?: ChangeFeedMode }) | false;
  /** The clock watch's pace (tests shorten it). */
  clockWatch?: { idleMs?: number; retryMs?: number };
  /**
   * The clock of the stores, the mirror and the cards' service-level clocks (default real
   * time): tests move it forward to a clock's warning point instead of waiting for it.
   */
  now?: Now;
  /** The outbox worker's pace (tests shorten it). */
  worker?: { idleMs?: number; backoffBaseMs?: number; backoffMaxMs?: number };
  /** How long a modal submission waits for its ticket before answering Slack. */
  submitWaitMs?: number;
  /** How long a workflow step's run waits for the service desk (tests shorten it). */
  workflowStepAnswerMs?: number;
  /** How often the store's epoch marker is read (tests shorten it; see `HealWindow`). */
  healRecheckMs?: number;
  /** Wait between Slack calls while triage channels are read back (tests shorten it). */
  triageHealPaceMs?: number;
  /** How long a triage channel's privacy is kept (default 2 min; tests shorten it). */
  triagePrivacyMs?: number;
  /** How long a readiness check may take. */
  readinessTimeoutMs?: number;
  /** How soon a failed Slack auth.test is tried again by readiness (default 30 s). */
  slackRetryMs?: number;
  /** Node's process metrics on /metrics (off where several apps share a process). */
  processMetrics?: boolean;
  /** The morning summary's clock (tests run it on an injected one). */
  digestClock?: Partial<Clock>;
  /** Installed by OAuth: the installation and state stores (by default beside `stores`). */
  installStores?: InstallStores;
}

/** The app, built and not yet started. */
export interface Runtime {
  config: Config;
  logger: Logger;
  redis: Redis | Cluster | undefined;
  stores: Stores;
  /** Installed by OAuth: the installations and install states; unset with one bot token. */
  installStores: InstallStores | undefined;
  serviceDesk: ServiceDeskClient;
  metrics: AppMetrics;
  readiness: Readiness;
  slack: SlackApp;
  /** The mirror, built once here: the Slack app holds its interface, this process may run it. */
  mirror: MirrorComponent;
  /** Starts listening, the worker and the mirror; checks Slack's auth; returns the port. */
  start(): Promise<number>;
  /** Stops in order: unready, Slack (in-flight work finishes), the platform client, Redis. */
  stop(): Promise<void>;
}

// Shared figures (every replica reports the same), refreshed in the background so a scrape
// never waits on Redis for them.
const SHARED_METRICS_MS = 10_000;

/** Builds the app from its settings. */
export function createRuntime(config: Config, logger: Logger, parts: RuntimeParts = {}): Runtime {
  const ownsRedis = parts.redis === undefined && config.redisUrl !== undefined;
  const redis =
    parts.redis ??
    (config.redisUrl
      ? createRedisClient(config.redisUrl, { cluster: config.redisCluster, logger })
      : undefined);
  const budget = config.serviceDesk.rateLimits;
  const triageDefaults = config.slack.deskTriageChannels;
  const stores =
    parts.stores ??
    (redis
      ? createRedisStores({
          redis,
          prefix: config.redisKeyPrefix,
          budget,
          triageDefaults,
          ...(parts.now ? { now: parts.now } : {}),
        })
      : createMemoryStores({ budget, triageDefaults, ...(parts.now ? { now: parts.now } : {}) }));

  // Installed by OAuth: the installations beside the other stores, their tokens sealed.
  const oauth = config.slack.oauth;
  const installStores: InstallStores | undefined =
    parts.installStores ??
    (oauth
      ? redis
        ? createRedisInstallStores({
            redis,
            prefix: config.redisKeyPrefix,
            cipher: new TokenCipher(oauth.tokenKey),
            stateSecret: oauth.stateSecret,
          })
        : createMemoryInstallStores({
            cipher: new TokenCipher(oauth.tokenKey),
            stateSecret: oauth.stateSecret,
          })
      : undefined);

  // Every request of every replica inside the platform's limits, with a reserve for people.
  let metrics: AppMetrics | undefined;
  const budgetHooks = createBudgetHooks({
    budget: stores.budget,
    logger: logger.child({ component: 'rate-budget' }),
    onInteractiveDelayed: (waitedMs) => metrics?.observeBudgetWait(waitedMs / 1000, 'granted'),
  });
  let readiness: Readiness | undefined;
  const serviceDesk = new ServiceDeskClient({
    baseUrl: config.serviceDesk.url,
    apiKey: config.serviceDesk.apiKey,
    variant: config.serviceDesk.variant,
    logger: logger.child({ component: 'servicedesk' }),
    acquire: budgetHooks.acquire,
    onRateLimit: budgetHooks.onRateLimit,
    onResponse: ({ operation, status }) => {
      metrics?.observePlatformResponse(operation, status);
      readiness?.platformResponded(status);
      parts.onPlatformResponse?.(operation, status);
    },
    ...parts.platform,
  });
  metrics = createMetrics({
    registry: new Registry(),
    processMetrics: parts.processMetrics ?? true,
    sources: {
      outboxStats: () => stores.outbox.stats(),
      rateLimit: () => serviceDesk.rateLimit,
    },
  });
  const appMetrics = metrics;
  readiness = new Readiness({
    redis,
    probePlatform: (signal) => serviceDesk.listDesks({ signal, priority: 'interactive' }),
    // Its own client without retries: a probe must answer now, not after Slack's retry schedule.
    // Installed by OAuth: ready when one installation answers.
    verifySlack: () =>
      installStores
        ? authTestAnyInstallation(installStores.installations, config.slack.apiUrl)
        : new WebClient(config.slack.botToken, {
            retryConfig: { retries: 0 },
            ...(config.slack.apiUrl ? { slackApiUrl: config.slack.apiUrl } : {}),
          }).auth.test(),
    ...(parts.readinessTimeoutMs !== undefined ? { checkTimeoutMs: parts.readinessTimeoutMs } : {}),
    ...(parts.slackRetryMs !== undefined ? { slackRetryMs: parts.slackRetryMs } : {}),
  });
  const ready = readiness;

  // The platform's push hints, on every replica's port whatever its role: a hint only writes
  // to the shared poll schedule, which the replicas running the mirror read.
  const webhookSecret = config.serviceDesk.webhookSecret;
  const runsMirror = parts.mirror !== false;
  const mirrorPace = parts.mirror || {};
  const { mode, ...feedPace } = parts.changeFeed || {};
  // The mirror, once: its hints serve the webhook route, its interface the Slack side, and
  // where it runs (not a web process, which leaves it to the workers) its worker and feed. A
  // lease lets one replica scan per period, so every worker may run the feed.
  const feedMode =
    !runsMirror || parts.changeFeed === false || config.role === 'web'
      ? undefined
      : (mode ?? config.serviceDesk.changeFeed);
  const mirror = new MirrorComponent({
    platform: serviceDesk,
    stores,
    logger,
    runs: runsMirror,
    ...(mirrorPace.planner ? { planner: mirrorPace.planner } : {}),
    paced: runsMirror && mirrorPace.pacer !== false,
    ...(parts.now ? { now: parts.now } : {}),
    ...(feedMode ? { feedMode } : {}),
    worker: {
      ...(mirrorPace.idleMs !== undefined ? { idleMs: mirrorPace.idleMs } : {}),
      ...(mirrorPace.leaseMs !== undefined ? { leaseMs: mirrorPace.leaseMs } : {}),
      onPosted: (item) => appMetrics.observeMirrorLatency((item.postedAt - item.createdAt) / 1000),
    },
    feed: { pushed: webhookSecret !== undefined, ...feedPace },
    clocks: {
      targets: config.slack.slaTargets,
      warnAt: config.slack.slaWarnAt,
      ...parts.clockWatch,
      onWarned: (warning) =>
        appMetrics.observeClockWarning((warning.postedAt - warning.pointAt) / 1000),
    },
    triage: {
      pushed: webhookSecret !== undefined,
      onCard: (card) => appMetrics.observeTriageCard((card.postedAt - card.createdAt) / 1000),
      onChannelGone: () => appMetrics.countTriageChannelGone(),
    },
  });
  const webhookRoutes: CustomRoute[] = webhookSecret
    ? [
        {
          path: WEBHOOK_PATH,
          method: ['POST'],
          handler: webhookHandler({
            secret: webhookSecret,
            hints: mirror.hints,
            triage: mirror.triage,
            claims: stores.claims,
            onOutcome: (outcome) => appMetrics.countWebhook(outcome),
            logger: logger.child({ component: 'webhook' }),
          }),
        },
      ]
    : [];

  const signatureFailures = new SignatureFailures({ logger, metrics: appMetrics });
  const slack = createSlackApp({
    botToken: config.slack.botToken,
    oauth:
      oauth && installStores
        ? {
            clientId: oauth.clientId,
            clientSecret: oauth.clientSecret,
            stateSecret: oauth.stateSecret,
            installations: installStores.installations,
            states: installStores.states,
          }
        : undefined,
    signingSecret: config.slack.signingSecret,
    appToken: config.slack.appToken,
    apiUrl: config.slack.apiUrl,
    port: config.port,
    role: config.role,
    agentEmails: config.slack.agentEmails,
    agentUsergroup: config.slack.agentUsergroup,
    settings: {
      ticketEmoji: config.slack.ticketEmoji,
      channelDesks: config.slack.channelDesks,
      channelModes: config.slack.channelModes,
      autoChannelHoldMs: config.slack.autoChannelHoldMs,
      reopenWindowMs: config.slack.reopenWindowMs,
      triageReactions: config.slack.triageReactions,
      slaTargets: config.slack.slaTargets,
      slaWarnAt: config.slack.slaWarnAt,
      panePrompts: config.slack.assistantPrompts,
      deskOncallGroups: config.slack.deskOncallGroups,
      dashboardUrl: config.serviceDesk.dashboardUrl,
      dashboardHosts: config.serviceDesk.dashboardHosts,
      ...(parts.submitWaitMs !== undefined ? { submitWaitMs: parts.submitWaitMs } : {}),
      ...(parts.workflowStepAnswerMs !== undefined
        ? { workflowStepAnswerMs: parts.workflowStepAnswerMs }
        : {}),
    },
    logger,
    serviceDesk,
    stores: withDuplicateCounting(stores, appMetrics),
    routes: [...opsRoutes({ readiness: ready, registry: appMetrics.registry }), ...webhookRoutes],
    middleware: [slackRequestMetrics(appMetrics)],
    onSignatureFailure: (reason) => signatureFailures.record(reason),
    peopleMetrics: appMetrics,
    ...(parts.worker ? { worker: parts.worker } : {}),
    ...(parts.healRecheckMs !== undefined ? { healRecheckMs: parts.healRecheckMs } : {}),
    ...(parts.triageHealPaceMs !== undefined ? { triageHealPaceMs: parts.triageHealPaceMs } : {}),
    ...(parts.triagePrivacyMs !== undefined ? { triagePrivacyMs: parts.triagePrivacyMs } : {}),
    ...(parts.now ? { now: parts.now } : {}),
    mirror,
    triageDigest: config.slack.triageDigest && {
      schedule: config.slack.triageDigest,
      targets: config.slack.slaTargets,
      warnAt: config.slack.slaWarnAt,
      ...parts.digestClock,
    },
  });
  // The worker posts through the Slack app's poster: built after it, as it needs the app.
  mirror.attach(slack.poster);

  const { perMinute, perHour } = budget;
  const refreshSharedMetrics = async () => {
    const usage = await stores.budget.usage();
    appMetrics.setRateBudgetRemaining('minute', Math.max(0, perMinute - usage.minute));
    appMetrics.setRateBudgetRemaining('hour', Math.max(0, perHour - usage.hour));
    // Linked tickets are counted as those the mirror still polls.
    appMetrics.setLinkedTickets({ polled: await stores.schedule.size() });
  };
  let sharedMetrics: NodeJS.Timeout | undefined;

  return {
    config,
    logger,
    redis,
    stores,
    installStores,
    serviceDesk,
    metrics: appMetrics,
    readiness: ready,
    slack,
    mirror,
    async start() {
      sharedMetrics = setInterval(() => {
        refreshSharedMetrics().catch((error: unknown) =>
          logger.debug({ err: error }, 'shared metrics not refreshed'),
        );
      }, SHARED_METRICS_MS);
      sharedMetrics.unref();
      const port = await slack.start();
      // Where the outbox runs, so does the mirror: a web process leaves both to the workers.
      if (config.role !== 'web') mirror.start();
      // Said once, here; readiness tries again when asked, and a request's authorize too.
      const slackAuth = await ready.verifySlackAtStart();
      if (!slackAuth.ok && slackAuth.detail.includes('no_installation')) {
        // Installed by OAuth and not yet installed anywhere: expected on a first start.
        logger.warn(
          'no workspace has installed the app yet: open /slack/install on its public URL; /readyz answers 503 until one has',
        );
      } else if (!slackAuth.ok) {
        const what = slackAuth.answered
          ? 'Slack refused auth.test at start'
          : 'Slack did not answer auth.test at start';
        logger.error(
          { detail: slackAuth.detail },
          `${what}: ${slackAuth.detail}; will retry, and /readyz answers 503 until it passes (\`npm run doctor\` shows what to fix)`,
        );
      }
      return port;
    },
    async stop() {
      clearInterval(sharedMetrics);
      ready.markShuttingDown();
      // Side by side with Slack's in-flight work: the whole shutdown has 10 s.
      await Promise.all([slack.stop(), mirror.stop()]);
      await serviceDesk.close();
      // A caller's connection is the caller's to close.
      if (ownsRedis) await redis?.quit().catch(() => redis.disconnect());
    },
  };
}

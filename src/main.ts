/**
 * The process: configuration, logger, stores, the platform client and the Slack app, wired
 * together. Nothing here decides behaviour; it only builds the `deps` and starts them.
 */
import type { CustomRoute } from '@slack/bolt';
import { WebClient } from '@slack/web-api';
import { Registry } from 'prom-client';
import { ConfigError, loadConfig } from './config.ts';
import { createLogger } from './logger.ts';
import {
  BudgetPacer,
  createBudgetHooks,
  MirrorWorker,
  TicketHints,
  WEBHOOK_PATH,
  webhookHandler,
} from './mirror/index.ts';

import { createMetrics } from './ops/metrics.ts';
import { opsRoutes } from './ops/ops-routes.ts';
import { Readiness } from './ops/readiness.ts';
import { createRedisClient } from './ops/redis-client.ts';
import { handleShutdownSignals } from './ops/shutdown.ts';
import { slackRequestMetrics, withDuplicateCounting } from './ops/slack-request-metrics.ts';
import { ServiceDeskClient } from './servicedesk/index.ts';
import { createSlackApp } from './slack/create-slack-app.ts';
import { createMemoryStores, createRedisStores } from './store/index.ts';

// After the list of problems: where the values go, and the way to try the app without any.
const CONFIG_HELP = [
  'Set them in the environment, or in a .env file where you run npm start (cp .env.example .env;',
  'a variable set in the environment wins over .env). Then `npm run doctor` checks them against',
  'Slack and the platform. No workspace or tenant yet? `npm run sandbox` runs it all in a browser.',
].join('\n');

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`${error.message}\n${CONFIG_HELP}`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
  const logger = createLogger({
    level: config.log.level,
    pretty: config.log.pretty,
    secrets: [
      config.slack.botToken,
      config.slack.appToken,
      config.slack.signingSecret,
      config.serviceDesk.apiKey,
      config.serviceDesk.webhookSecret,
    ].filter((s): s is string => Boolean(s)),
  });
  process.on('unhandledRejection', (reason) =>
    logger.error({ err: reason }, 'unhandled promise rejection'),
  );

  const redis = config.redisUrl
    ? createRedisClient(config.redisUrl, { cluster: config.redisCluster, logger })
    : undefined;
  if (!redis) {
    logger.warn(
      'REDIS_URL is not set: using the embedded in-memory store. It serves one process only and loses queued requests on restart; set REDIS_URL in production.',
    );
  }
  const stores = redis
    ? createRedisStores({
        redis,
        prefix: config.redisKeyPrefix,
        budget: config.serviceDesk.rateLimits,
      })
    : createMemoryStores({ budget: config.serviceDesk.rateLimits });
  const metrics = createMetrics({
    registry: new Registry(),
    sources: {
      outboxStats: () => stores.outbox.stats(),
      rateLimit: () => serviceDesk.rateLimit,
    },
  });
  // Shared figures (every replica reports the same), refreshed in the background so a scrape
  // never waits on Redis for them. Linked tickets are counted as those the mirror still polls.
  const { perMinute, perHour } = config.serviceDesk.rateLimits;
  const refreshSharedMetrics = async () => {
    const usage = await stores.budget.usage();
    metrics.setRateBudgetRemaining('minute', Math.max(0, perMinute - usage.minute));
    metrics.setRateBudgetRemaining('hour', Math.max(0, perHour - usage.hour));
    metrics.setLinkedTickets({ polled: await stores.schedule.size() });
  };
  setInterval(() => {
    refreshSharedMetrics().catch((error: unknown) =>
      logger.debug({ err: error }, 'shared metrics not refreshed'),
    );
  }, 10_000).unref();

  // Every request of every replica inside the platform's limits, with a reserve for people.
  const budgetHooks = createBudgetHooks({
    budget: stores.budget,
    logger: logger.child({ component: 'rate-budget' }),
  });
  const serviceDesk = new ServiceDeskClient({
    baseUrl: config.serviceDesk.url,
    apiKey: config.serviceDesk.apiKey,
    variant: config.serviceDesk.variant,
    logger: logger.child({ component: 'servicedesk' }),
    acquire: budgetHooks.acquire,
    onRateLimit: budgetHooks.onRateLimit,
    onResponse: ({ operation, status }) => {
      metrics.observePlatformResponse(operation, status);
      readiness.platformResponded(status);
    },
  });
  const readiness = new Readiness({
    redis,
    probePlatform: (signal) => serviceDesk.listDesks({ signal, priority: 'interactive' }),
    // Its own client without retries: a probe must answer now, not after Slack's retry schedule.
    verifySlack: () =>
      new WebClient(config.slack.botToken, {
        retryConfig: { retries: 0 },
        ...(config.slack.apiUrl ? { slackApiUrl: config.slack.apiUrl } : {}),
      }).auth.test(),
  });
  // The platform's push hints, on every replica's port whatever its role: a hint only writes
  // to the shared poll schedule, which the replicas running the mirror read.
  const webhookSecret = config.serviceDesk.webhookSecret;
  const webhookRoutes: CustomRoute[] = webhookSecret
    ? [
        {
          path: WEBHOOK_PATH,
          method: ['POST'],
          handler: webhookHandler({
            secret: webhookSecret,
            hints: new TicketHints({ stores }),
            claims: stores.claims,
            onOutcome: (outcome) => metrics.countWebhook(outcome),
            logger: logger.child({ component: 'webhook' }),
          }),
        },
      ]
    : [];
  const slack = createSlackApp({
    botToken: config.slack.botToken,
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
      dashboardUrl: config.serviceDesk.dashboardUrl,
    },
    logger,
    serviceDesk,
    stores: withDuplicateCounting(stores, metrics),
    routes: [...opsRoutes({ readiness, registry: metrics.registry }), ...webhookRoutes],
    middleware: [slackRequestMetrics(metrics)],
    mirror: (poster) =>
      new MirrorWorker({
        platform: serviceDesk,
        stores,
        poster,
        pacer: new BudgetPacer({ budget: stores.budget, schedule: stores.schedule }),
        logger: logger.child({ component: 'mirror' }),
        onPosted: (item) => metrics.observeMirrorLatency((item.postedAt - item.createdAt) / 1000),
      }),
  });
  // Steps run in order; each is bounded by the 10 s deadline of the whole shutdown.
  handleShutdownSignals({
    logger,
    steps: [
      { name: 'readiness', run: async () => readiness.markShuttingDown() },
      { name: 'slack', run: () => slack.stop() },
      { name: 'servicedesk', run: () => serviceDesk.close() },
      { name: 'redis', run: async () => redis?.quit() },
    ],
  });
  const port = await slack.start();
  const slackAuth = await readiness.verifySlackAtStart();
  if (!slackAuth.ok) {
    logger.error(
      { detail: slackAuth.detail },
      'Slack auth.test did not pass: not ready until it does; run `npm run doctor` to see what to fix',
    );
  }
  const mode = config.slack.appToken ? 'socket' : 'http';
  const serves = {
    all: mode === 'socket' ? 'Socket Mode' : 'HTTP mode, /slack/events',
    web: mode === 'socket' ? 'Socket Mode, web role' : 'HTTP mode, /slack/events, web role',
    worker: 'worker role: /healthz, /readyz and /metrics only',
  }[config.role];
  logger.info(
    { port, mode, role: config.role, store: redis ? 'redis' : 'memory' },
    `servicedesk-slack listening on http://0.0.0.0:${port} (${serves})`,
  );
}

await main();

/**
 * The process: configuration, logger, stores, the platform client and the Slack app, wired
 * together. Nothing here decides behaviour; it only builds the `deps` and starts them.
 */
import { Redis } from 'ioredis';
import { ConfigError, loadConfig } from './config.ts';
import { createLogger } from './logger.ts';
import { ServiceDeskClient } from './servicedesk/index.ts';
import { createSlackApp } from './slack/create-slack-app.ts';
import { createMemoryStores, createRedisStores } from './store/index.ts';

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
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
    ].filter((s): s is string => Boolean(s)),
  });
  process.on('unhandledRejection', (reason) =>
    logger.error({ err: reason }, 'unhandled promise rejection'),
  );

  const redis = config.redisUrl
    ? new Redis(config.redisUrl, { maxRetriesPerRequest: 3 })
    : undefined;
  if (!redis) {
    logger.warn(
      'REDIS_URL is not set: using the embedded in-memory store. It serves one process only and loses queued requests on restart; set REDIS_URL in production.',
    );
  }
  const stores = redis ? createRedisStores({ redis, prefix: 'sds:' }) : createMemoryStores();
  const serviceDesk = new ServiceDeskClient({
    baseUrl: config.serviceDesk.url,
    apiKey: config.serviceDesk.apiKey,
    variant: config.serviceDesk.variant,
    logger: logger.child({ component: 'servicedesk' }),
  });
  const slack = createSlackApp({
    botToken: config.slack.botToken,
    signingSecret: config.slack.signingSecret,
    appToken: config.slack.appToken,
    apiUrl: config.slack.apiUrl,
    port: config.port,
    agentEmails: config.slack.agentEmails,
    agentUsergroup: config.slack.agentUsergroup,
    settings: {
      ticketEmoji: config.slack.ticketEmoji,
      channelDesks: config.slack.channelDesks,
      dashboardUrl: config.serviceDesk.dashboardUrl,
    },
    logger,
    serviceDesk,
    stores,
  });
  const port = await slack.start();
  logger.info(
    { port, mode: config.slack.appToken ? 'socket' : 'http', store: redis ? 'redis' : 'memory' },
    `servicedesk-slack listening on http://0.0.0.0:${port} (${config.slack.appToken ? 'Socket Mode' : 'HTTP mode, /slack/events'})`,
  );

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting at once');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await slack.stop();
    await serviceDesk.close();
    await redis?.quit().catch(() => undefined);
    clearTimeout(force);
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

await main();

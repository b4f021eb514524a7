/**
 * The process: configuration, logger, the app built by the runtime, signals. Nothing here
 * decides behaviour; the same runtime builds the app for the sandbox and the tests.
 */
import { ConfigError, loadConfig, loadDotEnv } from './config.ts';
import { createLogger } from './logger.ts';
import { handleShutdownSignals } from './ops/shutdown.ts';
import { isPortInUse, portInUseLine } from './port-in-use.ts';
import { createRuntime } from './runtime.ts';

const CONFIG_HELP = [
  'Set them in the environment, or in a .env file where you run npm start (cp .env.example .env;',
  'a variable set in the environment wins over .env). Then `npm run doctor` checks them against',
  'Slack and the platform. No workspace or tenant yet? `npm run sandbox` runs it all in a browser.',
].join('\n');

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    loadDotEnv();
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
      config.slack.oauth?.clientSecret,
      config.slack.oauth?.stateSecret,
      config.slack.oauth?.tokenKey,
      config.slack.appToken,
      config.slack.signingSecret,
      config.serviceDesk.apiKey,
      config.serviceDesk.webhookSecret,
    ].filter((s): s is string => Boolean(s)),
  });
  process.on('unhandledRejection', (reason) =>
    logger.error({ err: reason }, 'unhandled promise rejection'),
  );

  if (!config.redisUrl) {
    logger.warn(
      'REDIS_URL is not set: using the embedded in-memory store. It serves one process only and loses queued requests on restart; set REDIS_URL in production.',
    );
  }
  const runtime = createRuntime(config, logger);
  // Steps run in order (unready, stop taking Slack requests and finish in-flight work, close
  // the connections); the whole stop is bounded by the 10 s deadline.
  handleShutdownSignals({ logger, steps: [{ name: 'app', run: () => runtime.stop() }] });
  const portInUse = (error: { port?: number }): never => {
    console.error(
      portInUseLine(error, config.port, 'set PORT to a free one (in .env or the environment)'),
    );
    process.exit(1);
  };
  // Every receiver listens before it connects and rejects start() when its port is taken.
  const port = await runtime.start().catch((error: unknown) => {
    if (!isPortInUse(error)) throw error;
    return portInUse(error);
  });
  const mode = config.slack.appToken ? 'socket' : 'http';
  const serves = {
    all: mode === 'socket' ? 'Socket Mode' : 'HTTP mode, /slack/events',
    web: mode === 'socket' ? 'Socket Mode, web role' : 'HTTP mode, /slack/events, web role',
    worker: 'worker role: /healthz, /readyz and /metrics only',
  }[config.role];
  logger.info(
    { port, mode, role: config.role, store: runtime.redis ? 'redis' : 'memory' },
    `servicedesk-slack listening on http://0.0.0.0:${port} (${serves})`,
  );
}

await main();

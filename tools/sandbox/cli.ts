/**
 * `npm run sandbox`: the emulator, the Slack double, the app and the Slack simulator in one
 * process, and one URL to open. PORT picks the simulator's port (3000 by default), HOST its
 * address (loopback by default: the page has no login), REDIS_URL a Redis for the app's stores
 * (the embedded in-memory store otherwise), LOG_LEVEL the app's log level (warn by default, so
 * the terminal stays readable). `--organization` (`npm run sandbox -- --organization`) starts an
 * Enterprise Grid organization of two workspaces, Acme and Acme EU, the app installed by OAuth
 * into both, and the page offers a Workspace switch.
 */
import { createLogger } from '../../src/logger.ts';
import { isPortInUse, portInUseLine } from '../../src/port-in-use.ts';
import { ApiDescriptionMissingError } from '../slack-double/errors.ts';
import { SandboxConfigError } from './errors.ts';
import { startSandbox } from './sandbox.ts';

function port(env: NodeJS.ProcessEnv): number {
  const raw = env.PORT?.trim();
  if (raw === undefined || raw === '') return 3000;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 65_535) {
    throw new SandboxConfigError('PORT must be a whole number between 0 and 65535');
  }
  return value;
}

async function run(): Promise<void> {
  let listenPort: number;
  try {
    listenPort = port(process.env);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(78); // EX_CONFIG
  }
  const logger = createLogger({
    level: process.env.LOG_LEVEL?.trim() || 'warn',
    pretty: process.env.LOG_PRETTY === '1' || process.env.LOG_PRETTY === 'true',
  });
  const redisUrl = process.env.REDIS_URL?.trim() || undefined;
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  try {
    sandbox = await startSandbox({
      port: listenPort,
      host: process.env.HOST?.trim() || '127.0.0.1',
      redisUrl,
      logger,
      organization: process.argv.slice(2).includes('--organization'),
    });
  } catch (error) {
    // A piece of the repository is missing: say which and how to restore it, in one line.
    if (error instanceof ApiDescriptionMissingError) {
      console.error(`sandbox: ${error.message}`);
      process.exit(1);
    }
    if (!isPortInUse(error)) throw error;
    console.error(
      portInUseLine(error, listenPort, 'set PORT to a free one (PORT=3001 npm run sandbox)'),
    );
    process.exit(1);
  }
  console.log(
    `Sandbox ready: open ${sandbox.url} (${sandbox.store === 'redis' ? 'Redis store' : 'in-memory store'}${sandbox.organization ? '; an organization of two workspaces, the app installed in both' : ''}; Ctrl+C stops it)`,
  );
  let stopping = false;
  const shutdown = async () => {
    if (stopping) process.exit(1);
    stopping = true;
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await sandbox.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
}

await run();

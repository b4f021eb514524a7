/**
 * The whole stack for end-to-end tests: the emulator as the platform, the Slack double as
 * Slack, a real Redis, and the real Bolt app over real HTTP. Each stack uses its own Redis key
 * prefix and deletes only its own keys.
 */

import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import type { Redis } from 'ioredis';
import { pino } from 'pino';
import type { AppRole } from '../../src/config.ts';
import {
  type EmulatorOptions,
  type RunningEmulator,
  startEmulator,
} from '../../src/emulator/index.ts';
import {
  BudgetPacer,
  ChangeFeed,
  type ChangeFeedOptions,
  createBudgetHooks,
  MirrorWorker,
  type PollPlanner,
  TicketHints,
  WEBHOOK_PATH,
  webhookHandler,
} from '../../src/mirror/index.ts';
import { createRedisClient } from '../../src/ops/redis-client.ts';
import { ServiceDeskClient } from '../../src/servicedesk/index.ts';
import { createSlackApp, type SlackApp } from '../../src/slack/create-slack-app.ts';
import {
  defaultIds,
  type SlackDouble,
  SlackDriver,
  startSlackDouble,
} from '../../src/slack-double/index.ts';
import { createRedisStores } from '../../src/store/index.ts';
import type { RateBudgetLimits, Stores } from '../../src/store/types.ts';

/** The signing secret the driver signs with and the app verifies. */
export const SIGNING_SECRET = 'e2e-signing-secret-0123456789';
/** The routed channel: #it-help files to the `it` desk. */
export const ROUTED_DESK = 'it';

/** One app replica on the shared Redis. */
export interface Replica {
  slack: SlackApp;
  stores: Stores;
  port: number;
  driver: SlackDriver;
  redis: Redis;
  stop(): Promise<void>;
}

/** A running stack. */
export interface Stack {
  emulator: RunningEmulator;
  double: SlackDouble;
  driver: SlackDriver;
  app: Replica;
  /** Every log line the app wrote, for redaction checks. */
  logs: string[];
  /** Every platform request the replicas made (its operation), in order. */
  platformRequests: string[];
  prefix: string;
  /** Starts another replica (doing everything, unless `role` says) on the same Redis prefix, platform and Slack. */
  addReplica(role?: AppRole): Promise<Replica>;
  close(): Promise<void>;
}

/** Options of a stack. */
export interface StackOptions {
  emulator?: EmulatorOptions;
  submitWaitMs?: number;
  /** Puts every request inside the shared rate budget (off by default: tests send bursts). */
  budget?: Partial<RateBudgetLimits>;
  /** What the first replica does (default all). */
  role?: AppRole;
  /** The outbox worker's poll when idle (default 50 ms); new entries wake it sooner. */
  workerIdleMs?: number;
  /**
   * Serves the platform's webhooks on every replica with this secret, and points the emulator's
   * webhooks at the first replica.
   */
  webhookSecret?: string;
  /** The Redis every replica uses (default REDIS_URL, else the local one). */
  redisUrl?: string;
  /** Runs the mirror in every replica (off by default: its posts would join other tests' threads). */
  mirror?: { planner: PollPlanner; idleMs?: number; leaseMs?: number; pacer?: boolean };
  /** Runs the change feed in every replica, with these options. */
  changeFeed?: Omit<ChangeFeedOptions, 'platform' | 'stores' | 'logger'>;
}

/** The platform's tickets of a requester, straight from the emulator's model. */
export function ticketsOf(stack: Stack, email: string) {
  return stack.emulator.model.listTickets('acme', { page: 1, pageSize: 100, requesterEmail: email })
    .items;
}

/** Runs what opens the create modal; returns the modal once desks and devices are filled in. */
export async function modalOpenedBy(stack: Stack, userId: string, open: () => Promise<unknown>) {
  const before = stack.double.callsTo('views.update').length;
  await open();
  await eventually(
    () => stack.double.callsTo('views.update').length > before,
    5_000,
    'the modal filled in',
  );
  const view = stack.double.workspace.modalStack(userId).at(-1);
  if (!view) throw new Error('no modal open');
  return view;
}

/** Polls until `check` returns a value other than undefined/false, for at most `timeoutMs`. */
export async function eventually<T>(
  check: () => T | Promise<T>,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<Exclude<T, undefined | false>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value as Exclude<T, undefined | false>;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Starts the emulator, the Slack double and one app replica. */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const emulator = await startEmulator({
    // The AI agent stays quiet unless a test asks for it: its messages would race assertions.
    aiDelayMs: 3_600_000,
    ratePerMinute: 100_000,
    ratePerHour: 1_000_000,
    ...options.emulator,
  });
  const double = await startSlackDouble();
  const prefix = `test:e2e:${randomUUID()}:`;
  const logs: string[] = [];
  const logger = pino(
    { level: 'debug' },
    new Writable({
      write(chunk, _enc, done) {
        logs.push(String(chunk));
        done();
      },
    }),
  );
  const replicas: Replica[] = [];
  // Every platform request any replica made, by operation, in order.
  const platformRequests: string[] = [];
  const { mirror } = options;
  const redisUrl = options.redisUrl ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

  async function addReplica(role: AppRole = 'all'): Promise<Replica> {
    // The connection production makes: bounded commands, errors logged through pino.
    const redis = createRedisClient(redisUrl, { logger }) as Redis;
    const stores = createRedisStores({
      redis,
      prefix,
      ...(options.budget ? { budget: options.budget } : {}),
    });
    const hooks = options.budget ? createBudgetHooks({ budget: stores.budget, logger }) : undefined;
    const serviceDesk = new ServiceDeskClient({
      baseUrl: emulator.url,
      apiKey: 'sd_acme_rw',
      ...(hooks ? { acquire: hooks.acquire, onRateLimit: hooks.onRateLimit } : {}),
      retry: { maxAttempts: 3, baseDelayMs: 20, maxDelayMs: 100, deadlineMs: 2_000 },
      timeouts: { connectMs: 1_000, headersMs: 2_000, bodyMs: 2_000 },
      onResponse: ({ operation }) => void platformRequests.push(operation),
    });
    const webhookSecret = options.webhookSecret;
    const slack = createSlackApp({
      ...(webhookSecret
        ? {
            routes: [
              {
                path: WEBHOOK_PATH,
                method: ['POST'],
                handler: webhookHandler({
                  secret: webhookSecret,
                  hints: new TicketHints({ stores }),
                  claims: stores.claims,
                  logger: logger.child({ component: 'webhook' }),
                }),
              },
            ],
          }
        : {}),
      botToken: defaultIds.botToken,
      signingSecret: SIGNING_SECRET,
      apiUrl: double.apiUrl,
      port: 0,
      role,
      agentEmails: new Set(['sam.rivera@acme.example']),
      agentUsergroup: undefined,
      settings: {
        ticketEmoji: 'ticket',
        channelDesks: new Map([[defaultIds.itHelp, ROUTED_DESK]]),
        dashboardUrl: undefined,
        ...(options.submitWaitMs !== undefined ? { submitWaitMs: options.submitWaitMs } : {}),
      },
      logger,
      serviceDesk,
      stores,
      worker: { idleMs: options.workerIdleMs ?? 50, backoffBaseMs: 200, backoffMaxMs: 1_000 },
      ...(mirror
        ? {
            mirror: (poster: ConstructorParameters<typeof MirrorWorker>[0]['poster']) =>
              new MirrorWorker({
                platform: serviceDesk,
                stores,
                poster,
                logger: logger.child({ component: 'mirror' }),
                planner: mirror.planner,
                idleMs: mirror.idleMs ?? 50,
                leaseMs: mirror.leaseMs ?? 10_000,
                ...(mirror.pacer
                  ? { pacer: new BudgetPacer({ budget: stores.budget, schedule: stores.schedule }) }
                  : {}),
              }),
          }
        : {}),
    });
    const port = await slack.start();
    const feed = options.changeFeed
      ? new ChangeFeed({
          platform: serviceDesk,
          stores,
          logger: logger.child({ component: 'change-feed' }),
          ...options.changeFeed,
        })
      : undefined;
    feed?.start();
    const driver = new SlackDriver({
      appUrl: `http://127.0.0.1:${port}/slack/events`,
      signingSecret: SIGNING_SECRET,
      double,
    });
    let stopped = false;
    const replica: Replica = {
      slack,
      stores,
      port,
      driver,
      redis,
      async stop() {
        if (stopped) return;
        stopped = true;
        await feed?.stop();
        await slack.stop();
        await driver.close();
        await serviceDesk.close();
        // A test may have cut the connection on purpose.
        await redis.quit().catch(() => redis.disconnect());
      },
    };
    replicas.push(replica);
    return replica;
  }

  const app = await addReplica(options.role);
  if (options.webhookSecret) {
    emulator.setWebhooks({
      url: `http://127.0.0.1:${app.port}${WEBHOOK_PATH}`,
      secret: options.webhookSecret,
    });
  }
  return {
    emulator,
    double,
    driver: app.driver,
    app,
    logs,
    platformRequests,
    prefix,
    addReplica,
    async close() {
      for (const replica of replicas) await replica.stop();
      // Best effort: a test may have stopped its Redis for good.
      const redis = createRedisClient(redisUrl, { maxRetriesPerRequest: 1 }) as Redis;
      redis.on('error', () => undefined);
      try {
        let cursor = '0';
        do {
          const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
          cursor = next;
          if (keys.length > 0) await redis.del(...keys);
        } while (cursor !== '0');
      } catch {
        // Nothing left to clean where Redis is gone.
      }
      redis.disconnect();
      await double.close();
      await emulator.close();
    },
  };
}

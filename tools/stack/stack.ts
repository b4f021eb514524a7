/**
 * The whole stack for end-to-end and operations tests and for the benches: the emulator as the
 * platform, the Slack double as Slack, a real Redis, and the real Bolt app built by the runtime
 * main.ts uses, over real HTTP or Socket Mode, with its metrics, readiness and ops routes. Each
 * stack uses its own Redis key prefix and deletes only its own keys.
 */

import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import type { Redis } from 'ioredis';
import { type LevelWithSilent, pino } from 'pino';
import { request } from 'undici';
import type { Clock } from '../../src/clock.ts';
import { type AppRole, loadConfig } from '../../src/config.ts';
import {
  AdaptivePlanner,
  type ChangeFeedOptions,
  type PollPlanner,
  WEBHOOK_PATH,
} from '../../src/mirror/index.ts';
import type { AppMetrics } from '../../src/ops/metrics.ts';
import type { Readiness } from '../../src/ops/readiness.ts';
import { createRedisClient } from '../../src/ops/redis-client.ts';
import { createRuntime } from '../../src/runtime.ts';
import type { SlackApp } from '../../src/slack/create-slack-app.ts';
import type { InstallStores } from '../../src/store/install-types.ts';
import type { RateBudgetLimits, Stores } from '../../src/store/types.ts';
import { type EmulatorOptions, type RunningEmulator, startEmulator } from '../emulator/index.ts';
import {
  defaultIds,
  type SlackDouble,
  SlackDriver,
  SocketModeDriver,
  startSlackDouble,
} from '../slack-double/index.ts';
import { eventually } from './eventually.ts';
import { deleteKeys, REDIS_URL } from './redis.ts';

/** The signing secret the driver signs with and the app verifies. */
export const SIGNING_SECRET = 'e2e-signing-secret-0123456789';
/** The app-level token of Socket Mode stacks, which the double accepts. */
export const APP_TOKEN = 'xapp-1-ops-test-token';
/** The production planning rule with short intervals, so a test waits seconds, not minutes. */
export const QUICK_PLANNER = new AdaptivePlanner({
  firstLookMs: 300,
  minIntervalMs: 300,
  growth: 0.2,
  awaitGrowth: 0.2,
  resolvedIntervalMs: 1_000,
  retryBaseMs: 250,
  retryMaxMs: 2_000,
});

/** The routed channel: #it-help files to the `it` desk. */
export const ROUTED_DESK = 'it';

/** One app replica on the shared Redis. */
export interface Replica {
  slack: SlackApp;
  stores: Stores;
  /** Installed by OAuth (`oauth` stacks): the installations and install states. */
  installStores: InstallStores | undefined;
  metrics: AppMetrics;
  readiness: Readiness;
  /** The replica's HTTP port: Slack requests (HTTP mode), webhooks and /healthz, /readyz, /metrics. */
  port: number;
  /** Sends signed HTTP requests (HTTP mode). */
  driver: SlackDriver;
  /** Sends envelopes over the WebSocket (Socket Mode). */
  socketDriver: SocketModeDriver;
  redis: Redis;
  /** GET a path of the replica's HTTP port (the ops routes). */
  get(path: string): Promise<{ status: number; text: string; contentType: string }>;
  stop(): Promise<void>;
}

/** A running stack. */
export interface Stack {
  emulator: RunningEmulator;
  double: SlackDouble;
  driver: SlackDriver;
  app: Replica;
  /** Every log line the app wrote at `logLevel` and up, for redaction and log checks. */
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
  /** How long a workflow step's run waits for the service desk (default the app's 10 min). */
  workflowStepAnswerMs?: number;
  /** Puts every request inside the shared rate budget (off by default: tests send bursts). */
  budget?: Partial<RateBudgetLimits>;
  /** How Slack reaches the app: signed HTTP requests (default) or Socket Mode with APP_TOKEN. */
  receiver?: 'http' | 'socket';
  /** The scopes the Slack double reports the bot token has (its x-oauth-scopes header). */
  oauthScopes?: readonly string[];
  /** The lowest level the app logs into `logs` (default debug). */
  logLevel?: LevelWithSilent;
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
  /**
   * Runs the one replica on the in-memory stores, as the embedded default does with no
   * REDIS_URL: no Redis at all, so no second replica either.
   */
  embedded?: boolean;
  /** Runs the mirror in every replica (off by default: its posts would join other tests' threads). */
  mirror?: { planner: PollPlanner; idleMs?: number; leaseMs?: number; pacer?: boolean };
  /** Runs the change feed in every replica, with these options. */
  changeFeed?: Omit<ChangeFeedOptions, 'platform' | 'stores' | 'logger'>;
  /** CHANNEL_DESKS (default: #it-help files to ROUTED_DESK). */
  channelDesks?: string;
  /** DESK_TRIAGE_CHANNELS (default: none). */
  deskTriageChannels?: string;
  /**
   * Who the agents are: AGENT_EMAILS (default Sam's email) and SLACK_AGENT_USERGROUP (default
   * none).
   */
  agents?: { emails?: string; usergroup?: string };
  /** How long a triage channel's privacy is kept (default the app's 2 min). */
  triagePrivacyMs?: number;
  /**
   * Puts the platform's dashboard host in the app's unfurl_domains (the Slack double sends
   * link_shared for its links), as the install steps have the admin do. Off by default.
   */
  unfurl?: boolean;
  /** REOPEN_WINDOW (default 3d): `0` files every direct message at once, resolved ticket or not. */
  reopenWindow?: string;
  /**
   * The morning summary: TRIAGE_DIGEST_AT (`at`), TRIAGE_DIGEST_TZ (`tz`, default UTC) and its
   * clock (tests inject one). Off by default: a summary at the real 09:00 would join other
   * tests' triage channels.
   */
  triageDigest?: { at: string; tz?: string; clock?: Partial<Clock> };
  /** SLA_TARGETS (default none). */
  slaTargets?: string;
  /** The app's clock (stores, mirror, cards' service-level clocks; default real time): tests move it. */
  now?: () => number;
  /** DESK_ONCALL_GROUPS (default none). */
  deskOncallGroups?: string;
  /** How long the clock watch waits after a failed warning (default the app's 30 s). */
  clockRetryMs?: number;
  /**
   * Installed by OAuth (SLACK_CLIENT_ID... and OAUTH_TOKEN_KEY, no SLACK_BOT_TOKEN), with the
   * double modelling an organization of two workspaces; nothing is installed until a test
   * installs it (`installByOAuth`).
   */
  oauth?: boolean;
}

/** The OAuth settings of an `oauth` stack (the key seals installations in Redis). */
export const OAUTH_ENV = {
  SLACK_CLIENT_ID: '1111.2222',
  SLACK_CLIENT_SECRET: 'e2e-client-secret-value',
  SLACK_STATE_SECRET: 'e2e-state-secret-0123456789',
  SLACK_TOKEN_KEY: Buffer.alloc(32, 42).toString('base64'),
} as const;

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

/** Starts the emulator, the Slack double and one app replica. */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const emulator = await startEmulator({
    // The AI agent stays quiet unless a test asks for it: its messages would race assertions.
    aiDelayMs: 3_600_000,
    ratePerMinute: 100_000,
    ratePerHour: 1_000_000,
    ...options.emulator,
  });
  const double = await startSlackDouble({
    appToken: APP_TOKEN,
    ...(options.oauth ? { organization: {} } : {}),
    ...(options.oauthScopes ? { oauthScopes: options.oauthScopes } : {}),
  });
  if (options.unfurl) double.workspace.setUnfurlDomains([new URL(emulator.url).hostname]);
  const prefix = `test:e2e:${randomUUID()}:`;
  const logs: string[] = [];
  const logger = pino(
    { level: options.logLevel ?? 'debug' },
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
  const redisUrl = options.redisUrl ?? REDIS_URL;
  const socket = options.receiver === 'socket';

  async function addReplica(role: AppRole = 'all'): Promise<Replica> {
    // Configured and built as production is: the same settings, the same runtime. The budget
    // is the platform's own unless a test sets one (the emulator allows bursts here).
    const budget = options.budget;
    const config = loadConfig({
      ...(options.oauth ? OAUTH_ENV : { SLACK_BOT_TOKEN: defaultIds.botToken }),
      ...(socket ? { SLACK_APP_TOKEN: APP_TOKEN } : { SLACK_SIGNING_SECRET: SIGNING_SECRET }),
      SLACK_API_URL: double.apiUrl,
      SERVICE_DESK_URL: emulator.url,
      SERVICE_DESK_API_KEY: 'sd_acme_rw',
      AGENT_EMAILS: options.agents?.emails ?? 'sam.rivera@acme.example',
      ...(options.agents?.usergroup ? { SLACK_AGENT_USERGROUP: options.agents.usergroup } : {}),
      CHANNEL_DESKS: options.channelDesks ?? `${defaultIds.itHelp}=${ROUTED_DESK}`,
      ...(options.deskTriageChannels ? { DESK_TRIAGE_CHANNELS: options.deskTriageChannels } : {}),
      ...(options.embedded ? {} : { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: prefix }),
      APP_ROLE: role,
      PORT: '0',
      SERVICE_DESK_RATE_PER_MINUTE: String(budget?.perMinute ?? 100_000),
      SERVICE_DESK_RATE_PER_HOUR: String(budget?.perHour ?? 1_000_000),
      ...(budget?.reserve !== undefined
        ? { SERVICE_DESK_RATE_RESERVE: String(budget.reserve) }
        : {}),
      ...(options.webhookSecret ? { SERVICE_DESK_WEBHOOK_SECRET: options.webhookSecret } : {}),
      ...(options.reopenWindow !== undefined ? { REOPEN_WINDOW: options.reopenWindow } : {}),
      TRIAGE_DIGEST_AT: options.triageDigest?.at ?? 'off',
      ...(options.triageDigest?.tz ? { TRIAGE_DIGEST_TZ: options.triageDigest.tz } : {}),
      ...(options.slaTargets !== undefined ? { SLA_TARGETS: options.slaTargets } : {}),
      ...(options.deskOncallGroups ? { DESK_ONCALL_GROUPS: options.deskOncallGroups } : {}),
    });
    const runtime = createRuntime(config, logger, {
      platform: {
        retry: { maxAttempts: 3, baseDelayMs: 20, maxDelayMs: 100, deadlineMs: 2_000 },
        timeouts: { connectMs: 1_000, headersMs: 2_000, bodyMs: 2_000 },
      },
      onPlatformResponse: (operation) => void platformRequests.push(operation),
      mirror: mirror
        ? {
            planner: mirror.planner,
            idleMs: mirror.idleMs ?? 50,
            leaseMs: mirror.leaseMs ?? 10_000,
            pacer: mirror.pacer ?? false,
          }
        : false,
      changeFeed: options.changeFeed ?? false,
      worker: { idleMs: options.workerIdleMs ?? 50, backoffBaseMs: 200, backoffMaxMs: 1_000 },
      ...(options.submitWaitMs !== undefined ? { submitWaitMs: options.submitWaitMs } : {}),
      ...(options.workflowStepAnswerMs !== undefined
        ? { workflowStepAnswerMs: options.workflowStepAnswerMs }
        : {}),
      processMetrics: false,
      ...(options.triageDigest?.clock ? { digestClock: options.triageDigest.clock } : {}),
      ...(options.now ? { now: options.now } : {}),
      // A test of the clocks moves time and looks often; the others keep the app's pace.
      ...(options.slaTargets
        ? {
            clockWatch: {
              idleMs: 50,
              ...(options.clockRetryMs !== undefined ? { retryMs: options.clockRetryMs } : {}),
            },
          }
        : {}),
      readinessTimeoutMs: 1_000,
      // Installed by OAuth, readiness turns as soon as a test installs the app.
      ...(options.oauth ? { slackRetryMs: 0 } : {}),
      // A store emptied by a test is noticed at once, as production notices it within a minute.
      healRecheckMs: 100,
      // Triage channels read back at once after a test empties the store.
      triageHealPaceMs: 0,
      ...(options.triagePrivacyMs !== undefined
        ? { triagePrivacyMs: options.triagePrivacyMs }
        : {}),
    });
    const { slack, stores, metrics, readiness, installStores } = runtime;
    // Undefined when embedded; no test of an embedded stack reaches for it.
    const redis = runtime.redis as Redis;
    const port = await runtime.start();
    if (options.oauth) double.oauth.redirectUrl = `http://127.0.0.1:${port}/slack/oauth_redirect`;
    const driver = new SlackDriver({
      appUrl: `http://127.0.0.1:${port}/slack/events`,
      signingSecret: SIGNING_SECRET,
      double,
    });
    let stopped = false;
    const replica: Replica = {
      slack,
      stores,
      installStores,
      metrics,
      readiness,
      port,
      driver,
      socketDriver: new SocketModeDriver(double),
      redis,
      async get(path) {
        const response = await request(`http://127.0.0.1:${port}${path}`);
        return {
          status: response.statusCode,
          text: await response.body.text(),
          contentType: String(response.headers['content-type'] ?? ''),
        };
      },
      async stop() {
        if (stopped) return;
        stopped = true;
        await runtime.stop().catch(() => redis?.disconnect());
        await driver.close();
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
        await deleteKeys(redis, prefix);
      } catch {
        // Nothing left to clean where Redis is gone.
      }
      redis.disconnect();
      await double.close();
      await emulator.close();
    },
  };
}

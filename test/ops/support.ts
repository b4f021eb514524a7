/**
 * The app wired as main.ts wires it (metrics, readiness, the ops routes, request metrics and
 * duplicate counting) against the emulator, the Slack double and a real Redis, in HTTP mode or
 * Socket Mode. Each stack uses its own Redis key prefix and deletes only its own keys.
 */
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { WebClient } from '@slack/web-api';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { request } from 'undici';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.ts';
import { type AppMetrics, createMetrics } from '../../src/ops/metrics.ts';
import { opsRoutes } from '../../src/ops/ops-routes.ts';
import { Readiness } from '../../src/ops/readiness.ts';
import { slackRequestMetrics, withDuplicateCounting } from '../../src/ops/slack-request-metrics.ts';
import { ServiceDeskClient } from '../../src/servicedesk/index.ts';
import { createSlackApp, type SlackApp } from '../../src/slack/create-slack-app.ts';
import {
  defaultIds,
  type SlackDouble,
  SlackDriver,
  SocketModeDriver,
  startSlackDouble,
} from '../../src/slack-double/index.ts';
import { createRedisStores } from '../../src/store/index.ts';
import type { Stores } from '../../src/store/types.ts';

/** The signing secret the driver signs with and the app verifies. */
export const SIGNING_SECRET = 'ops-signing-secret-0123456789';
/** The app-level token of Socket Mode stacks. */
export const APP_TOKEN = 'xapp-1-ops-test-token';
/** The Redis the tests use. */
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A running app with its surroundings. */
export interface OpsStack {
  emulator: RunningEmulator;
  double: SlackDouble;
  slack: SlackApp;
  stores: Stores;
  metrics: AppMetrics;
  readiness: Readiness;
  redis: Redis;
  /** The app's HTTP port: Slack requests (HTTP mode) and /healthz, /readyz, /metrics. */
  port: number;
  /** Sends signed HTTP requests (HTTP mode). */
  driver: SlackDriver;
  /** Sends envelopes over the WebSocket (Socket Mode). */
  socketDriver: SocketModeDriver;
  prefix: string;
  /** GET a path of the app's HTTP port. */
  get(path: string): Promise<{ status: number; text: string; contentType: string }>;
  close(): Promise<void>;
}

/** Starts a stack in HTTP mode (default) or Socket Mode. */
export async function startOpsStack(
  options: {
    mode?: 'http' | 'socket';
    oauthScopes?: readonly string[];
    /** Collects the app's JSON log lines (info and up); silent otherwise. */
    logs?: string[];
  } = {},
): Promise<OpsStack> {
  const emulator = await startEmulator({
    aiDelayMs: 3_600_000,
    ratePerMinute: 100_000,
    ratePerHour: 1_000_000,
  });
  const double = await startSlackDouble({
    appToken: APP_TOKEN,
    ...(options.oauthScopes ? { oauthScopes: options.oauthScopes } : {}),
  });
  const prefix = `test:ops:${randomUUID()}:`;
  const redis = new Redis(REDIS_URL);
  const stores = createRedisStores({ redis, prefix });
  const lines = options.logs;
  const logger = lines
    ? pino(
        { level: 'info' },
        new Writable({
          write(chunk, _encoding, done) {
            lines.push(String(chunk));
            done();
          },
        }),
      )
    : pino({ level: 'silent' });
  let readiness: Readiness | undefined;
  const serviceDesk = new ServiceDeskClient({
    baseUrl: emulator.url,
    apiKey: 'sd_acme_rw',
    retry: { maxAttempts: 2, baseDelayMs: 20, maxDelayMs: 50, deadlineMs: 1_000 },
    onResponse: ({ operation, status }) => {
      metrics.observePlatformResponse(operation, status);
      readiness?.platformResponded(status);
    },
  });
  const metrics = createMetrics({
    registry: new Registry(),
    processMetrics: false,
    sources: {
      outboxStats: () => stores.outbox.stats(),
      rateLimit: () => serviceDesk.rateLimit,
    },
  });
  readiness = new Readiness({
    redis,
    probePlatform: (signal) => serviceDesk.listDesks({ signal }),
    verifySlack: () =>
      new WebClient(defaultIds.botToken, {
        slackApiUrl: double.apiUrl,
        retryConfig: { retries: 0 },
      }).auth.test(),
    checkTimeoutMs: 1_000,
  });
  const socket = options.mode === 'socket';
  const slack = createSlackApp({
    botToken: defaultIds.botToken,
    ...(socket ? { appToken: APP_TOKEN } : { signingSecret: SIGNING_SECRET }),
    apiUrl: double.apiUrl,
    port: 0,
    agentEmails: new Set(['sam.rivera@acme.example']),
    settings: {
      ticketEmoji: 'ticket',
      channelDesks: new Map([[defaultIds.itHelp, 'it']]),
      dashboardUrl: undefined,
    },
    logger,
    serviceDesk,
    stores: withDuplicateCounting(stores, metrics),
    routes: opsRoutes({ readiness, registry: metrics.registry }),
    middleware: [slackRequestMetrics(metrics)],
    worker: { idleMs: 50, backoffBaseMs: 200, backoffMaxMs: 1_000 },
  });
  const port = await slack.start();
  await readiness.verifySlackAtStart();
  const driver = new SlackDriver({
    appUrl: `http://127.0.0.1:${port}/slack/events`,
    signingSecret: SIGNING_SECRET,
    double,
  });
  let closed = false;
  return {
    emulator,
    double,
    slack,
    stores,
    metrics,
    readiness,
    redis,
    port,
    driver,
    socketDriver: new SocketModeDriver(double),
    prefix,
    async get(path) {
      const response = await request(`http://127.0.0.1:${port}${path}`);
      return {
        status: response.statusCode,
        text: await response.body.text(),
        contentType: String(response.headers['content-type'] ?? ''),
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      await slack.stop();
      await driver.close();
      await serviceDesk.close();
      await deleteKeys(redis, prefix);
      await redis.quit();
      await double.close();
      await emulator.close();
    },
  };
}

/** Deletes every key under the prefix (and nothing else). */
export async function deleteKeys(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  for (let rounds = 0; rounds < 10_000; rounds++) {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
    if (cursor === '0') return;
  }
}

/** The value of one sample in Prometheus text, or undefined when absent. */
export function sample(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = new Map(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => found.get(k) === v)) return Number(match[3]);
  }
  return undefined;
}

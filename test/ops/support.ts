/**
 * The app built by the runtime main.ts uses (metrics, readiness, the ops routes, request
 * metrics and duplicate counting) against the emulator, the Slack double and a real Redis, in
 * HTTP mode or Socket Mode. Each stack uses its own Redis key prefix and deletes only its own keys.
 */
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import type { Redis } from 'ioredis';
import { pino } from 'pino';
import { request } from 'undici';
import { loadConfig } from '../../src/config.ts';
import type { AppMetrics } from '../../src/ops/metrics.ts';
import type { Readiness } from '../../src/ops/readiness.ts';
import { createRuntime } from '../../src/runtime.ts';
import type { SlackApp } from '../../src/slack/create-slack-app.ts';
import type { Stores } from '../../src/store/types.ts';
import { type RunningEmulator, startEmulator } from '../../tools/emulator/index.ts';
import {
  defaultIds,
  type SlackDouble,
  SlackDriver,
  SocketModeDriver,
  startSlackDouble,
} from '../../tools/slack-double/index.ts';

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
  const socket = options.mode === 'socket';
  // Built as main.ts builds it: the same settings parsing and the same runtime.
  const runtime = createRuntime(
    loadConfig({
      SLACK_BOT_TOKEN: defaultIds.botToken,
      ...(socket ? { SLACK_APP_TOKEN: APP_TOKEN } : { SLACK_SIGNING_SECRET: SIGNING_SECRET }),
      SLACK_API_URL: double.apiUrl,
      SERVICE_DESK_URL: emulator.url,
      SERVICE_DESK_API_KEY: 'sd_acme_rw',
      AGENT_EMAILS: 'sam.rivera@acme.example',
      CHANNEL_DESKS: `${defaultIds.itHelp}=it`,
      REDIS_URL,
      REDIS_KEY_PREFIX: prefix,
      PORT: '0',
      SERVICE_DESK_RATE_PER_MINUTE: '100000',
      SERVICE_DESK_RATE_PER_HOUR: '1000000',
    }),
    logger,
    {
      platform: { retry: { maxAttempts: 2, baseDelayMs: 20, maxDelayMs: 50, deadlineMs: 1_000 } },
      mirror: false,
      worker: { idleMs: 50, backoffBaseMs: 200, backoffMaxMs: 1_000 },
      processMetrics: false,
      readinessTimeoutMs: 1_000,
    },
  );
  const { slack, stores, metrics, readiness } = runtime;
  const redis = runtime.redis as Redis;
  const port = await runtime.start();
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
      await deleteKeys(redis, prefix);
      await runtime.stop();
      await driver.close();
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

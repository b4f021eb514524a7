/**
 * Graceful shutdown of the real process (`node src/main.ts`) against an in-test emulator, the
 * Slack double and a real Redis under a key prefix of its own: SIGTERM mid-work exits in time
 * and loses nothing; a second signal exits at once.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRedisStores } from '../../src/store/index.ts';
import { type RunningEmulator, startEmulator } from '../../tools/emulator/index.ts';
import {
  defaultIds,
  type SlackDouble,
  SlackDriver,
  startSlackDouble,
} from '../../tools/slack-double/index.ts';
import { eventually } from '../support/eventually.ts';
import { sample } from '../support/prometheus-text.ts';
import { deleteKeys, REDIS_URL } from '../support/redis.ts';

const SECRET = 'shutdown-signing-secret-0123456789';
const { alice } = defaultIds;

interface AppProcess {
  child: ChildProcess;
  port: number;
  logs: string[];
  exited: Promise<{ code: number | null; at: number }>;
}

describe('graceful shutdown of node src/main.ts', () => {
  let emulator: RunningEmulator;
  let double: SlackDouble;
  let redis: Redis;
  let prefix: string;
  const running: AppProcess[] = [];
  const drivers: SlackDriver[] = [];

  beforeAll(async () => {
    emulator = await startEmulator({
      aiDelayMs: 3_600_000,
      ratePerMinute: 100_000,
      ratePerHour: 1_000_000,
    });
    double = await startSlackDouble();
    redis = new Redis(REDIS_URL);
  });
  afterEach(async () => {
    for (const app of running.splice(0)) {
      if (app.child.exitCode === null && app.child.signalCode === null) app.child.kill('SIGKILL');
      await app.exited;
    }
    for (const driver of drivers.splice(0)) await driver.close();
    emulator.setFaults({ down: false, latencyMs: 0 });
    await deleteKeys(redis, prefix);
  });
  afterAll(async () => {
    await redis.quit();
    await double.close();
    await emulator.close();
  });

  async function startApp(): Promise<AppProcess> {
    const child = spawn(process.execPath, ['src/main.ts'], {
      env: {
        PATH: process.env.PATH ?? '',
        SLACK_BOT_TOKEN: defaultIds.botToken,
        SLACK_SIGNING_SECRET: SECRET,
        SLACK_API_URL: double.apiUrl,
        SERVICE_DESK_URL: emulator.url,
        SERVICE_DESK_API_KEY: 'sd_acme_rw',
        REDIS_URL,
        REDIS_KEY_PREFIX: prefix,
        PORT: '0',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const logs: string[] = [];
    const exited = new Promise<{ code: number | null; at: number }>((resolve) => {
      child.once('exit', (code) => resolve({ code, at: performance.now() }));
    });
    let buffered = '';
    const port = new Promise<number>((resolve, reject) => {
      child.stdout?.on('data', (chunk: Buffer) => {
        buffered += String(chunk);
        const lines = buffered.split('\n');
        buffered = lines.pop() ?? '';
        for (const line of lines) {
          logs.push(line);
          const parsed = parseJson(line);
          if (typeof parsed?.port === 'number' && String(parsed.msg).includes('listening')) {
            resolve(parsed.port);
          }
        }
      });
      child.stderr?.on('data', (chunk: Buffer) => logs.push(String(chunk)));
      void exited.then(() => reject(new Error(`the app exited at start:\n${logs.join('\n')}`)));
    });
    const app: AppProcess = { child, port: await port, logs, exited };
    running.push(app);
    return app;
  }

  function driverFor(app: AppProcess): SlackDriver {
    const driver = new SlackDriver({
      appUrl: `http://127.0.0.1:${app.port}/slack/events`,
      signingSecret: SECRET,
      double,
    });
    drivers.push(driver);
    return driver;
  }

  async function metricsOf(app: AppProcess): Promise<string> {
    const response = await request(`http://127.0.0.1:${app.port}/metrics`);
    return response.body.text();
  }

  function ticketsTitled(title: string) {
    return emulator.model
      .listTickets('acme', { page: 1, pageSize: 100, requesterEmail: 'alice@acme.example' })
      .items.filter((t) => t.title === title);
  }

  it('exits within 10 s of SIGTERM while the platform is down, and a new process files every pending request', {
    timeout: 60_000,
  }, async () => {
    prefix = `test:ops:shutdown:${randomUUID()}:`;
    const stores = createRedisStores({ redis, prefix });
    const first = await startApp();
    const driver = driverFor(first);
    emulator.setFaults({ down: true });
    const dm = double.workspace.openIm(alice);
    const titles = [1, 2, 3].map((n) => `Shutdown request ${n} ${randomUUID().slice(0, 6)}`);
    for (const text of titles) {
      const posted = await driver.userPosts({ userId: alice, channelId: dm, text });
      expect(posted.delivery?.status).toBe(200);
    }
    expect((await stores.outbox.stats()).depth).toBe(3);
    // Mid-work: the worker is retrying against the 503s.
    await eventually(
      async () =>
        (sample(await metricsOf(first), 'servicedesk_slack_platform_requests_total', {
          operation: 'createTicket',
          status: '503',
        }) ?? 0) >= 1,
      10_000,
      'a refused create',
    );

    const signalled = performance.now();
    first.child.kill('SIGTERM');
    const { code, at } = await first.exited;
    expect(at - signalled).toBeLessThan(10_000);
    expect(code).toBe(0);
    expect(first.logs.join('\n')).toContain('"msg":"shut down"');
    expect((await stores.outbox.stats()).depth).toBe(3);
    for (const title of titles) expect(ticketsTitled(title)).toHaveLength(0);

    emulator.setFaults({ down: false });
    const second = await startApp();
    await eventually(
      () => titles.every((title) => ticketsTitled(title).length > 0),
      20_000,
      'the pending tickets',
    );
    await eventually(
      async () => (await stores.outbox.stats()).depth === 0,
      5_000,
      'an empty outbox',
    );
    for (const title of titles) expect(ticketsTitled(title)).toHaveLength(1);
    second.child.kill('SIGTERM');
    expect((await second.exited).code).toBe(0);
  });

  it('stops taking Slack requests at once and exits at once on a second signal', {
    timeout: 30_000,
  }, async () => {
    prefix = `test:ops:shutdown:${randomUUID()}:`;
    const app = await startApp();
    const driver = driverFor(app);
    // Every platform call now hangs, so the first signal's shutdown waits for the worker.
    emulator.setFaults({ latencyMs: 20_000 });
    const dm = double.workspace.openIm(alice);
    await driver.userPosts({ userId: alice, channelId: dm, text: 'A slow platform' });
    await eventually(
      async () => sample(await metricsOf(app), 'servicedesk_slack_outbox_in_flight') === 1,
      5_000,
      'an entry in flight',
    );

    app.child.kill('SIGTERM');
    await eventually(
      () => app.logs.some((l) => l.includes('"msg":"shutting down"')),
      5_000,
      'the shutdown',
    );
    const refused = await request(`http://127.0.0.1:${app.port}/readyz`).then(
      (response) => response.statusCode,
      () => 'refused',
    );
    expect([503, 'refused']).toContain(refused);

    const signalled = performance.now();
    app.child.kill('SIGTERM');
    const { code, at } = await app.exited;
    expect(code).toBe(143);
    expect(at - signalled).toBeLessThan(2_000);
  });
});

function parseJson(line: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

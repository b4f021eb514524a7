/**
 * Slack unreachable when the app starts: the runtime as main.ts builds it, with SLACK_API_URL at
 * a closed port. Every promise has an owner (no unhandled rejection), the failure is said once,
 * in words, /readyz answers 503, and the app becomes ready once Slack answers on that port.
 */
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createRuntime } from '../../src/runtime.ts';
import { type RunningEmulator, startEmulator } from '../../tools/emulator/index.ts';
import { defaultIds, type SlackDouble, startSlackDouble } from '../../tools/slack-double/index.ts';
import { holdPort } from '../support/held-port.ts';

describe('Slack unreachable at start', () => {
  const cleanup: (() => Promise<unknown> | unknown)[] = [];
  afterEach(async () => {
    for (const step of cleanup.reverse()) await step();
    cleanup.length = 0;
  });

  it('says once that Slack did not answer auth.test, is not ready, and becomes ready once Slack answers', {
    timeout: 20_000,
  }, async () => {
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => void rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    cleanup.push(() => process.off('unhandledRejection', onRejection));
    // A port nothing listens on, until the Slack double takes it.
    const free = await holdPort();
    const slackPort = free.port;
    await free.release();
    const emulator: RunningEmulator = await startEmulator({ aiDelayMs: 3_600_000 });
    cleanup.push(() => emulator.close());
    const logs: string[] = [];
    const logger = pino(
      { level: 'debug' },
      new Writable({
        write(chunk, _encoding, done) {
          logs.push(String(chunk));
          done();
        },
      }),
    );
    const config = loadConfig({
      SLACK_BOT_TOKEN: defaultIds.botToken,
      SLACK_SIGNING_SECRET: 'away-signing-secret-0123456789',
      SLACK_API_URL: `http://127.0.0.1:${slackPort}/api/`,
      SERVICE_DESK_URL: emulator.url,
      SERVICE_DESK_API_KEY: 'sd_acme_rw',
      PORT: '0',
    });
    const runtime = createRuntime(config, logger, {
      mirror: false,
      changeFeed: false,
      processMetrics: false,
      readinessTimeoutMs: 1_000,
      slackRetryMs: 100,
    });
    const port = await runtime.start();
    cleanup.push(() => runtime.stop());
    const readyz = async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).status;

    // Long enough for every client's retry of auth.test to have given up.
    await sleep(2_000);
    expect(await readyz()).toBe(503);
    expect(rejections).toEqual([]);
    expect(logs.filter((l) => l.includes('unhandled'))).toEqual([]);
    const told = logs.filter((l) => l.includes('Slack did not answer auth.test at start'));
    expect(told).toHaveLength(1);
    expect(told[0]).toContain('will retry');

    const double: SlackDouble = await startSlackDouble({ port: slackPort });
    cleanup.push(() => double.close());
    const deadline = Date.now() + 5_000;
    while ((await readyz()) !== 200 && Date.now() < deadline) await sleep(100);
    expect(await readyz()).toBe(200);
    expect(rejections).toEqual([]);
    expect(logs.filter((l) => l.includes('auth.test at start'))).toHaveLength(1);
  });
});

/** Readiness rules with stand-ins for Redis, the platform and Slack, on a fake clock. */
import { describe, expect, it } from 'vitest';
import { Readiness, type ReadinessOptions } from '../../src/ops/readiness.ts';

function setup(overrides: Partial<ReadinessOptions> = {}) {
  const clock = { now: 1_000_000 };
  const calls = { probes: 0, slack: 0, pings: 0 };
  const readiness = new Readiness({
    redis: {
      ping: async () => {
        calls.pings++;
        return 'PONG';
      },
    },
    probePlatform: async () => {
      calls.probes++;
    },
    verifySlack: async () => {
      calls.slack++;
    },
    now: () => clock.now,
    checkTimeoutMs: 200,
    ...overrides,
  });
  return { readiness, clock, calls };
}

describe('readiness', () => {
  it('is ready when Redis, the platform and Slack answer', async () => {
    const { readiness } = setup();
    await readiness.verifySlackAtStart();
    const report = await readiness.check();
    expect(report.ready).toBe(true);
    expect(report.checks.platform.detail).toBe('answered now');
  });

  it('is ready with the in-memory store, which needs no PING', async () => {
    const { readiness } = setup({ redis: undefined });
    await readiness.verifySlackAtStart();
    expect((await readiness.check()).checks.redis).toEqual({ ok: true, detail: 'in-memory store' });
  });

  it('is not ready when Redis does not answer PING', async () => {
    const { readiness } = setup({
      redis: { ping: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379')) },
    });
    await readiness.verifySlackAtStart();
    const report = await readiness.check();
    expect(report.ready).toBe(false);
    expect(report.checks.redis.detail).toContain('ECONNREFUSED');
  });

  it('is not ready when PING hangs past the check timeout', async () => {
    const { readiness } = setup({ redis: { ping: () => new Promise(() => undefined) } });
    await readiness.verifySlackAtStart();
    const report = await readiness.check();
    expect(report.checks.redis).toMatchObject({ ok: false });
    expect(report.checks.redis.detail).toContain('did not answer within 200 ms');
  });

  it('does not probe the platform when it answered within the last minute', async () => {
    const { readiness, clock, calls } = setup();
    await readiness.verifySlackAtStart();
    readiness.platformResponded(200);
    clock.now += 59_000;
    const report = await readiness.check();
    expect(report.checks.platform).toEqual({ ok: true, detail: 'answered 59 s ago' });
    expect(calls.probes).toBe(0);
  });

  it('probes the platform once its last answer is a minute old', async () => {
    const { readiness, clock, calls } = setup();
    await readiness.verifySlackAtStart();
    readiness.platformResponded(404);
    clock.now += 60_000;
    await readiness.check();
    expect(calls.probes).toBe(1);
  });

  it('does not count a 5xx, a refused key or no answer as the platform answering', async () => {
    const { readiness, calls } = setup();
    await readiness.verifySlackAtStart();
    readiness.platformResponded(503);
    readiness.platformResponded(401);
    readiness.platformResponded(undefined);
    await readiness.check();
    expect(calls.probes).toBe(1);
  });

  it('is not ready when the platform has not answered and does not answer now', async () => {
    const { readiness } = setup({
      probePlatform: () => Promise.reject(new Error('503 Service Unavailable')),
    });
    await readiness.verifySlackAtStart();
    const report = await readiness.check();
    expect(report.ready).toBe(false);
    expect(report.checks.platform.detail).toContain('503 Service Unavailable');
  });

  it('sends one platform probe however many checks run at once', async () => {
    const { readiness, calls } = setup();
    await readiness.verifySlackAtStart();
    await Promise.all([readiness.check(), readiness.check(), readiness.check()]);
    expect(calls.probes).toBe(1);
  });

  it('is not ready after a failed auth.test, and tries it again only after 30 s', async () => {
    let accept = false;
    const { readiness, clock } = setup({
      verifySlack: async () => {
        if (!accept)
          throw Object.assign(new Error('An API error occurred: invalid_auth'), {
            code: 'slack_webapi_platform_error',
          });
      },
    });
    expect((await readiness.verifySlackAtStart()).ok).toBe(false);
    accept = true;
    clock.now += 29_000;
    expect((await readiness.check()).checks.slack.ok).toBe(false);
    clock.now += 1_000;
    expect((await readiness.check()).checks.slack).toEqual({
      ok: true,
      detail: 'auth.test passed',
    });
  });

  it('is not ready once shutting down', async () => {
    const { readiness } = setup();
    await readiness.verifySlackAtStart();
    readiness.markShuttingDown();
    const report = await readiness.check();
    expect(report.ready).toBe(false);
    expect(report.checks.shutdown).toEqual({ ok: false, detail: 'shutting down' });
  });
});

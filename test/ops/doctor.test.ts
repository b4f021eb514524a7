/** The doctor's verdicts against the emulator, the Slack double and a real Redis. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.ts';
import { type DoctorReport, runDoctor } from '../../src/ops/doctor.ts';
import { readManifestScopes } from '../../src/ops/manifest-scopes.ts';
import { defaultIds, type SlackDouble, startSlackDouble } from '../../src/slack-double/index.ts';
import { APP_TOKEN, REDIS_URL } from './support.ts';

const run = promisify(execFile);
const SECRET = '8f14e45fceea167a5a36dedd4bea2543';

function check(report: DoctorReport, name: string) {
  const found = report.checks.find((c) => c.name === name);
  if (!found) throw new Error(`no check named ${name}`);
  return found;
}

describe('npm run doctor', () => {
  let emulator: RunningEmulator;
  let double: SlackDouble;
  let narrowDouble: SlackDouble;
  let scopes: string[];

  beforeAll(async () => {
    scopes = await readManifestScopes();
    emulator = await startEmulator({ aiDelayMs: 3_600_000 });
    double = await startSlackDouble({ appToken: APP_TOKEN, oauthScopes: scopes });
    narrowDouble = await startSlackDouble({
      oauthScopes: scopes.filter((s) => s !== 'users:read.email'),
    });
  });
  afterAll(async () => {
    await narrowDouble.close();
    await double.close();
    await emulator.close();
  });

  function goodEnv(): Record<string, string> {
    return {
      SLACK_BOT_TOKEN: defaultIds.botToken,
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_API_URL: double.apiUrl,
      SERVICE_DESK_URL: emulator.url,
      SERVICE_DESK_API_KEY: 'sd_acme_rw',
      REDIS_URL,
    };
  }

  it('passes every check of a good configuration', async () => {
    const report = await runDoctor({ env: goodEnv(), timeoutMs: 3_000 });
    expect(report.checks.filter((c) => c.status === 'fail')).toEqual([]);
    expect(report.ok).toBe(true);
    expect(check(report, 'Slack bot token').status).toBe('pass');
    expect(check(report, 'Slack scopes').summary).toContain(`all ${scopes.length} scopes`);
    expect(check(report, 'Slack signing secret').status).toBe('pass');
    expect(check(report, 'Service-desk platform').status).toBe('pass');
    expect(check(report, 'Service-desk key access').summary).toContain('Read+Write');
    expect(check(report, 'Redis').summary).toMatch(/^PING answered; Redis \d/);
  });

  it('says whether platform webhooks are set up, and fails a secret too short to trust', async () => {
    const without = await runDoctor({ env: goodEnv(), timeoutMs: 3_000 });
    expect(check(without, 'Platform webhooks').status).toBe('skip');
    const set = await runDoctor({
      env: { ...goodEnv(), SERVICE_DESK_WEBHOOK_SECRET: 'a'.repeat(32) },
      timeoutMs: 3_000,
    });
    expect(check(set, 'Platform webhooks').status).toBe('pass');
    expect(check(set, 'Platform webhooks').summary).toContain('/servicedesk/webhook');
    const short = await runDoctor({
      env: { ...goodEnv(), SERVICE_DESK_WEBHOOK_SECRET: 'short' },
      timeoutMs: 3_000,
    });
    expect(check(short, 'Platform webhooks').status).toBe('fail');
  });

  it('fails a wrong platform key and says to create a new one', async () => {
    const report = await runDoctor({
      env: { ...goodEnv(), SERVICE_DESK_API_KEY: 'sd_acme_wrong' },
      timeoutMs: 3_000,
    });
    expect(report.ok).toBe(false);
    const platform = check(report, 'Service-desk platform');
    expect(platform).toMatchObject({ status: 'fail', summary: expect.stringContaining('401') });
    expect(platform.fix).toContain('SERVICE_DESK_API_KEY');
    expect(check(report, 'Service-desk key access').status).toBe('skip');
  });

  it('fails a Read key without creating anything', async () => {
    const before = emulator.model.listTickets('acme', { page: 1, pageSize: 1 }).total_count;
    expect(before).toBeGreaterThan(0);
    const report = await runDoctor({
      env: { ...goodEnv(), SERVICE_DESK_API_KEY: 'sd_acme_ro' },
      timeoutMs: 3_000,
    });
    expect(report.ok).toBe(false);
    expect(check(report, 'Service-desk platform').status).toBe('pass');
    const access = check(report, 'Service-desk key access');
    expect(access).toMatchObject({ status: 'fail', summary: expect.stringContaining('Read only') });
    expect(access.fix).toContain('Read+Write');
    expect(emulator.model.listTickets('acme', { page: 1, pageSize: 1 }).total_count).toBe(before);
  });

  it('names the scopes the token lacks against manifest.yml', async () => {
    const report = await runDoctor({
      env: { ...goodEnv(), SLACK_API_URL: narrowDouble.apiUrl },
      timeoutMs: 3_000,
    });
    expect(report.ok).toBe(false);
    expect(check(report, 'Slack scopes')).toMatchObject({
      status: 'fail',
      summary: 'missing users:read.email',
    });
  });

  it('fails a bot token Slack refuses', async () => {
    const report = await runDoctor({
      env: { ...goodEnv(), SLACK_BOT_TOKEN: 'xoxb-not-the-token' },
      timeoutMs: 3_000,
    });
    expect(check(report, 'Slack bot token')).toMatchObject({
      status: 'fail',
      summary: 'Slack refused it (invalid_auth)',
    });
    expect(check(report, 'Slack scopes').status).toBe('skip');
  });

  it('checks the app-level token in Socket Mode and skips the signing secret', async () => {
    const { SLACK_SIGNING_SECRET: _unused, ...env } = goodEnv();
    const report = await runDoctor({
      env: { ...env, SLACK_APP_TOKEN: APP_TOKEN },
      timeoutMs: 3_000,
    });
    expect(check(report, 'Socket Mode app token').status).toBe('pass');
    expect(check(report, 'Slack signing secret').status).toBe('skip');
    expect(report.ok).toBe(true);
  });

  it('fails a Redis that does not answer', async () => {
    const report = await runDoctor({
      env: { ...goodEnv(), REDIS_URL: 'redis://127.0.0.1:1' },
      timeoutMs: 2_000,
    });
    expect(check(report, 'Redis')).toMatchObject({ status: 'fail' });
    expect(check(report, 'Redis').fix).toContain('REDIS_URL');
  });

  it('exits 0 for a good configuration and 1 for a wrong key, never printing a secret', {
    timeout: 30_000,
  }, async () => {
    const cli = ['src/ops/doctor-cli.ts'];
    const good = await run(process.execPath, cli, { env: goodEnv() });
    expect(good.stdout).toContain('Every check passed.');
    const wrong = await run(process.execPath, cli, {
      env: { ...goodEnv(), SERVICE_DESK_API_KEY: 'sd_acme_wrong' },
    }).then(
      () => undefined,
      (error: { code: number; stdout: string }) => error,
    );
    expect(wrong?.code).toBe(1);
    expect(wrong?.stdout).toContain('fix: SERVICE_DESK_API_KEY is wrong or revoked');
    for (const out of [good.stdout, wrong?.stdout ?? '']) {
      expect(out).not.toContain(defaultIds.botToken);
      expect(out).not.toContain(SECRET);
      expect(out).not.toContain('sd_acme_wrong');
    }
  });
});

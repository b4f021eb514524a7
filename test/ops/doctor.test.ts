/** The doctor's verdicts against the emulator, the Slack double and a real Redis. */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DoctorReport, runDoctor } from '../../src/ops/doctor.ts';
import { readManifestScopes } from '../../src/ops/manifest-scopes.ts';
import { type RunningEmulator, startEmulator } from '../../tools/emulator/index.ts';
import { defaultIds, type SlackDouble, startSlackDouble } from '../../tools/slack-double/index.ts';
import { REDIS_URL } from '../support/redis.ts';
import { APP_TOKEN } from '../support/stack.ts';

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

  it('fails CHANNEL_DESKS naming a desk the platform does not have, listing the ones it has', async () => {
    const report = await runDoctor({
      env: {
        ...goodEnv(),
        CHANNEL_DESKS: `${defaultIds.itHelp}=it,${defaultIds.general}=helpdesk`,
      },
      timeoutMs: 3_000,
    });
    const desks = check(report, 'Channel desks');
    expect(desks.status).toBe('fail');
    expect(desks.summary).toBe(
      `the platform has no desk "helpdesk" (CHANNEL_DESKS, for ${defaultIds.general})`,
    );
    expect(desks.fix).toMatch(/^use a desk slug the platform lists: .*\bit\b/);
    expect(report.ok).toBe(false);
  });

  it('fails CHANNEL_DESKS that names a channel where its id belongs', async () => {
    const report = await runDoctor({
      env: { ...goodEnv(), CHANNEL_DESKS: '#it-help=it' },
      timeoutMs: 3_000,
    });
    expect(check(report, 'Channel desks')).toMatchObject({
      status: 'fail',
      summary: 'CHANNEL_DESKS names "#it-help", not a channel id (C… or G…)',
    });
    expect(check(report, 'Configuration').summary).toContain('"#it-help" is a channel name');
  });

  it('passes CHANNEL_DESKS whose channels are ids and whose desks the platform has', async () => {
    const report = await runDoctor({
      env: { ...goodEnv(), CHANNEL_DESKS: `${defaultIds.itHelp}=it` },
      timeoutMs: 3_000,
    });
    expect(check(report, 'Channel desks').status).toBe('pass');
  });

  it('warns for AGENT_EMAILS that no Slack user has, naming them', async () => {
    const report = await runDoctor({
      env: { ...goodEnv(), AGENT_EMAILS: 'sam.rivera@acme.example,nobody@acme.example' },
      timeoutMs: 3_000,
    });
    expect(check(report, 'Agent emails')).toMatchObject({
      status: 'warn',
      summary: 'no Slack user has nobody@acme.example: they will not act as agents',
    });
    expect(report.ok).toBe(true);
  });

  it("passes AGENT_EMAILS that are each a Slack user's", async () => {
    const report = await runDoctor({
      env: { ...goodEnv(), AGENT_EMAILS: 'sam.rivera@acme.example' },
      timeoutMs: 3_000,
    });
    expect(check(report, 'Agent emails').status).toBe('pass');
  });
});

describe("npm run doctor in the README's local set-up", () => {
  const root = new URL('../../', import.meta.url).pathname;
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  });

  /** Starts a CLI as a person would (stdin open, for the console) and returns the URL it prints. */
  async function startCli(script: string, args: string[]): Promise<string> {
    const child = spawn(process.execPath, [join(root, script), ...args], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    children.push(child);
    let output = '';
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${script} printed no URL: ${output}`)),
        10_000,
      );
      child.stdout?.on('data', (chunk: Buffer) => {
        output += String(chunk);
        const url = /listening on (http:\/\/[\d.:]+)/.exec(output)?.[1];
        if (url) {
          clearTimeout(timer);
          resolve(url);
        }
      });
    });
  }

  it('shows no warning and no failure against the emulator and the Slack double, and no .env line', {
    timeout: 30_000,
  }, async () => {
    const emulatorUrl = await startCli('tools/emulator/cli.ts', ['--port', '0']);
    const doubleUrl = await startCli('tools/slack-double/cli.ts', [
      '--port',
      '0',
      '--app',
      'http://127.0.0.1:9/slack/events',
    ]);
    const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const dir = mkdtempSync(join(tmpdir(), 'sds-doctor-'));
    try {
      for (const entry of ['src', 'scripts', 'node_modules', 'manifest.yml'])
        symlinkSync(join(root, entry), join(dir, entry));
      // Terminal 3's variables, as the README writes them; no .env, no REDIS_URL.
      const { stdout, stderr } = await run('sh', ['-c', scripts.doctor ?? ''], {
        cwd: dir,
        env: {
          PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`,
          SLACK_BOT_TOKEN: defaultIds.botToken,
          SLACK_SIGNING_SECRET: 'double-signing-secret',
          SLACK_API_URL: `${doubleUrl}/api/`,
          SERVICE_DESK_URL: emulatorUrl,
          SERVICE_DESK_API_KEY: 'sd_acme_rw',
          AGENT_EMAILS: 'sam.rivera@acme.example',
        },
      });
      expect(stdout).toContain('Every check passed.');
      expect(stdout.split('\n').filter((line) => /^\[(warn|FAIL)\]/.test(line))).toEqual([]);
      expect(stdout).toMatch(/\[ok {2}\] Slack scopes: all \d+ scopes of manifest.yml granted/);
      expect(stderr).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

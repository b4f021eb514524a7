/** The doctor's triage-channel check against the Slack double, the emulator and a real Redis. */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DoctorReport, formatReport, runDoctor } from '../../src/ops/doctor.ts';
import { readManifestScopes } from '../../src/ops/manifest-scopes.ts';
import { createRedisStores } from '../../src/store/index.ts';
import { type RunningEmulator, startEmulator } from '../../tools/emulator/index.ts';
import { defaultIds, type SlackDouble, startSlackDouble } from '../../tools/slack-double/index.ts';
import { deleteKeys, REDIS_URL } from '../support/redis.ts';

const { agentsPrivate, itHelp, general, hrPrivate } = defaultIds;

function triageCheck(report: DoctorReport) {
  const found = report.checks.find((c) => c.name === 'Triage channels');
  if (!found) throw new Error('no triage check');
  return found;
}

describe('npm run doctor: triage channels', () => {
  let emulator: RunningEmulator;
  let double: SlackDouble;
  let redis: Redis;
  const prefix = `test:doctor-triage:${randomUUID()}:`;

  beforeAll(async () => {
    emulator = await startEmulator({ aiDelayMs: 3_600_000 });
    double = await startSlackDouble({ oauthScopes: await readManifestScopes() });
    redis = new Redis(REDIS_URL);
  });
  afterAll(async () => {
    await deleteKeys(redis, prefix);
    redis.disconnect();
    await double.close();
    await emulator.close();
  });

  function env(extra: Record<string, string> = {}): Record<string, string> {
    return {
      SLACK_BOT_TOKEN: defaultIds.botToken,
      SLACK_SIGNING_SECRET: '8f14e45fceea167a5a36dedd4bea2543',
      SLACK_API_URL: double.apiUrl,
      SERVICE_DESK_URL: emulator.url,
      SERVICE_DESK_API_KEY: 'sd_acme_rw',
      ...extra,
    };
  }

  it('skips when no triage channel is set anywhere', async () => {
    const report = await runDoctor({ env: env({ REDIS_URL }), timeoutMs: 3_000 });
    expect(triageCheck(report).status).toBe('skip');
  });

  it('passes a private channel the app is in, naming it, and says what it cannot read without Redis', async () => {
    const report = await runDoctor({
      env: env({ DESK_TRIAGE_CHANNELS: `it=${agentsPrivate}` }),
      timeoutMs: 3_000,
    });
    const check = triageCheck(report);
    expect(check.status).toBe('pass');
    expect(check.summary).toContain(`it -> #it-agents (${agentsPrivate}) (DESK_TRIAGE_CHANNELS)`);
    // Without Redis, what agents set in Slack cannot be read here, and the doctor says so.
    expect(check.summary).toContain('no REDIS_URL');
  });

  it('lists what agents set in Slack, fails on a public channel, and warns about ones the app left', async () => {
    const key = `${prefix}a:`;
    const { triageChannels } = createRedisStores({ redis, prefix: key });
    await triageChannels.set('it', agentsPrivate);
    await triageChannels.set('hr', itHelp);
    await triageChannels.set('facilities', general);
    await triageChannels.set('*', hrPrivate);
    const report = await runDoctor({
      env: env({ REDIS_URL, REDIS_KEY_PREFIX: key }),
      timeoutMs: 3_000,
    });
    const check = triageCheck(report);
    expect(check.status).toBe('fail');
    expect(report.ok).toBe(false);
    expect(check.summary).toContain(`it -> #it-agents (${agentsPrivate}) (set in Slack)`);
    expect(check.summary).toContain(
      `#it-help (${itHelp}) is public: the app posts no card and no note there`,
    );
    expect(check.summary).toContain(`the app cannot see ${hrPrivate}`);
    expect(check.fix).toContain('/invite @Service Desk');
    expect(check.fix).toContain('private channel');
  });

  it('fails on a public channel named in DESK_TRIAGE_CHANNELS, saying to take it out', async () => {
    const report = await runDoctor({
      env: env({ DESK_TRIAGE_CHANNELS: `it=${agentsPrivate},hr=${itHelp}` }),
      timeoutMs: 3_000,
    });
    const check = triageCheck(report);
    expect(check.status).toBe('fail');
    expect(report.ok).toBe(false);
    expect(check.summary).toContain(`hr -> #it-help (${itHelp}) (DESK_TRIAGE_CHANNELS)`);
    expect(check.summary).toContain(`#it-help (${itHelp}) is public`);
    expect(check.fix).toContain('DESK_TRIAGE_CHANNELS');
  });

  it('fails on a triage channel made public since it was set', async () => {
    const key = `${prefix}c:`;
    await createRedisStores({ redis, prefix: key }).triageChannels.set('it', agentsPrivate);
    double.workspace.setPrivate(agentsPrivate, false);
    try {
      const report = await runDoctor({
        env: env({ REDIS_URL, REDIS_KEY_PREFIX: key }),
        timeoutMs: 3_000,
      });
      expect(triageCheck(report).status).toBe('fail');
      expect(triageCheck(report).summary).toContain(`#it-agents (${agentsPrivate}) is public`);
    } finally {
      double.workspace.setPrivate(agentsPrivate, true);
    }
  });

  it('passes when every triage channel is private and has the app', async () => {
    const key = `${prefix}b:`;
    await createRedisStores({ redis, prefix: key }).triageChannels.set('it', agentsPrivate);
    const report = await runDoctor({
      env: env({ REDIS_URL, REDIS_KEY_PREFIX: key, DESK_TRIAGE_CHANNELS: `hr=${general}` }),
      timeoutMs: 3_000,
    });
    // The default for hr is turned off in Slack: the doctor checks only what is in force.
    await createRedisStores({
      redis,
      prefix: key,
      triageDefaults: new Map([['hr', general]]),
    }).triageChannels.clear(general);
    const after = await runDoctor({
      env: env({ REDIS_URL, REDIS_KEY_PREFIX: key, DESK_TRIAGE_CHANNELS: `hr=${general}` }),
      timeoutMs: 3_000,
    });
    // #general is public: the default in force fails the check until it is turned off.
    expect(triageCheck(report).status).toBe('fail');
    expect(triageCheck(after)).toMatchObject({ status: 'pass' });
    expect(triageCheck(after).summary).toBe(`it -> #it-agents (${agentsPrivate}) (set in Slack)`);
  });

  it('warns about a desk the platform does not have', async () => {
    const report = await runDoctor({
      env: env({ DESK_TRIAGE_CHANNELS: `nosuchdesk=${agentsPrivate}` }),
      timeoutMs: 3_000,
    });
    expect(triageCheck(report).summary).toContain('the platform has no desk "nosuchdesk"');
  });

  it('says what agents set could not be read when Redis does not answer', async () => {
    const report = await runDoctor({
      env: env({
        REDIS_URL: 'redis://:hunter2@127.0.0.1:1',
        DESK_TRIAGE_CHANNELS: `it=${agentsPrivate}`,
      }),
      timeoutMs: 1_000,
    });
    const check = triageCheck(report);
    expect(check.summary).toContain('Redis did not answer');
    expect(check.summary).toContain(`it -> #it-agents (${agentsPrivate})`);
  });

  it('never prints the bot token or a Redis password', async () => {
    const report = await runDoctor({
      env: env({
        REDIS_URL: REDIS_URL.replace('redis://', 'redis://:s3cret-pass@'),
        REDIS_KEY_PREFIX: `${prefix}a:`,
        DESK_TRIAGE_CHANNELS: `it=${agentsPrivate}`,
      }),
      timeoutMs: 3_000,
    });
    const text = `${formatReport(report)}${JSON.stringify(report)}`;
    expect(text).not.toContain(defaultIds.botToken);
    expect(text).not.toContain('s3cret-pass');
  });
});

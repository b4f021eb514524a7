/** The doctor in OAuth mode: the installations kept in Redis, listed with their scopes, no token. */
import { randomBytes, randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatReport, runDoctor } from '../../src/ops/doctor.ts';
import { checkInstallations } from '../../src/ops/doctor-installations.ts';
import { readManifestScopes } from '../../src/ops/manifest-scopes.ts';
import { createRedisInstallStores } from '../../src/store/redis-installations.ts';
import { TokenCipher } from '../../src/store/token-cipher.ts';
import { orgInstall, workspaceInstall } from '../store/contract/installations-contract.ts';
import { deleteKeys, REDIS_URL } from '../support/redis.ts';

let redis: Redis;
const prefix = `test:doctor-installs:${randomUUID()}:`;

beforeAll(() => {
  redis = new Redis(REDIS_URL);
});
afterAll(async () => {
  await deleteKeys(redis, prefix);
  await redis.quit();
});

describe('the doctor, installed by OAuth', () => {
  it('lists each installation, workspace or org-wide, with the scopes it lacks, and no token', async () => {
    const scopes = await readManifestScopes();
    const stores = createRedisInstallStores({
      redis,
      prefix,
      cipher: new TokenCipher(randomBytes(32)),
      stateSecret: 'state-secret-0123456789',
    });
    const full = workspaceInstall('T0001');
    if (full.bot) full.bot.scopes = scopes;
    await stores.installations.storeInstallation(full);
    const narrow = orgInstall('E0001');
    if (narrow.bot) narrow.bot.scopes = scopes.filter((s) => s !== 'users:read.email');
    await stores.installations.storeInstallation(narrow);

    const checks = await checkInstallations(
      { REDIS_URL, REDIS_KEY_PREFIX: prefix },
      undefined,
      3_000,
    );
    expect(checks).toMatchObject([
      {
        name: 'Slack installation E0001',
        status: 'fail',
        summary: expect.stringMatching(
          /^org-wide in enterprise E0001, .*: missing users:read\.email$/,
        ),
      },
      {
        name: 'Slack installation T0001',
        status: 'pass',
        summary: expect.stringContaining(`workspace T0001, installed `),
      },
    ]);
    const text = formatReport({ ok: false, checks });
    expect(text).not.toMatch(/xox[bp]-/);
    expect(text).not.toContain('secret');
  });

  it('names an installation that does not open with SLACK_TOKEN_KEY', async () => {
    const own = `${prefix}keyed:`;
    const key = randomBytes(32);
    const stores = createRedisInstallStores({
      redis,
      prefix: own,
      cipher: new TokenCipher(key),
      stateSecret: 'state-secret-0123456789',
    });
    await stores.installations.storeInstallation(workspaceInstall('T0001'));
    const right = await checkInstallations(
      { REDIS_URL, REDIS_KEY_PREFIX: own, SLACK_TOKEN_KEY: key.toString('base64') },
      undefined,
      3_000,
    );
    expect(right[0]?.summary).not.toContain('does not open');
    const wrong = await checkInstallations(
      { REDIS_URL, REDIS_KEY_PREFIX: own, SLACK_TOKEN_KEY: randomBytes(32).toString('base64') },
      undefined,
      3_000,
    );
    expect(wrong).toMatchObject([
      {
        name: 'Slack installation T0001',
        status: 'fail',
        summary: expect.stringContaining('does not open with SLACK_TOKEN_KEY'),
      },
    ]);
  });

  it('says none is installed yet, and how to install', async () => {
    const checks = await checkInstallations(
      { REDIS_URL, REDIS_KEY_PREFIX: `${prefix}empty:` },
      undefined,
      3_000,
    );
    expect(checks).toEqual([
      expect.objectContaining({ status: 'warn', summary: expect.stringContaining('none yet') }),
    ]);
  });

  it('does not ask for SLACK_BOT_TOKEN when the OAuth variables are set', async () => {
    const report = await runDoctor({
      env: {
        SLACK_CLIENT_ID: '1111.2222',
        SLACK_CLIENT_SECRET: 'client-secret',
        SLACK_STATE_SECRET: 'state-secret-0123456789',
        SLACK_TOKEN_KEY: randomBytes(32).toString('base64'),
        SLACK_SIGNING_SECRET: 'signing-secret',
        SLACK_API_URL: 'http://127.0.0.1:9/api/',
        SERVICE_DESK_URL: 'http://127.0.0.1:9',
        SERVICE_DESK_API_KEY: 'sd_acme_rw',
      },
      timeoutMs: 500,
    });
    const token = report.checks.find((c) => c.name === 'Slack bot token');
    expect(token).toMatchObject({
      status: 'skip',
      summary: expect.stringContaining('installed by OAuth'),
    });
    expect(report.checks.find((c) => c.name === 'Configuration')?.status).toBe('pass');
    expect(report.checks.find((c) => c.name === 'Slack installations')?.status).toBe('skip');
  });
});

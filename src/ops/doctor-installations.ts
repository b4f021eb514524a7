/**
 * The doctor's checks when the app is installed by OAuth: each installation kept in Redis
 * (workspace or org-wide, its team or enterprise id) and the scopes it granted against
 * manifest.yml's, read from what is kept in the clear beside each sealed installation. With
 * SLACK_TOKEN_KEY, each installation is also opened (and dropped at once), so a wrong key shows
 * here rather than as every request refused; no token is printed.
 */
import { installKeys, TokenCipher } from '../store/index.ts';
import { decodeInstallation, summaryOfStored } from '../store/installation-codec.ts';
import { withTimeout } from '../timeout.ts';
import type { CheckStatus, DoctorCheck } from './doctor-check.ts';
import { readManifestScopes } from './manifest-scopes.ts';
import { createCheckRedisClient } from './redis-client.ts';

/** What the checks read of the environment. */
export interface InstallationsEnv {
  REDIS_URL?: string | undefined;
  REDIS_CLUSTER?: string | undefined;
  REDIS_KEY_PREFIX?: string | undefined;
  SLACK_TOKEN_KEY?: string | undefined;
}

/** One check per installation, or one saying why there is none to list. */
export async function checkInstallations(
  env: InstallationsEnv,
  manifestPath: string | URL | undefined,
  timeoutMs: number,
): Promise<DoctorCheck[]> {
  const name = 'Slack installations';
  if (!env.REDIS_URL) {
    return [
      {
        name,
        status: 'skip',
        summary:
          'REDIS_URL not set: installations are kept in the app process’s memory (lost on restart), where the doctor cannot read them',
      },
    ];
  }
  let wanted: string[] | undefined;
  try {
    wanted = await readManifestScopes(manifestPath);
  } catch {
    wanted = undefined;
  }
  const redis = createCheckRedisClient(
    env.REDIS_URL,
    env.REDIS_CLUSTER === '1' || env.REDIS_CLUSTER === 'true',
    timeoutMs,
  );
  let stored: Record<string, string>;
  try {
    await withTimeout('Redis', timeoutMs, redis.connect());
    const key = installKeys(env.REDIS_KEY_PREFIX ?? 'sds:').installations;
    stored = await withTimeout('Redis HGETALL', timeoutMs, redis.hgetall(key));
  } catch (error) {
    return [
      {
        name,
        status: 'skip',
        summary: `not read: ${error instanceof Error ? error.message : String(error)} (see the Redis check)`,
      },
    ];
  } finally {
    redis.disconnect();
  }
  const entries = Object.entries(stored).sort(([a], [b]) => a.localeCompare(b));
  if (entries.length === 0) {
    return [
      {
        name,
        status: 'warn',
        summary: 'none yet: no workspace has installed the app',
        fix: 'open https://<your app>/slack/install as a workspace (or organization) admin',
      },
    ];
  }
  const cipher = cipherOf(env.SLACK_TOKEN_KEY);
  return entries.map(([place, text]) => installationCheck(place, text, wanted, cipher));
}

function cipherOf(key: string | undefined): TokenCipher | undefined {
  try {
    return key ? new TokenCipher(key) : undefined;
  } catch {
    // A malformed key is the configuration check's to report.
    return undefined;
  }
}

function installationCheck(
  place: string,
  text: string,
  wanted: string[] | undefined,
  cipher: TokenCipher | undefined,
): DoctorCheck {
  const summary = summaryOfStored(text);
  if (summary && cipher) {
    try {
      decodeInstallation(cipher, place, text);
    } catch {
      return {
        name: `Slack installation ${summary.kind === 'org' ? summary.enterpriseId : summary.teamId}`,
        status: 'fail',
        summary: 'does not open with SLACK_TOKEN_KEY: its tokens were sealed with another key',
        fix: 'set the SLACK_TOKEN_KEY the installations were made with, or reinstall the app from /slack/install with this one',
      };
    }
  }
  if (!summary) {
    return {
      name: `Slack installation ${place}`,
      status: 'fail',
      summary: 'kept in a shape the app does not read',
      fix: 'reinstall the app from /slack/install',
    };
  }
  const who =
    summary.kind === 'org'
      ? `org-wide in enterprise ${summary.enterpriseId ?? '?'}`
      : `workspace ${summary.teamId ?? '?'}${summary.enterpriseId ? ` (enterprise ${summary.enterpriseId})` : ''}`;
  const granted = new Set(summary.scopes);
  const missing = (wanted ?? []).filter((scope) => !granted.has(scope));
  const status: CheckStatus = wanted === undefined ? 'warn' : missing.length > 0 ? 'fail' : 'pass';
  const scopes =
    wanted === undefined
      ? `${summary.scopes.length} scopes granted (manifest.yml not read)`
      : missing.length === 0
        ? `all ${wanted.length} scopes of manifest.yml granted`
        : `missing ${missing.join(', ')}`;
  return {
    name: `Slack installation ${summary.kind === 'org' ? summary.enterpriseId : summary.teamId}`,
    status,
    summary: `${who}, installed ${new Date(summary.installedAt).toISOString()}: ${scopes}`,
    ...(missing.length > 0
      ? {
          fix: 'update the app from manifest.yml, then reinstall it from /slack/install so that the workspace grants the new scopes',
        }
      : {}),
  };
}

/**
 * The doctor: checks each configured part against the real thing and says what to fix. It
 * reads the environment the app would read, but checks every part it can even when another
 * is wrong, so one run lists every problem. It never creates anything: the key's write access
 * is found with a create the platform must refuse (403 for a Read key, 422 for an empty body).
 * Secrets are never printed.
 */
import { request } from 'undici';
import { codeOf } from '../coded-error.ts';
import { ConfigError, loadConfig, parseDeskTriageChannels } from '../config.ts';
import { type CreateTicketInput, ServiceDeskClient, type Variant } from '../servicedesk/index.ts';
import { createRedisStores, TRIAGE_CATCH_ALL, type TriageChannel } from '../store/index.ts';
import { withTimeout } from '../timeout.ts';
import type { CheckStatus, DoctorCheck } from './doctor-check.ts';
import { checkInstallations } from './doctor-installations.ts';
import { readManifestScopes } from './manifest-scopes.ts';
import { createCheckRedisClient } from './redis-client.ts';

/** Every check, and whether all passed (warnings and skips do not fail). */
export interface DoctorReport {
  ok: boolean;
  checks: DoctorCheck[];
}

/** Options of `runDoctor`. */
export interface DoctorOptions {
  env: Readonly<Record<string, string | undefined>>;
  /** manifest.yml; the project's by default. */
  manifestPath?: string | URL;
  /** Bound on each network check; 10 s by default. */
  timeoutMs?: number;
}

const SLACK_API = 'https://slack.com/api/';
const TOKEN_ERRORS = new Set([
  'invalid_auth',
  'not_authed',
  'account_inactive',
  'token_revoked',
  'token_expired',
]);

/** Runs every check and reports. */
export async function runDoctor(options: DoctorOptions): Promise<DoctorReport> {
  const env = trimmed(options.env);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const checks: DoctorCheck[] = [checkConfiguration(options.env)];
  const slackApi = ensureSlash(env.SLACK_API_URL ?? SLACK_API);
  // Slack's Web API is never on this machine: a loopback one is the Slack double, a local run.
  const local = isLoopback(slackApi);

  // Installed by OAuth, each installation has its token and scopes: listed, never printed.
  const oauth = env.SLACK_CLIENT_ID !== undefined && env.SLACK_BOT_TOKEN === undefined;
  const token = oauth
    ? {
        check: {
          name: 'Slack bot token',
          status: 'skip' as const,
          summary: 'installed by OAuth: each installation has its own (listed below)',
        },
        scopes: undefined,
      }
    : await checkBotToken(env.SLACK_BOT_TOKEN, slackApi, timeoutMs);
  checks.push(token.check);
  if (oauth) checks.push(...(await checkInstallations(env, options.manifestPath, timeoutMs)));
  else checks.push(await checkScopes(token.scopes, token.check.status, options.manifestPath));
  checks.push(await checkAppToken(env.SLACK_APP_TOKEN, slackApi, timeoutMs));
  checks.push(
    checkSigningSecret(
      env.SLACK_SIGNING_SECRET,
      env.SLACK_APP_TOKEN !== undefined,
      env.APP_ROLE?.toLowerCase() === 'worker',
      local,
    ),
  );
  checks.push(
    await checkAgentEmails(
      env.AGENT_EMAILS,
      env.SLACK_BOT_TOKEN,
      token.check.status,
      slackApi,
      timeoutMs,
    ),
  );
  const platform = await checkPlatform(env, timeoutMs);
  checks.push(...platform.checks);
  checks.push(checkChannelDesks(env.CHANNEL_DESKS, platform.deskSlugs));
  checks.push(
    await checkTriageChannels(env, token.check.status, slackApi, timeoutMs, platform.deskSlugs),
  );
  checks.push(checkWebhookSecret(env.SERVICE_DESK_WEBHOOK_SECRET));
  checks.push(await checkRedis(env.REDIS_URL, env.REDIS_CLUSTER, timeoutMs, local));
  return { ok: checks.every((c) => c.status !== 'fail'), checks };
}

const MARKS: Record<CheckStatus, string> = {
  pass: 'ok  ',
  warn: 'warn',
  fail: 'FAIL',
  skip: 'skip',
};

/** The report as lines for a terminal: one per check, then its fix, then the verdict. */
export function formatReport(report: DoctorReport): string {
  const lines: string[] = [];
  for (const check of report.checks) {
    lines.push(`[${MARKS[check.status]}] ${check.name}: ${check.summary}`);
    if (check.fix) lines.push(`       fix: ${check.fix}`);
  }
  const failed = report.checks.filter((c) => c.status === 'fail').length;
  lines.push(
    report.ok
      ? 'Every check passed.'
      : `${failed} check${failed === 1 ? '' : 's'} failed: fix ${failed === 1 ? 'it' : 'them'} and run npm run doctor again.`,
  );
  return `${lines.join('\n')}\n`;
}

function checkConfiguration(env: Readonly<Record<string, string | undefined>>): DoctorCheck {
  try {
    loadConfig(env as NodeJS.ProcessEnv);
    return { name: 'Configuration', status: 'pass', summary: 'every variable is valid' };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return {
      name: 'Configuration',
      status: 'fail',
      summary: error.problems.join('; '),
      fix: 'set the variables named above (.env.example lists every one)',
    };
  }
}

interface SlackAnswer {
  body: { ok?: boolean; error?: string; [field: string]: unknown };
  scopes: string[] | undefined;
}

async function slackCall(
  apiUrl: string,
  method: string,
  token: string,
  timeoutMs: number,
  args: Record<string, string> = {},
): Promise<SlackAnswer> {
  const response = await request(`${apiUrl}${method}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams(args).toString(),
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  const text = await response.body.text();
  let body: SlackAnswer['body'];
  try {
    body = JSON.parse(text) as SlackAnswer['body'];
  } catch {
    body = { ok: false, error: `HTTP ${response.statusCode}, not JSON` };
  }
  const header = response.headers['x-oauth-scopes'];
  const scopes = typeof header === 'string' ? header.split(',').map((s) => s.trim()) : undefined;
  return { body, scopes: scopes?.filter(Boolean) };
}

async function checkBotToken(
  token: string | undefined,
  apiUrl: string,
  timeoutMs: number,
): Promise<{ check: DoctorCheck; scopes: string[] | undefined }> {
  const name = 'Slack bot token';
  const copy =
    'copy the Bot User OAuth Token (xoxb-...) from OAuth & Permissions into SLACK_BOT_TOKEN';
  if (!token)
    return { check: { name, status: 'fail', summary: 'not set', fix: copy }, scopes: undefined };
  if (!token.startsWith('xoxb-')) {
    return {
      check: { name, status: 'fail', summary: 'not a bot token (xoxb-...)', fix: copy },
      scopes: undefined,
    };
  }
  try {
    const { body, scopes } = await withTimeout(
      'Slack auth.test',
      timeoutMs,
      slackCall(apiUrl, 'auth.test', token, timeoutMs),
    );
    if (body.ok) {
      const who = `bot ${String(body.user ?? '?')} (${String(body.user_id ?? '?')})`;
      const team = `team ${String(body.team ?? '?')} (${String(body.team_id ?? '?')})`;
      return {
        check: { name, status: 'pass', summary: `auth.test passed: ${who} in ${team}` },
        scopes,
      };
    }
    const error = String(body.error ?? 'unknown_error');
    return {
      check: {
        name,
        status: 'fail',
        summary: `Slack refused it (${error})`,
        fix: TOKEN_ERRORS.has(error)
          ? `install (or reinstall) the app to the workspace, then ${copy}`
          : `Slack answered ${error}: see https://api.slack.com/methods/auth.test`,
      },
      scopes: undefined,
    };
  } catch (error) {
    return {
      check: {
        name,
        status: 'fail',
        summary: `could not reach Slack at ${apiUrl}: ${describe(error)}`,
        fix: 'allow outbound HTTPS to slack.com (or check SLACK_API_URL)',
      },
      scopes: undefined,
    };
  }
}

async function checkScopes(
  granted: string[] | undefined,
  tokenStatus: CheckStatus,
  manifestPath: string | URL | undefined,
): Promise<DoctorCheck> {
  const name = 'Slack scopes';
  let wanted: string[];
  try {
    wanted = await readManifestScopes(manifestPath);
  } catch (error) {
    return { name, status: 'warn', summary: `${describe(error)}; scopes not compared` };
  }
  if (tokenStatus !== 'pass')
    return { name, status: 'skip', summary: 'the bot token did not pass' };
  if (!granted) {
    return {
      name,
      status: 'warn',
      summary: 'Slack did not say which scopes the token has (no x-oauth-scopes header)',
    };
  }
  const have = new Set(granted);
  const missing = wanted.filter((scope) => !have.has(scope));
  if (missing.length === 0) {
    return { name, status: 'pass', summary: `all ${wanted.length} scopes of manifest.yml granted` };
  }
  return {
    name,
    status: 'fail',
    summary: `missing ${missing.join(', ')}`,
    fix: 'add them under OAuth & Permissions > Bot Token Scopes (or update the app from manifest.yml), then reinstall the app to the workspace',
  };
}

async function checkAppToken(
  token: string | undefined,
  apiUrl: string,
  timeoutMs: number,
): Promise<DoctorCheck> {
  const name = 'Socket Mode app token';
  if (!token) return { name, status: 'skip', summary: 'not set: HTTP mode' };
  const fix =
    'create an app-level token with the connections:write scope (Basic Information > App-Level Tokens), put it in SLACK_APP_TOKEN, and turn Socket Mode on';
  if (!token.startsWith('xapp-')) {
    return { name, status: 'fail', summary: 'not an app-level token (xapp-...)', fix };
  }
  try {
    const { body } = await withTimeout(
      'Slack apps.connections.open',
      timeoutMs,
      slackCall(apiUrl, 'apps.connections.open', token, timeoutMs),
    );
    if (body.ok)
      return { name, status: 'pass', summary: 'apps.connections.open gave a WebSocket URL' };
    return { name, status: 'fail', summary: `Slack refused it (${String(body.error)})`, fix };
  } catch (error) {
    return {
      name,
      status: 'fail',
      summary: `could not reach Slack at ${apiUrl}: ${describe(error)}`,
      fix: 'allow outbound HTTPS to slack.com (or check SLACK_API_URL)',
    };
  }
}

function checkSigningSecret(
  secret: string | undefined,
  socketMode: boolean,
  worker: boolean,
  local: boolean,
): DoctorCheck {
  const name = 'Slack signing secret';
  if (socketMode) {
    return { name, status: 'skip', summary: 'not used in Socket Mode' };
  }
  if (worker && !secret) {
    return { name, status: 'skip', summary: 'not used by a worker (APP_ROLE=worker)' };
  }
  const fix =
    'copy the Signing Secret from Basic Information > App Credentials into SLACK_SIGNING_SECRET';
  if (!secret) return { name, status: 'fail', summary: 'not set (HTTP mode needs it)', fix };
  // Slack's are 32 hexadecimal characters; anything else is most likely a pasted wrong value,
  // except against the Slack double, whose secret (double-signing-secret) is its own.
  if (!/^[0-9a-f]{32}$/.test(secret) && local) {
    return {
      name,
      status: 'pass',
      summary:
        "set; not shaped like Slack's (32 hexadecimal characters), as expected for the Slack double's",
    };
  }
  if (!/^[0-9a-f]{32}$/.test(secret)) {
    return {
      name,
      status: 'warn',
      summary: 'set, but not 32 hexadecimal characters like the secrets Slack issues',
      fix,
    };
  }
  return { name, status: 'pass', summary: 'set' };
}

function checkWebhookSecret(secret: string | undefined): DoctorCheck {
  const name = 'Platform webhooks';
  if (!secret) {
    return {
      name,
      status: 'skip',
      summary:
        'SERVICE_DESK_WEBHOOK_SECRET not set: no push; threads follow the platform by the change feed and per-ticket looks',
    };
  }
  if (secret.length < 16) {
    return {
      name,
      status: 'fail',
      summary: 'SERVICE_DESK_WEBHOOK_SECRET is shorter than 16 characters',
      fix: "use a long random secret (openssl rand -hex 24), the same in the platform's webhook rule",
    };
  }
  return {
    name,
    status: 'pass',
    summary: `secret set: POST /servicedesk/webhook checks deliveries signed with it; webhook_hints_total and webhook_last_hint_timestamp_seconds on /metrics show deliveries arriving`,
  };
}

/** The platform's checks, and the desks List desks gave (undefined when it did not answer). */
interface PlatformChecks {
  checks: DoctorCheck[];
  deskSlugs: ReadonlySet<string> | undefined;
}

async function checkPlatform(
  env: Record<string, string | undefined>,
  timeoutMs: number,
): Promise<PlatformChecks> {
  const [read, access, deskSlugs] = await platformChecks(env, timeoutMs);
  return { checks: [read, access], deskSlugs };
}

async function platformChecks(
  env: Record<string, string | undefined>,
  timeoutMs: number,
): Promise<[DoctorCheck, DoctorCheck, ReadonlySet<string>?]> {
  const read = 'Service-desk platform';
  const access = 'Service-desk key access';
  const url = env.SERVICE_DESK_URL;
  const key = env.SERVICE_DESK_API_KEY;
  const variant = (env.SERVICE_DESK_VARIANT ?? 'a').toLowerCase();
  const skipAccess: DoctorCheck = {
    name: access,
    status: 'skip',
    summary: 'the read did not pass',
  };
  if (!url || !key) {
    const missing = [url ? undefined : 'SERVICE_DESK_URL', key ? undefined : 'SERVICE_DESK_API_KEY']
      .filter(Boolean)
      .join(' and ');
    return [
      {
        name: read,
        status: 'fail',
        summary: `${missing} not set`,
        fix: 'set the platform URL and a Read+Write access key from the dashboard settings',
      },
      skipAccess,
    ];
  }
  let client: ServiceDeskClient;
  try {
    client = new ServiceDeskClient({
      baseUrl: url,
      apiKey: key,
      variant: variant as Variant,
      retry: { maxAttempts: 1, deadlineMs: timeoutMs },
      timeouts: { connectMs: timeoutMs, headersMs: timeoutMs, bodyMs: timeoutMs },
      userAgent: 'servicedesk-slack-doctor',
    });
  } catch (error) {
    return [
      {
        name: read,
        status: 'fail',
        summary: describe(error),
        fix: 'check SERVICE_DESK_URL, SERVICE_DESK_VARIANT (a or b) and SERVICE_DESK_API_KEY',
      },
      skipAccess,
    ];
  }
  try {
    let readCheck: DoctorCheck;
    let deskSlugs: Set<string>;
    try {
      const desks = await client.listDesks();
      deskSlugs = new Set(desks.items.map((desk) => desk.slug));
      readCheck = {
        name: read,
        status: 'pass',
        summary: `List desks answered at ${client.baseUrl} (variant ${client.variant}): ${desks.items.length} desk(s)`,
      };
    } catch (error) {
      return [
        { name: read, status: 'fail', ...platformReadFailure(error, client.baseUrl) },
        skipAccess,
      ];
    }
    return [readCheck, await checkWriteAccess(client, access), deskSlugs];
  } finally {
    await client.close();
  }
}

function platformReadFailure(error: unknown, baseUrl: string): { summary: string; fix: string } {
  switch (codeOf(error)) {
    case 'servicedesk_authentication':
      return {
        summary: 'the platform refused the key (401)',
        fix: 'SERVICE_DESK_API_KEY is wrong or revoked: create a Read+Write key in the dashboard settings',
      };
    case 'servicedesk_not_found':
      return {
        summary: `no service-desk API at ${baseUrl} (404)`,
        fix: 'check SERVICE_DESK_URL and SERVICE_DESK_VARIANT: a = your organization’s own host, b = the shared host',
      };
    case 'servicedesk_rate_limited':
      return {
        summary: 'the key is rate limited (429)',
        fix: 'wait a minute and run the doctor again; if it persists, another client is using the same key',
      };
    case 'servicedesk_connection':
    case 'servicedesk_timeout':
      return {
        summary: `could not reach ${baseUrl}: ${describe(error)}`,
        fix: 'check SERVICE_DESK_URL and that this host may reach it (DNS, firewall, proxy)',
      };
    default:
      return {
        summary: `List desks failed: ${describe(error)}`,
        fix: 'check SERVICE_DESK_URL and SERVICE_DESK_VARIANT; the platform’s status page may say more',
      };
  }
}

async function checkWriteAccess(client: ServiceDeskClient, name: string): Promise<DoctorCheck> {
  try {
    // An empty body can never make a ticket: the key's role is checked (403) before the body (422).
    const created = await client.createTicket({} as CreateTicketInput);
    return {
      name,
      status: 'fail',
      summary: `the platform accepted an empty ticket (${created.id}); it should have refused it`,
      fix: `delete ${created.id} in the dashboard and report this to the platform`,
    };
  } catch (error) {
    const code = codeOf(error);
    if (code === 'servicedesk_validation') {
      return {
        name,
        status: 'pass',
        summary: 'Read+Write (an empty create was refused for its body, 422; nothing was created)',
      };
    }
    if (code === 'servicedesk_permission_denied') {
      return {
        name,
        status: 'fail',
        summary: 'Read only (an empty create was refused with 403): the app could not file tickets',
        fix: 'create a Read+Write access key in the dashboard settings and put it in SERVICE_DESK_API_KEY',
      };
    }
    return { name, status: 'fail', summary: `the write check failed: ${describe(error)}` };
  }
}

async function checkRedis(
  url: string | undefined,
  cluster: string | undefined,
  timeoutMs: number,
  local: boolean,
): Promise<DoctorCheck> {
  const name = 'Redis';
  if (!url && local) {
    return {
      name,
      status: 'skip',
      summary:
        'REDIS_URL not set: the embedded in-memory store, fine for this local run (one process); production sets REDIS_URL',
    };
  }
  if (!url) {
    return {
      name,
      status: 'warn',
      summary:
        'REDIS_URL not set: the embedded in-memory store serves one process and loses queued requests on restart',
      fix: 'set REDIS_URL for production and for more than one replica',
    };
  }
  const redis = createCheckRedisClient(url, cluster === '1' || cluster === 'true', timeoutMs);
  try {
    await withTimeout('Redis', timeoutMs, redis.connect());
    await withTimeout('Redis PING', timeoutMs, redis.ping());
    const info = await withTimeout('Redis INFO', timeoutMs, redis.info('server'));
    const version = /^redis_version:(.+)$/m.exec(info)?.[1]?.trim() ?? 'unknown';
    const mode = /^redis_mode:(.+)$/m.exec(info)?.[1]?.trim() ?? 'unknown';
    const major = Number.parseInt(version, 10);
    if (Number.isFinite(major) && major < 6) {
      return {
        name,
        status: 'fail',
        summary: `PING answered, but Redis ${version} is too old`,
        fix: 'use Redis 6 or newer (or a compatible server such as Valkey)',
      };
    }
    return { name, status: 'pass', summary: `PING answered; Redis ${version} (${mode})` };
  } catch (error) {
    return {
      name,
      status: 'fail',
      summary: `no answer: ${describe(error)}`,
      fix: 'check REDIS_URL (host, port, password; rediss:// for TLS) and that this host may reach it',
    };
  } finally {
    redis.disconnect();
  }
}

/** A channel id as Slack writes it: C… (public), G… (private, older ones), D… (a DM). */
const CHANNEL_ID = /^[CGD][A-Z0-9]{2,}$/;

function checkChannelDesks(
  raw: string | undefined,
  deskSlugs: ReadonlySet<string> | undefined,
): DoctorCheck {
  const name = 'Channel desks';
  if (!raw)
    return {
      name,
      status: 'skip',
      summary: 'CHANNEL_DESKS not set: no channel files to a desk of its own',
    };
  const pairs = raw
    .split(',')
    .map((pair) => pair.trim())
    .filter(Boolean)
    .map((pair) => {
      const at = pair.indexOf('=');
      return {
        channel: (at < 0 ? pair : pair.slice(0, at)).trim(),
        desk: (at < 0 ? '' : pair.slice(at + 1)).trim(),
      };
    });
  const names = pairs.filter((p) => !CHANNEL_ID.test(p.channel.toUpperCase()));
  if (names.length > 0) {
    return {
      name,
      status: 'fail',
      summary: `CHANNEL_DESKS names ${names.map((p) => `"${p.channel}"`).join(', ')}, not a channel id (C… or G…)`,
      fix: "use each channel's id: in Slack, click the channel's name; the id is at the bottom of About (C0123ABCD)",
    };
  }
  if (!deskSlugs) {
    return { name, status: 'skip', summary: 'the platform did not answer List desks' };
  }
  const unknown = pairs.filter((p) => !deskSlugs.has(p.desk));
  if (unknown.length > 0) {
    return {
      name,
      status: 'fail',
      summary: `the platform has no desk ${unknown.map((p) => `"${p.desk}"`).join(', ')} (CHANNEL_DESKS, for ${unknown.map((p) => p.channel).join(', ')})`,
      fix: `use a desk slug the platform lists: ${[...deskSlugs].sort().join(', ') || '(none)'}`,
    };
  }
  return {
    name,
    status: 'pass',
    summary: `${pairs.length} channel(s), each to a desk the platform has`,
  };
}

/**
 * The triage channels: DESK_TRIAGE_CHANNELS's defaults and, with Redis, those agents set with
 * `/ticket triage`. Each is asked of Slack: a public one fails the check (the app posts nothing
 * there, as a triage channel carries every ticket's text and every internal note); one the app
 * has left (or cannot see) gets no cards, a warning: tickets are still filed.
 */
async function checkTriageChannels(
  env: Record<string, string | undefined>,
  tokenStatus: CheckStatus,
  apiUrl: string,
  timeoutMs: number,
  deskSlugs: ReadonlySet<string> | undefined,
): Promise<DoctorCheck> {
  const name = 'Triage channels';
  const pairs = (env.DESK_TRIAGE_CHANNELS ?? '')
    .split(',')
    .map((pair) => pair.trim())
    .filter(Boolean);
  const parsed = parseDeskTriageChannels(pairs);
  if (parsed.problems.length > 0) {
    return {
      name,
      status: 'skip',
      summary: 'DESK_TRIAGE_CHANNELS is not valid (see Configuration)',
    };
  }
  const read = await readTriageChannels(env, parsed.channels, timeoutMs);
  const notes = read.note ? [read.note] : [];
  if (read.channels.length === 0) {
    return {
      name,
      status: 'skip',
      summary: [
        'no triage channel: an agent sets one with /ticket triage <desk> in it',
        ...notes,
      ].join('; '),
    };
  }
  const warnings: string[] = [];
  const failures: string[] = [];
  const fixes = new Set<string>();
  const unknown = read.channels.filter(
    (c) => c.desk !== TRIAGE_CATCH_ALL && deskSlugs !== undefined && !deskSlugs.has(c.desk),
  );
  if (unknown.length > 0) {
    warnings.push(`the platform has no desk ${unknown.map((c) => `"${c.desk}"`).join(', ')}`);
    fixes.add('run /ticket triage off in its channel (or take it out of DESK_TRIAGE_CHANNELS)');
  }
  const labels = new Map<string, string>();
  if (tokenStatus === 'pass' && env.SLACK_BOT_TOKEN) {
    for (const channel of new Set(read.channels.map((c) => c.channel))) {
      const found = await triageChannelState(apiUrl, env.SLACK_BOT_TOKEN, timeoutMs, channel);
      labels.set(channel, found.label);
      if (found.failure) failures.push(found.failure);
      if (found.warning) warnings.push(found.warning);
      if (found.fix) fixes.add(found.fix);
    }
  } else {
    notes.push('the bot token did not pass, so Slack was not asked about them');
  }
  const listed = read.channels
    .map((c) => {
      const desk = c.desk === TRIAGE_CATCH_ALL ? '* (catch-all)' : c.desk;
      const origin = c.origin === 'slack' ? 'set in Slack' : 'DESK_TRIAGE_CHANNELS';
      return `${desk} -> ${labels.get(c.channel) ?? c.channel} (${origin})`;
    })
    .join(', ');
  const summary = [listed, ...failures, ...warnings, ...notes].join('; ');
  if (failures.length === 0 && warnings.length === 0) return { name, status: 'pass', summary };
  const status = failures.length > 0 ? 'fail' : 'warn';
  return { name, status, summary, fix: [...fixes].join('; ') };
}

/** The triage channels in force, and why some may be missing from them. */
async function readTriageChannels(
  env: Record<string, string | undefined>,
  defaults: ReadonlyMap<string, string>,
  timeoutMs: number,
): Promise<{ channels: TriageChannel[]; note?: string }> {
  const fromDefaults = [...defaults].map(([desk, channel]) => ({
    desk,
    channel,
    origin: 'default' as const,
  }));
  if (!env.REDIS_URL) {
    const note =
      defaults.size > 0
        ? 'no REDIS_URL: channels set with /ticket triage live in the running app, not checked here'
        : undefined;
    return note ? { channels: fromDefaults, note } : { channels: fromDefaults };
  }
  const redis = createCheckRedisClient(
    env.REDIS_URL,
    env.REDIS_CLUSTER === '1' || env.REDIS_CLUSTER === 'true',
    timeoutMs,
  );
  try {
    await withTimeout('Redis', timeoutMs, redis.connect());
    const stores = createRedisStores({
      redis,
      prefix: env.REDIS_KEY_PREFIX ?? 'sds:',
      triageDefaults: defaults,
    });
    return { channels: await withTimeout('Redis', timeoutMs, stores.triageChannels.all()) };
  } catch {
    // The Redis check says why; here it is enough that what agents set could not be read.
    return {
      channels: fromDefaults,
      note: 'Redis did not answer, so channels set with /ticket triage were not read',
    };
  } finally {
    redis.disconnect();
  }
}

/** What Slack says of one triage channel: its name, and what is wrong with it if anything. */
async function triageChannelState(
  apiUrl: string,
  token: string,
  timeoutMs: number,
  channel: string,
): Promise<{ label: string; failure?: string; warning?: string; fix?: string }> {
  let body: SlackAnswer['body'];
  try {
    ({ body } = await withTimeout(
      'Slack conversations.info',
      timeoutMs,
      slackCall(apiUrl, 'conversations.info', token, timeoutMs, { channel }),
    ));
  } catch (error) {
    return { label: channel, warning: `could not ask Slack about ${channel}: ${describe(error)}` };
  }
  if (!body.ok) {
    if (body.error === 'channel_not_found') {
      return {
        label: channel,
        warning: `the app cannot see ${channel} (a private channel it left, or one deleted): its cards cannot be posted`,
        fix: 'invite the app back (/invite @Service Desk), or set another triage channel with /ticket triage',
      };
    }
    return {
      label: channel,
      warning: `conversations.info answered ${String(body.error)} for ${channel}`,
      ...(body.error === 'missing_scope'
        ? { fix: 'add the channels:read and groups:read scopes and reinstall the app' }
        : {}),
    };
  }
  const info = (body.channel ?? {}) as {
    name?: unknown;
    is_member?: unknown;
    is_private?: unknown;
    is_archived?: unknown;
  };
  const label = typeof info.name === 'string' ? `#${info.name} (${channel})` : channel;
  if (info.is_archived === true) {
    return {
      label,
      warning: `${label} is archived: its cards cannot be posted`,
      fix: 'set another triage channel with /ticket triage <desk> there',
    };
  }
  if (info.is_private !== true) {
    return {
      label,
      failure: `${label} is public: the app posts no card and no note there (anyone in the workspace could read them)`,
      fix: 'use a private channel for triage (/ticket triage off there, or take it out of DESK_TRIAGE_CHANNELS; /ticket triage <desk> in the private one)',
    };
  }
  if (info.is_member !== true) {
    return {
      label,
      warning: `the app is no longer in ${label}: its cards cannot be posted`,
      fix: 'invite the app back (/invite @Service Desk), or run /ticket triage off there',
    };
  }
  return { label };
}

async function checkAgentEmails(
  raw: string | undefined,
  token: string | undefined,
  tokenStatus: CheckStatus,
  apiUrl: string,
  timeoutMs: number,
): Promise<DoctorCheck> {
  const name = 'Agent emails';
  const emails = (raw ?? '')
    .split(',')
    .map((email) => email.trim())
    .filter(Boolean);
  if (emails.length === 0) return { name, status: 'skip', summary: 'AGENT_EMAILS not set' };
  if (tokenStatus !== 'pass' || !token)
    return { name, status: 'skip', summary: 'the bot token did not pass' };
  const unmatched: string[] = [];
  try {
    for (const email of emails) {
      const { body } = await withTimeout(
        'Slack users.lookupByEmail',
        timeoutMs,
        slackCall(apiUrl, 'users.lookupByEmail', token, timeoutMs, { email }),
      );
      if (body.ok) continue;
      if (body.error === 'users_not_found') {
        unmatched.push(email);
        continue;
      }
      return {
        name,
        status: 'warn',
        summary: `users.lookupByEmail answered ${String(body.error)}; the emails were not checked`,
        fix:
          body.error === 'missing_scope'
            ? 'add the users:read.email scope (OAuth & Permissions) and reinstall the app'
            : 'see https://api.slack.com/methods/users.lookupByEmail',
      };
    }
  } catch (error) {
    return {
      name,
      status: 'warn',
      summary: `could not ask Slack: ${describe(error)}; the emails were not checked`,
    };
  }
  if (unmatched.length > 0) {
    return {
      name,
      status: 'warn',
      summary: `no Slack user has ${unmatched.join(', ')}: they will not act as agents`,
      fix: "write each agent's email as their Slack profile shows it (AGENT_EMAILS, comma-separated)",
    };
  }
  return {
    name,
    status: 'pass',
    summary: `each of the ${emails.length} email(s) is a Slack user's`,
  };
}

function isLoopback(url: string): boolean {
  try {
    const host = new URL(url).hostname;
    return host === 'localhost' || host === '[::1]' || /^127\./.test(host);
  } catch {
    return false;
  }
}

function trimmed(
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(env)) {
    const v = value?.trim();
    out[name] = v === undefined || v === '' ? undefined : v;
  }
  return out;
}

function ensureSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const code = codeOf(error);
    return code && !error.message.includes(code) ? `${error.message} (${code})` : error.message;
  }
  return String(error);
}

/**
 * The app's configuration, parsed once from the environment. Every problem names the variable
 * and says how to fix it, so a bad deploy fails at start with one readable message instead of
 * at the first Slack request.
 */

import { existsSync } from 'node:fs';
import { z } from 'zod';
import { CodedError } from './coded-error.ts';
import { parseServiceTargets, type ServiceTargets } from './contract/service-levels.ts';
import { durationMs } from './duration.ts';

/** Raised when the environment does not describe a runnable app; lists every problem at once. */
export class ConfigError extends CodedError {
  /** One line per problem, each naming its variable. */
  readonly problems: string[];

  constructor(problems: string[]) {
    super(
      'config_invalid',
      `Configuration is not valid:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
    this.problems = problems;
  }
}

// An empty variable is treated as unset: `FOO=` in a .env file or compose file means "no value".
const optional = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

// Unset or empty: the message says where the value comes from.
const required = (message: string) => optional.pipe(z.string({ error: `is required: ${message}` }));

const httpUrl = (example: string) =>
  required(`set it to a URL such as ${example}`).refine(
    (v) => /^https?:\/\/[^\s]+$/.test(v) && URL.canParse(v),
    { error: `must be an http(s) URL such as ${example}` },
  );

const optionalHttpUrl = (example: string) =>
  optional.refine((v) => v === undefined || (/^https?:\/\//.test(v) && URL.canParse(v)), {
    error: `must be an http(s) URL such as ${example}, or unset`,
  });

const list = optional.transform((v) =>
  v === undefined
    ? []
    : v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
);

// A number read from text; each check gives the same message, which says what the value must be.
const numberIn = (fallback: number, message: string, rule: (n: number) => boolean) =>
  optional
    .transform((v) => (v === undefined ? fallback : Number(v)))
    .pipe(z.number({ error: message }).refine(rule, { error: message }));

// A positive whole number with a default; the reason says where the default comes from.
const wholeNumber = (fallback: number, why: string) =>
  numberIn(
    fallback,
    `must be a whole number, 1 or more (${why})`,
    (n) => Number.isInteger(n) && n >= 1,
  );

const DAY = 86_400_000;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * How the mirror learns which tickets changed across tickets: `auto` finds out at start (and
 * now and then) whether List tickets honours `updated_after`; `filter` and `sweep` force one
 * way; `off` leaves per-ticket looks alone.
 */
export const CHANGE_FEEDS = ['auto', 'filter', 'sweep', 'off'] as const;
/** One of `CHANGE_FEEDS`. */
export type ChangeFeedMode = (typeof CHANGE_FEEDS)[number];

/**
 * What one process does: everything (`all`), only answer Slack and queue its requests (`web`),
 * or only run the queued requests and the mirror (`worker`).
 */
export const APP_ROLES = ['all', 'web', 'worker'] as const;
/** One of `APP_ROLES`. */
export type AppRole = (typeof APP_ROLES)[number];

/**
 * A channel's default mode (CHANNEL_MODES): `auto` files every new top-level message a person
 * writes there as a ticket; `off` files none. What an agent sets in Slack wins over it.
 */
export type ChannelModeSetting = 'auto' | 'off';

/** What a reaction on a triage card does (TRIAGE_REACTIONS): assign, resolve or raise the priority. */
export const TRIAGE_REACTION_ACTIONS = ['assign', 'resolve', 'raise'] as const;
/** One of `TRIAGE_REACTION_ACTIONS`. */
export type TriageReactionAction = (typeof TRIAGE_REACTION_ACTIONS)[number];

/** The reactions agents use on triage cards unless TRIAGE_REACTIONS says otherwise. */
export const DEFAULT_TRIAGE_REACTIONS = 'eyes=assign,white_check_mark=resolve,arrow_up_small=raise';

/**
 * TRIAGE_REACTIONS as typed: emoji name=action pairs (`:eyes:` and `eyes` alike), or `off` for
 * none. Each problem quotes the pair at fault and says how to write it.
 */
export function parseTriageReactions(value: string): {
  reactions: Map<string, TriageReactionAction>;
  problems: string[];
} {
  const reactions = new Map<string, TriageReactionAction>();
  const problems: string[] = [];
  if (value.toLowerCase() === 'off') return { reactions, problems };
  const example = `e.g. ${DEFAULT_TRIAGE_REACTIONS}, or off`;
  const pairs = value
    .split(',')
    .map((pair) => pair.trim())
    .filter(Boolean);
  for (const pair of pairs) {
    const [rawName = '', rawAction = '', ...rest] = pair.split('=').map((part) => part.trim());
    const name = rawName.replace(/^:|:$/g, '').toLowerCase();
    const action = rawAction.toLowerCase();
    if (!pair.includes('=') || rest.length > 0) {
      problems.push(`has "${pair}": write emoji name=action pairs, ${example}`);
    } else if (!/^[a-z0-9_+'-]+$/.test(name)) {
      problems.push(`has "${pair}": "${rawName}" is not an emoji name (such as eyes), ${example}`);
    } else if (!(TRIAGE_REACTION_ACTIONS as readonly string[]).includes(action)) {
      problems.push(
        `has "${pair}": "${rawAction}" is not an action; use ${TRIAGE_REACTION_ACTIONS.join(', ')}, ${example}`,
      );
    } else if (reactions.has(name)) {
      problems.push(`names :${name}: twice: one action per emoji`);
    } else {
      reactions.set(name, action as TriageReactionAction);
    }
  }
  return { reactions, problems };
}

/**
 * DESK_TRIAGE_CHANNELS as typed: desk slug=channel id pairs, `*` for the catch-all (tickets on
 * no desk, or on a desk with no triage channel of its own). Each problem quotes the pair at
 * fault and says how to write it; the pairs that are right are kept all the same.
 */
export function parseDeskTriageChannels(pairs: readonly string[]): {
  channels: Map<string, string>;
  problems: string[];
} {
  const channels = new Map<string, string>();
  const problems: string[] = [];
  const example = 'e.g. it=C0123ABCD,hr=C0456EFGH,*=C0789IJKL';
  for (const pair of pairs) {
    const [desk = '', channel = '', ...rest] = pair.split('=').map((part) => part.trim());
    const deskOk = desk === '*' || /^[a-z0-9][a-z0-9_-]*$/i.test(desk);
    const channelOk = /^[CG][A-Z0-9]+$/i.test(channel);
    if (deskOk && channelOk && rest.length === 0) {
      const slug = desk.toLowerCase();
      const id = channel.toUpperCase();
      const before = channels.get(slug);
      if (before !== undefined && before !== id) {
        problems.push(
          `names ${slug === '*' ? 'the catch-all (*)' : `desk "${slug}"`} twice (${before} and ${id}): one triage channel per desk`,
        );
      }
      channels.set(slug, id);
      continue;
    }
    let why: string;
    if (!pair.includes('=') || rest.length > 0) {
      why = `write desk slug=channel id pairs, * for the catch-all, ${example}`;
    } else if (
      /^[CGD][A-Z0-9]*\d[A-Z0-9]*$/i.test(desk) &&
      /^[a-z0-9*][a-z0-9_-]*$/i.test(channel)
    ) {
      // CHANNEL_DESKS is written channel=desk: the other way round is the usual slip here.
      why = `the desk comes first, then the channel, e.g. ${channel}=${desk}`;
    } else if (/^D[A-Z0-9]+$/i.test(channel)) {
      why = `${channel} is a direct message; a triage channel is a channel (C… or G…)`;
    } else if (!channelOk) {
      why = `"${channel}" is not a channel id; use the id (C0123ABCD: click the channel's name, it is at the bottom of About), ${example}`;
    } else {
      why = `"${desk}" is not a desk slug (letters, digits, - and _) or *, ${example}`;
    }
    problems.push(`has "${pair}": ${why}`);
  }
  return { channels, problems };
}

// Each variable on its own; the rules that tie several together are in `crossProblems`.
const envSchema = z.object({
  // Required unless the app is installed by OAuth (see `crossProblems`).
  SLACK_BOT_TOKEN: optional.refine((v) => v === undefined || v.startsWith('xoxb-'), {
    error: 'must be a bot token starting with xoxb- (OAuth & Permissions page)',
  }),
  SLACK_CLIENT_ID: optional.refine((v) => v === undefined || /^\d+\.\d+$/.test(v), {
    error: 'must be the Client ID from Basic Information > App Credentials (digits.digits)',
  }),
  SLACK_CLIENT_SECRET: optional,
  SLACK_STATE_SECRET: optional.refine((v) => v === undefined || v.length >= 16, {
    error:
      'must be at least 16 random characters (it signs install links), e.g. the output of openssl rand -hex 16',
  }),
  SLACK_TOKEN_KEY: optional.refine(
    (v) =>
      v === undefined ||
      (/^[A-Za-z0-9+/]+={0,2}$/.test(v) && Buffer.from(v, 'base64').length === 32),
    {
      error:
        'must be 32 random bytes in base64 (it encrypts the installations’ tokens at rest), e.g. the output of openssl rand -base64 32',
    },
  ),
  SLACK_SIGNING_SECRET: optional,
  SLACK_APP_TOKEN: optional.refine((v) => v === undefined || v.startsWith('xapp-'), {
    error:
      'must be an app-level token starting with xapp- (Basic Information > App-Level Tokens, scope connections:write), or unset for HTTP mode',
  }),
  SLACK_API_URL: optionalHttpUrl('http://127.0.0.1:4020/api/'),
  SERVICE_DESK_URL: httpUrl('https://acme.servicedesk.example'),
  SERVICE_DESK_API_KEY: required(
    'create a Read+Write access key in the platform dashboard settings',
  ),
  SERVICE_DESK_VARIANT: optional
    .transform((v) => v?.toLowerCase() ?? 'a')
    .pipe(z.enum(['a', 'b'], { error: 'must be a (per-organization host) or b (shared host)' })),
  SERVICE_DESK_DASHBOARD_URL: optionalHttpUrl('https://acme.servicedesk.example'),
  SERVICE_DESK_DASHBOARD_HOSTS: list.transform((hosts, ctx) => {
    const names: string[] = [];
    for (const host of hosts) {
      const name = host.toLowerCase().replace(/\.$/, '');
      // A host name as Slack's unfurl_domains takes it: no scheme, port or path.
      if (/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(name)) {
        names.push(name);
        continue;
      }
      ctx.addIssue({
        code: 'custom',
        message: `has "${host}", which is not a host name: write the dashboard's host alone (no https:// or path), comma-separated, e.g. acme.servicedesk.example`,
      });
    }
    return names;
  }),
  SERVICE_DESK_RATE_PER_MINUTE: wholeNumber(100, 'the platform allows 100 a minute per key'),
  SERVICE_DESK_RATE_PER_HOUR: wholeNumber(1000, 'the platform allows 1,000 an hour per key'),
  SERVICE_DESK_RATE_RESERVE: numberIn(
    0.2,
    'must be a fraction from 0 to 0.9, e.g. 0.2 for 20%',
    (n) => n >= 0 && n <= 0.9,
  ),
  SERVICE_DESK_WEBHOOK_SECRET: optional.refine((v) => v === undefined || v.length >= 16, {
    error:
      "must be at least 16 characters: the secret shared with the platform's webhook (automation rule), or unset for no webhooks",
  }),
  SERVICE_DESK_CHANGE_FEED: optional
    .transform((v) => v?.toLowerCase() ?? 'auto')
    .pipe(
      z.enum(CHANGE_FEEDS, {
        error:
          'must be auto (find out at start), filter (List tickets honours updated_after), sweep (compare updated_at) or off (per-ticket looks only)',
      }),
    ),
  REDIS_URL: optional.refine((v) => v === undefined || /^rediss?:\/\//.test(v), {
    error: 'must be a redis:// or rediss:// URL, or unset for the embedded in-memory store',
  }),
  REDIS_CLUSTER: optional.transform((v) => v === '1' || v === 'true'),
  REDIS_KEY_PREFIX: optional
    .transform((v) => v ?? 'sds:')
    .pipe(
      z.string().regex(/^[A-Za-z0-9:_.-]{1,64}$/, {
        error: 'must be 1 to 64 letters, digits or : _ . - (e.g. sds: or sds:staging:)',
      }),
    ),
  PORT: numberIn(
    3000,
    'must be a whole number from 1 to 65535, or 0 for any free port',
    (n) => Number.isInteger(n) && n >= 0 && n <= 65535,
  ),
  APP_ROLE: optional
    .transform((v) => v?.toLowerCase() ?? 'all')
    .pipe(
      z.enum(APP_ROLES, {
        error:
          'must be all (one process does everything), web (answers Slack and queues its requests) or worker (runs the queue and the mirror)',
      }),
    ),
  LOG_LEVEL: optional
    .transform((v) => v?.toLowerCase() ?? 'info')
    .pipe(z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` })),
  LOG_PRETTY: optional.transform((v) => v === '1' || v === 'true'),
  TICKET_EMOJI: optional
    .transform((v) => (v ?? 'ticket').replace(/^:|:$/g, ''))
    .pipe(z.string().regex(/^[a-z0-9_+'-]+$/, { error: 'must be an emoji name such as ticket' })),
  AGENT_EMAILS: list.transform((emails, ctx) => {
    for (const email of emails) {
      if (!z.email().safeParse(email).success) {
        ctx.addIssue({
          code: 'custom',
          message: `has "${email}", which is not an email address: write addresses comma-separated, e.g. alex@acme.example,sam@acme.example`,
        });
      }
    }
    return emails;
  }),
  SLACK_AGENT_USERGROUP: optional.refine((v) => v === undefined || /^S[A-Z0-9]+$/.test(v), {
    error: 'must be a user group id such as S0123ABCD (not its @handle)',
  }),
  CHANNEL_DESKS: list.transform((pairs, ctx) => {
    const map = new Map<string, string>();
    for (const pair of pairs) {
      const match = /^([CGD][A-Z0-9]+)=([a-z0-9][a-z0-9_-]*)$/i.exec(pair);
      if (!match) {
        const channel = pair.split('=')[0]?.trim() ?? '';
        // A name (#it-help, it-help) is the usual slip: Slack's API knows channels by id only.
        const named = pair.includes('=') && !/^[CGD][A-Z0-9]+$/i.test(channel);
        ctx.addIssue({
          code: 'custom',
          message: named
            ? `has "${pair}": "${channel}" is a channel name, not its id; use the id (C0123ABCD: click the channel's name, it is at the bottom of About), e.g. C0123ABCD=it`
            : `has "${pair}": write channel id=desk slug pairs, e.g. C0123ABCD=it,C0456EFGH=hr`,
        });
        continue;
      }
      map.set((match[1] as string).toUpperCase(), match[2] as string);
    }
    return map;
  }),
  CHANNEL_MODES: list.transform((pairs, ctx) => {
    const map = new Map<string, ChannelModeSetting>();
    for (const pair of pairs) {
      const match = /^([CG][A-Z0-9]+)=(auto|off)$/i.exec(pair);
      if (!match) {
        const [channel = '', mode = ''] = pair.split('=').map((part) => part.trim());
        const named = pair.includes('=') && !/^[CGD][A-Z0-9]+$/i.test(channel);
        ctx.addIssue({
          code: 'custom',
          message: named
            ? `has "${pair}": "${channel}" is a channel name, not its id; use the id (C0123ABCD: click the channel's name, it is at the bottom of About), e.g. C0123ABCD=auto`
            : /^D/i.test(channel)
              ? `has "${pair}": ${channel} is a direct message, which always files its messages; name channels (C… or G…)`
              : pair.includes('=') && !/^(auto|off)$/i.test(mode)
                ? `has "${pair}": the mode must be auto (every new message becomes a ticket) or off, e.g. C0123ABCD=auto`
                : `has "${pair}": write channel id=mode pairs, e.g. C0123ABCD=auto,C0456EFGH=off`,
        });
        continue;
      }
      map.set(
        (match[1] as string).toUpperCase(),
        (match[2] as string).toLowerCase() as ChannelModeSetting,
      );
    }
    return map;
  }),
  CHANNEL_AUTO_HOLD_SECONDS: numberIn(
    3,
    'must be a number of seconds from 0 to 60, e.g. 3 (how long an auto channel’s message waits, in case its writer deletes it)',
    (n) => n >= 0 && n <= 60,
  ),
  REOPEN_WINDOW: optional.transform((value, ctx) => {
    const ms = durationMs(value ?? '3d');
    if (ms === undefined || ms > 30 * DAY) {
      ctx.addIssue({
        code: 'custom',
        message:
          'must be a duration up to 30 days, e.g. 3d, 72h or 90m, or 0 to file every direct message at once (how long after a ticket is resolved a direct message asks whether it is about that ticket)',
      });
      return z.NEVER;
    }
    return ms;
  }),
  DESK_TRIAGE_CHANNELS: list.transform((pairs, ctx) => {
    const { channels, problems } = parseDeskTriageChannels(pairs);
    for (const message of problems) ctx.addIssue({ code: 'custom', message });
    return channels;
  }),
  TRIAGE_REACTIONS: optional.transform((value, ctx) => {
    const { reactions, problems } = parseTriageReactions(value ?? DEFAULT_TRIAGE_REACTIONS);
    for (const message of problems) ctx.addIssue({ code: 'custom', message });
    return reactions;
  }),
  SLA_TARGETS: optional.transform((value, ctx) => {
    const { targets, problems } = parseServiceTargets(value ?? '');
    for (const message of problems) ctx.addIssue({ code: 'custom', message });
    return targets;
  }),
  SLA_WARN_AT: numberIn(
    0.8,
    'must be a fraction above 0 and below 1, e.g. 0.8 (warn when 80% of a target’s time is gone)',
    (n) => n > 0 && n < 1,
  ),
  DESK_ONCALL_GROUPS: list.transform((pairs, ctx) => {
    const groups = new Map<string, string>();
    for (const pair of pairs) {
      const match = /^([a-z0-9][a-z0-9_-]*|\*)=(S[A-Z0-9]+)$/i.exec(pair);
      if (!match) {
        ctx.addIssue({
          code: 'custom',
          message: `has "${pair}": write desk slug=user group id pairs (the id, S0123ABCD, not the @handle), e.g. it=S0123ABCD`,
        });
        continue;
      }
      groups.set((match[1] as string).toLowerCase(), (match[2] as string).toUpperCase());
    }
    return groups;
  }),
  TRIAGE_DIGEST_AT: optional.transform((value, ctx) => {
    const text = (value ?? '09:00').toLowerCase();
    if (text === 'off') return undefined;
    const match = /^([01]?\d|2[0-3]):([0-5]\d)$/.exec(text);
    if (!match) {
      ctx.addIssue({
        code: 'custom',
        message: 'must be a time of day as HH:MM, e.g. 09:00, or off (no morning summary)',
      });
      return z.NEVER;
    }
    return Number(match[1]) * 60 + Number(match[2]);
  }),
  TRIAGE_DIGEST_TZ: optional
    .transform((v) => v ?? 'UTC')
    .refine(isTimeZone, {
      error: 'must be an IANA time zone such as Europe/Paris or America/New_York',
    }),
  ASSISTANT_PROMPTS: optional.transform((value, ctx) => {
    const parsed = parseAssistantPrompts(value);
    if (parsed === 'invalid') {
      ctx.addIssue({
        code: 'custom',
        message: `must be up to ${MAX_ASSISTANT_PROMPTS} prompts separated by |, each at most ${MAX_ASSISTANT_PROMPT_LENGTH} characters, e.g. My laptop won't start|Request software; or off (none); unset: drawn from the catalog and the desks`,
      });
      return z.NEVER;
    }
    return parsed;
  }),
});

/** Slack shows at most four suggested prompts in its AI pane. */
export const MAX_ASSISTANT_PROMPTS = 4;
// Long enough for a sentence; a prompt is a button, not a form.
const MAX_ASSISTANT_PROMPT_LENGTH = 150;

/**
 * ASSISTANT_PROMPTS: undefined when unset (drawn from the catalog and the desks), [] for `off`,
 * else the prompts in order; 'invalid' for too many, or one too long.
 */
function parseAssistantPrompts(value: string | undefined): string[] | undefined | 'invalid' {
  if (value === undefined) return undefined;
  if (value.trim().toLowerCase() === 'off') return [];
  const prompts = value
    .split('|')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (prompts.length === 0 || prompts.length > MAX_ASSISTANT_PROMPTS) return 'invalid';
  if (prompts.some((p) => p.length > MAX_ASSISTANT_PROMPT_LENGTH)) return 'invalid';
  return prompts;
}

/** Whether Intl knows the time zone (an IANA name such as Europe/Paris). */
function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** Every environment variable the app reads, in the order the schema lists them. */
export const ENV_VARIABLES: readonly string[] = Object.keys(envSchema.shape);

/** What installing by OAuth takes (Bolt's names, and the key the tokens are sealed with). */
export interface OAuthSettings {
  clientId: string;
  clientSecret: string;
  stateSecret: string;
  /** 32 bytes in base64 (SLACK_TOKEN_KEY). */
  tokenKey: string;
}

/** The app's parsed configuration. */
export interface Config {
  slack: {
    /** The one workspace's bot token (single-token mode); undefined when installed by OAuth. */
    botToken: string | undefined;
    /** Installing by OAuth (SLACK_CLIENT_ID, ...); undefined in single-token mode. */
    oauth: OAuthSettings | undefined;
    signingSecret: string | undefined;
    appToken: string | undefined;
    apiUrl: string | undefined;
    ticketEmoji: string;
    agentEmails: ReadonlySet<string>;
    agentUsergroup: string | undefined;
    channelDesks: ReadonlyMap<string, string>;
    /** Channels' default modes, by channel id; an agent's `/ticket channel` wins over them. */
    channelModes: ReadonlyMap<string, ChannelModeSetting>;
    /**
     * Triage channels that apply until an agent sets otherwise in Slack: desk slug (or `*`, the
     * catch-all) -> channel id.
     */
    deskTriageChannels: ReadonlyMap<string, string>;
    /** How long an auto channel's new message waits before it is filed (its writer may delete it). */
    autoChannelHoldMs: number;
    /** How long after a resolution a direct message asks whether it is about that ticket (0: never). */
    reopenWindowMs: number;
    /** What an agent's reaction on a triage card does, by emoji name (empty: reactions do nothing). */
    triageReactions: ReadonlyMap<string, TriageReactionAction>;
    /** Service-level targets by `desk:priority` (SLA_TARGETS), used when the platform gives none. */
    slaTargets: ServiceTargets;
    /** The fraction of a target's time at which its clock warns (SLA_WARN_AT). */
    slaWarnAt: number;
    /** The on-call user group a breach message mentions, by desk slug (`*`: any desk). */
    deskOncallGroups: ReadonlyMap<string, string>;
    /** The triage channels' morning summary: minutes after midnight in its time zone; unset: off. */
    triageDigest: { minuteOfDay: number; timeZone: string } | undefined;
    /**
     * The AI pane's suggested prompts (ASSISTANT_PROMPTS): undefined draws them from the catalog
     * and the desks; [] shows none.
     */
    assistantPrompts: readonly string[] | undefined;
  };
  serviceDesk: {
    url: string;
    apiKey: string;
    variant: 'a' | 'b';
    dashboardUrl: string | undefined;
    /**
     * The hosts of tickets' dashboard links (SERVICE_DESK_DASHBOARD_HOSTS), whose links posted in
     * Slack unfurl; by default the host of SERVICE_DESK_DASHBOARD_URL, else of SERVICE_DESK_URL.
     */
    dashboardHosts: readonly string[];
    /** The key's rate limits and the share kept for people waiting (the poller never takes it). */
    rateLimits: { perMinute: number; perHour: number; reserve: number };
    /** The secret the platform's webhooks are signed with; unset: no webhook route. */
    webhookSecret: string | undefined;
    /** How the mirror reads changes across tickets. */
    changeFeed: ChangeFeedMode;
  };
  redisUrl: string | undefined;
  /** REDIS_URL names a seed node of a Redis Cluster. */
  redisCluster: boolean;
  /** Prefix of every Redis key, so several deployments can share one Redis. */
  redisKeyPrefix: string;
  port: number;
  /** What this process does; see APP_ROLES. */
  role: AppRole;
  log: { level: (typeof LOG_LEVELS)[number]; pretty: boolean };
}

// Never printed back: tokens and keys, and a Redis URL, which may hold a password.
const SECRET_VARIABLES = new Set([
  'SLACK_BOT_TOKEN',
  'SLACK_CLIENT_SECRET',
  'SLACK_STATE_SECRET',
  'SLACK_TOKEN_KEY',
  'SLACK_SIGNING_SECRET',
  'SLACK_APP_TOKEN',
  'SERVICE_DESK_API_KEY',
  'SERVICE_DESK_WEBHOOK_SECRET',
  'REDIS_URL',
]);

interface Problem {
  name: string;
  message: string;
}

/**
 * The rules that tie variables together. Each runs on the variables it reads whenever those are
 * valid on their own, whatever is wrong elsewhere, so a first run names every problem: a rule
 * that waited for the whole environment to be valid would only speak on the second run.
 */
function crossProblems(env: NodeJS.ProcessEnv): Problem[] {
  const problems: Problem[] = [];
  const split = envSchema.pick({ APP_ROLE: true, REDIS_URL: true }).safeParse(env);
  if (split.success && split.data.APP_ROLE !== 'all' && split.data.REDIS_URL === undefined) {
    problems.push({
      name: 'APP_ROLE',
      message: `is ${split.data.APP_ROLE}, which needs REDIS_URL: web and worker processes share their queue through Redis`,
    });
  }
  problems.push(...installProblems(env));
  const http = envSchema
    .pick({ APP_ROLE: true, SLACK_APP_TOKEN: true, SLACK_SIGNING_SECRET: true })
    .safeParse(env);
  if (
    http.success &&
    http.data.APP_ROLE !== 'worker' &&
    http.data.SLACK_APP_TOKEN === undefined &&
    http.data.SLACK_SIGNING_SECRET === undefined
  ) {
    problems.push({
      name: 'SLACK_SIGNING_SECRET',
      message:
        'is required in HTTP mode: copy it from Basic Information > App Credentials (or set SLACK_APP_TOKEN for Socket Mode)',
    });
  }
  const emoji = envSchema.pick({ TICKET_EMOJI: true, TRIAGE_REACTIONS: true }).safeParse(env);
  if (emoji.success && emoji.data.TRIAGE_REACTIONS.has(emoji.data.TICKET_EMOJI)) {
    problems.push({
      name: 'TRIAGE_REACTIONS',
      message: `uses :${emoji.data.TICKET_EMOJI}:, which is TICKET_EMOJI (it files a message as a ticket): choose another emoji for its action`,
    });
  }
  return problems;
}

const OAUTH_VARIABLES = ['SLACK_CLIENT_ID', 'SLACK_CLIENT_SECRET', 'SLACK_STATE_SECRET'] as const;

/**
 * One way to install: SLACK_BOT_TOKEN (one workspace), or SLACK_CLIENT_ID, SLACK_CLIENT_SECRET
 * and SLACK_STATE_SECRET together (installed by OAuth, into any number of workspaces), which
 * also need SLACK_TOKEN_KEY and HTTP mode. Read from the raw environment: a variable that is
 * set but malformed still counts as set, so the message about the mode is right too.
 */
function installProblems(env: NodeJS.ProcessEnv): Problem[] {
  const isSet = (name: string) => (env[name]?.trim() ?? '') !== '';
  const oauthSet = OAUTH_VARIABLES.filter(isSet);
  if (oauthSet.length === 0) {
    if (isSet('SLACK_BOT_TOKEN')) return [];
    return [
      {
        name: 'SLACK_BOT_TOKEN',
        message:
          'is required: copy the Bot User OAuth Token (xoxb-...) from OAuth & Permissions, or set SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_STATE_SECRET to install the app by OAuth',
      },
    ];
  }
  const problems: Problem[] = [];
  for (const name of OAUTH_VARIABLES.filter((n) => !isSet(n))) {
    problems.push({
      name,
      message: `is required to install by OAuth (${oauthSet.join(', ')} ${oauthSet.length === 1 ? 'is' : 'are'} set): ${name === 'SLACK_STATE_SECRET' ? 'set 16 or more random characters, e.g. openssl rand -hex 16' : 'copy it from Basic Information > App Credentials'}`,
    });
  }
  if (isSet('SLACK_BOT_TOKEN')) {
    problems.push({
      name: 'SLACK_BOT_TOKEN',
      message:
        'must be unset when the app is installed by OAuth (SLACK_CLIENT_ID...): each workspace’s token comes from its installation; unset the OAuth variables instead to keep one workspace',
    });
  }
  if (!isSet('SLACK_TOKEN_KEY')) {
    problems.push({
      name: 'SLACK_TOKEN_KEY',
      message:
        'is required to install by OAuth: 32 random bytes in base64 that encrypt the installations’ tokens at rest, e.g. openssl rand -base64 32 (keep it: another key cannot read them back)',
    });
  }
  if (isSet('SLACK_APP_TOKEN')) {
    problems.push({
      name: 'SLACK_APP_TOKEN',
      message:
        'must be unset when the app is installed by OAuth: installing takes HTTP mode (/slack/install and /slack/oauth_redirect)',
    });
  }
  return problems;
}

/** The value as typed, for a message about a variable that is not secret; else nothing. */
function shownValue(name: string, message: string, env: NodeJS.ProcessEnv): string {
  const raw = env[name]?.trim();
  // A message that quotes the part at fault (a list's bad item) needs no second quote.
  if (!raw || SECRET_VARIABLES.has(name) || message.includes('"')) return '';
  const value = raw.length > 80 ? `${raw.slice(0, 80)}…` : raw;
  return ` (got ${JSON.stringify(value)})`;
}

/** Parses the environment once; throws ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  const own: Problem[] = parsed.success
    ? []
    : parsed.error.issues.map((issue) => {
        const name = String(issue.path[0] ?? 'environment');
        return { name, message: `${issue.message}${shownValue(name, issue.message, env)}` };
      });
  const problems = [...own, ...crossProblems(env)];
  if (!parsed.success || problems.length > 0) {
    // In the order .env.example lists them, so the message reads like the file being fixed.
    const order = (p: Problem) => ENV_VARIABLES.indexOf(p.name);
    throw new ConfigError(
      problems.sort((a, b) => order(a) - order(b)).map((p) => `${p.name} ${p.message}`),
    );
  }
  const e = parsed.data;
  return {
    slack: {
      botToken: e.SLACK_BOT_TOKEN,
      oauth:
        e.SLACK_CLIENT_ID && e.SLACK_CLIENT_SECRET && e.SLACK_STATE_SECRET && e.SLACK_TOKEN_KEY
          ? {
              clientId: e.SLACK_CLIENT_ID,
              clientSecret: e.SLACK_CLIENT_SECRET,
              stateSecret: e.SLACK_STATE_SECRET,
              tokenKey: e.SLACK_TOKEN_KEY,
            }
          : undefined,
      signingSecret: e.SLACK_SIGNING_SECRET,
      appToken: e.SLACK_APP_TOKEN,
      apiUrl: e.SLACK_API_URL,
      ticketEmoji: e.TICKET_EMOJI,
      agentEmails: new Set(e.AGENT_EMAILS.map((a) => a.toLowerCase())),
      agentUsergroup: e.SLACK_AGENT_USERGROUP,
      channelDesks: e.CHANNEL_DESKS,
      channelModes: e.CHANNEL_MODES,
      deskTriageChannels: e.DESK_TRIAGE_CHANNELS,
      autoChannelHoldMs: Math.round(e.CHANNEL_AUTO_HOLD_SECONDS * 1000),
      reopenWindowMs: e.REOPEN_WINDOW,
      triageReactions: e.TRIAGE_REACTIONS,
      slaTargets: e.SLA_TARGETS,
      slaWarnAt: e.SLA_WARN_AT,
      deskOncallGroups: e.DESK_ONCALL_GROUPS,
      triageDigest:
        e.TRIAGE_DIGEST_AT === undefined
          ? undefined
          : { minuteOfDay: e.TRIAGE_DIGEST_AT, timeZone: e.TRIAGE_DIGEST_TZ },
      assistantPrompts: e.ASSISTANT_PROMPTS,
    },
    serviceDesk: {
      url: e.SERVICE_DESK_URL,
      apiKey: e.SERVICE_DESK_API_KEY,
      variant: e.SERVICE_DESK_VARIANT,
      dashboardUrl: e.SERVICE_DESK_DASHBOARD_URL,
      dashboardHosts:
        e.SERVICE_DESK_DASHBOARD_HOSTS.length > 0
          ? e.SERVICE_DESK_DASHBOARD_HOSTS
          : [new URL(e.SERVICE_DESK_DASHBOARD_URL ?? e.SERVICE_DESK_URL).hostname.toLowerCase()],
      rateLimits: {
        perMinute: e.SERVICE_DESK_RATE_PER_MINUTE,
        perHour: e.SERVICE_DESK_RATE_PER_HOUR,
        reserve: e.SERVICE_DESK_RATE_RESERVE,
      },
      webhookSecret: e.SERVICE_DESK_WEBHOOK_SECRET,
      changeFeed: e.SERVICE_DESK_CHANGE_FEED,
    },
    redisUrl: e.REDIS_URL,
    redisCluster: e.REDIS_CLUSTER,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    port: e.PORT,
    role: e.APP_ROLE,
    log: { level: e.LOG_LEVEL, pretty: e.LOG_PRETTY },
  };
}

/**
 * Reads a `.env` file in the working directory into `process.env` when there is one; a variable
 * already set in the environment wins over it. Used instead of Node's --env-file-if-exists,
 * which tells everyone without a .env ".env not found", as though something were wrong.
 */
export function loadDotEnv(path = '.env'): boolean {
  if (!existsSync(path)) return false;
  process.loadEnvFile(path);
  return true;
}

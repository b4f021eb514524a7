/**
 * The app's configuration, parsed once from the environment. Every problem names the variable
 * and says how to fix it, so a bad deploy fails at start with one readable message instead of
 * at the first Slack request.
 */
import { z } from 'zod';

/** Raised when the environment does not describe a runnable app; lists every problem at once. */
export class ConfigError extends Error {
  /** Machine-readable code, as every error class of the project has. */
  readonly code = 'config_invalid';
  /** One line per problem, each naming its variable. */
  readonly problems: string[];

  constructor(problems: string[]) {
    super(`Configuration is not valid:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

// An empty variable is treated as unset: `FOO=` in a .env file or compose file means "no value".
const optional = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const httpUrl = (example: string) =>
  z
    .string({ error: `is required: set it to a URL such as ${example}` })
    .trim()
    .min(1, `is required: set it to a URL such as ${example}`)
    .refine((v) => /^https?:\/\/[^\s]+$/.test(v) && URL.canParse(v), {
      error: `must be an http(s) URL such as ${example}`,
    });

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

// A positive whole number with a default; the reason says where the default comes from.
const wholeNumber = (fallback: number, why: string) =>
  optional
    .transform((v) => (v === undefined ? fallback : Number(v)))
    .pipe(
      z
        .number()
        .int({ error: `must be a whole number (${why})` })
        .min(1, { error: `must be 1 or more (${why})` }),
    );

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * What one process does: everything (`all`), only answer Slack and queue its requests (`web`),
 * or only run the queued requests and the mirror (`worker`).
 */
export const APP_ROLES = ['all', 'web', 'worker'] as const;
/** One of `APP_ROLES`. */
export type AppRole = (typeof APP_ROLES)[number];

const envSchema = z
  .object({
    SLACK_BOT_TOKEN: z
      .string({
        error: 'is required: copy the Bot User OAuth Token (xoxb-...) from OAuth & Permissions',
      })
      .trim()
      .regex(/^xoxb-/, {
        error: 'must be a bot token starting with xoxb- (OAuth & Permissions page)',
      }),
    SLACK_SIGNING_SECRET: optional,
    SLACK_APP_TOKEN: optional.refine((v) => v === undefined || v.startsWith('xapp-'), {
      error:
        'must be an app-level token starting with xapp- (Basic Information > App-Level Tokens, scope connections:write), or unset for HTTP mode',
    }),
    SLACK_API_URL: optionalHttpUrl('http://127.0.0.1:4020/api/'),
    SERVICE_DESK_URL: httpUrl('https://acme.servicedesk.example'),
    SERVICE_DESK_API_KEY: z
      .string({
        error: 'is required: create a Read+Write access key in the platform dashboard settings',
      })
      .trim()
      .min(1, {
        error: 'is required: create a Read+Write access key in the platform dashboard settings',
      }),
    SERVICE_DESK_VARIANT: optional
      .transform((v) => v?.toLowerCase() ?? 'a')
      .pipe(z.enum(['a', 'b'], { error: 'must be a (per-organization host) or b (shared host)' })),
    SERVICE_DESK_DASHBOARD_URL: optionalHttpUrl('https://acme.servicedesk.example'),
    SERVICE_DESK_RATE_PER_MINUTE: wholeNumber(100, 'the platform allows 100 a minute per key'),
    SERVICE_DESK_RATE_PER_HOUR: wholeNumber(1000, 'the platform allows 1,000 an hour per key'),
    SERVICE_DESK_RATE_RESERVE: optional
      .transform((v) => (v === undefined ? 0.2 : Number(v)))
      .pipe(
        z
          .number({ error: 'must be a fraction from 0 to 0.9, e.g. 0.2 for 20%' })
          .min(0, { error: 'must be a fraction from 0 to 0.9, e.g. 0.2 for 20%' })
          .max(0.9, { error: 'must be a fraction from 0 to 0.9, e.g. 0.2 for 20%' }),
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
    PORT: optional
      .transform((v) => (v === undefined ? 3000 : Number(v)))
      .pipe(
        z
          .number()
          .int({ error: 'must be a whole number between 0 and 65535' })
          .min(0, { error: 'must be a whole number between 0 and 65535' })
          .max(65535, { error: 'must be a whole number between 0 and 65535' }),
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
    AGENT_EMAILS: list.pipe(
      z.array(z.email({ error: 'must be a comma-separated list of email addresses' })),
    ),
    SLACK_AGENT_USERGROUP: optional.refine((v) => v === undefined || /^S[A-Z0-9]+$/.test(v), {
      error: 'must be a user group id such as S0123ABCD (not its @handle)',
    }),
    CHANNEL_DESKS: list.transform((pairs, ctx) => {
      const map = new Map<string, string>();
      for (const pair of pairs) {
        const match = /^([CGD][A-Z0-9]+)=([a-z0-9][a-z0-9_-]*)$/i.exec(pair);
        if (!match) {
          ctx.addIssue({
            code: 'custom',
            message: `has "${pair}": write channel id=desk slug pairs, e.g. C0123ABCD=it,C0456EFGH=hr`,
          });
          continue;
        }
        map.set((match[1] as string).toUpperCase(), match[2] as string);
      }
      return map;
    }),
  })
  .superRefine((env, ctx) => {
    if (env.APP_ROLE !== 'all' && env.REDIS_URL === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['APP_ROLE'],
        message: `is ${env.APP_ROLE}, which needs REDIS_URL: web and worker processes share their queue through Redis`,
      });
    }
    if (
      env.APP_ROLE !== 'worker' &&
      env.SLACK_APP_TOKEN === undefined &&
      env.SLACK_SIGNING_SECRET === undefined
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['SLACK_SIGNING_SECRET'],
        message:
          'is required in HTTP mode: copy it from Basic Information > App Credentials (or set SLACK_APP_TOKEN for Socket Mode)',
      });
    }
  });

/** Every environment variable the app reads, in the order the schema lists them. */
export const ENV_VARIABLES: readonly string[] = Object.keys(envSchema.shape);

/** The app's parsed configuration. */
export interface Config {
  slack: {
    botToken: string;
    signingSecret: string | undefined;
    appToken: string | undefined;
    apiUrl: string | undefined;
    ticketEmoji: string;
    agentEmails: ReadonlySet<string>;
    agentUsergroup: string | undefined;
    channelDesks: ReadonlyMap<string, string>;
  };
  serviceDesk: {
    url: string;
    apiKey: string;
    variant: 'a' | 'b';
    dashboardUrl: string | undefined;
    /** The key's rate limits and the share kept for people waiting (the poller never takes it). */
    rateLimits: { perMinute: number; perHour: number; reserve: number };
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

/** Parses the environment once; throws ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? 'environment');
      // Never echo a value back: some of these variables are secrets.
      return `${name} ${issue.message}`;
    });
    throw new ConfigError(problems);
  }
  const e = parsed.data;
  return {
    slack: {
      botToken: e.SLACK_BOT_TOKEN,
      signingSecret: e.SLACK_SIGNING_SECRET,
      appToken: e.SLACK_APP_TOKEN,
      apiUrl: e.SLACK_API_URL,
      ticketEmoji: e.TICKET_EMOJI,
      agentEmails: new Set(e.AGENT_EMAILS.map((a) => a.toLowerCase())),
      agentUsergroup: e.SLACK_AGENT_USERGROUP,
      channelDesks: e.CHANNEL_DESKS,
    },
    serviceDesk: {
      url: e.SERVICE_DESK_URL,
      apiKey: e.SERVICE_DESK_API_KEY,
      variant: e.SERVICE_DESK_VARIANT,
      dashboardUrl: e.SERVICE_DESK_DASHBOARD_URL,
      rateLimits: {
        perMinute: e.SERVICE_DESK_RATE_PER_MINUTE,
        perHour: e.SERVICE_DESK_RATE_PER_HOUR,
        reserve: e.SERVICE_DESK_RATE_RESERVE,
      },
    },
    redisUrl: e.REDIS_URL,
    redisCluster: e.REDIS_CLUSTER,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    port: e.PORT,
    role: e.APP_ROLE,
    log: { level: e.LOG_LEVEL, pretty: e.LOG_PRETTY },
  };
}

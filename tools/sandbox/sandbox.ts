/**
 * The sandbox: the whole app with no Slack workspace and no platform tenant. The emulator plays
 * the platform, the Slack double plays Slack, and the real app (built by the same runtime as in
 * production, in HTTP mode) sits between them, receiving the signed requests Slack would send
 * under Slack's 3 s ack and retry rules. The simulator page lets a visitor be a Slack user on
 * one side and an agent on the platform on the other.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { pino } from 'pino';
import { loadConfig } from '../../src/config.ts';
import { WEBHOOK_PATH } from '../../src/mirror/index.ts';
import { createRedisClient } from '../../src/ops/redis-client.ts';
import { createRuntime } from '../../src/runtime.ts';
import type { SlackApp } from '../../src/slack/create-slack-app.ts';
import type { DigestOutcome, DigestRun } from '../../src/slack/triage/triage-digest.ts';
import { createMemoryStores, createRedisStores } from '../../src/store/index.ts';
import type { RateBudgetLimits } from '../../src/store/types.ts';
import {
  DEMO_KEYS,
  type EmulatorModel,
  type RunningEmulator,
  startEmulator,
} from '../emulator/index.ts';
import {
  defaultIds,
  defaultWorkspaceSeed,
  type SlackDouble,
  SlackDriver,
  startSlackDouble,
} from '../slack-double/index.ts';
import { type AppProfile, loadAppProfile } from './app-manifest.ts';
import { RevisionFeed } from './revision-feed.ts';
import { SimulatorActions } from './simulator-actions.ts';
import { startSimulatorServer } from './simulator-server.ts';
import {
  buildSnapshot,
  type Notice,
  platformFingerprint,
  type VisitorIdentity,
} from './simulator-state.ts';

/** How to start the sandbox; everything has a default. */
export interface SandboxOptions {
  /** The simulator's port; 0 (any free port) by default. `npm run sandbox` passes PORT. */
  port?: number;
  /** The simulator's address; loopback by default. */
  host?: string;
  /** A Redis for the app's stores; the embedded in-memory store when absent. */
  redisUrl?: string | undefined;
  /** The app's logger; silent by default. */
  logger?: Logger;
  /** How long the platform's AI agent takes to answer; the emulator's 1.5 s by default. */
  aiDelayMs?: number;
  /** Waits before Slack's event retries; Slack's own (0 s, 1 min, 5 min) by default. */
  eventRetryDelaysMs?: readonly number[];
  /** How long Slack waits for the app's ack; 3 s, as Slack. */
  ackTimeoutMs?: number;
  /** Where the manifest is; the repository's `manifest.yml` by default. */
  manifestUrl?: URL | string;
}

/** A running sandbox. */
export interface RunningSandbox {
  /** The one URL a visitor opens. */
  url: string;
  emulator: RunningEmulator;
  double: SlackDouble;
  driver: SlackDriver;
  slack: SlackApp;
  profile: AppProfile;
  /** Which store the app runs on. */
  store: 'memory' | 'redis';
  /** The Redis key prefix of this run (deleted on close); undefined with the in-memory store. */
  redisPrefix: string | undefined;
  /** Stops everything it started, in order; safe to call twice. */
  close(): Promise<void>;
}

/** The platform tenant the sandbox plays. */
export const SANDBOX_TENANT = 'acme';
/** The platform desk #it-help files to. */
export const SANDBOX_DESK = 'it';

/**
 * #laptop-help: a request channel (CHANNEL_MODES auto), where every new message a person writes
 * becomes a ticket on the IT desk, answered in its thread.
 */
export const SANDBOX_REQUEST_CHANNEL = 'C0LAPTOP';

/**
 * #it-triage: the IT desk's triage channel and the catch-all (DESK_TRIAGE_CHANNELS), private to
 * the app and Sam Rivera, where each new ticket (IT's, its subdesks', or on no desk yet) gets a
 * card and its conversation in the card's thread.
 */
export const SANDBOX_TRIAGE_CHANNEL = 'C0ITTRIAGE';

/** The people a visitor can be: two employees and the IT agent. */
export const SANDBOX_IDENTITIES: readonly VisitorIdentity[] = [
  { userId: defaultIds.alice, role: 'employee' },
  { userId: defaultIds.bob, role: 'employee' },
  { userId: defaultIds.agent, role: 'agent' },
];

/** The emoji whose reaction files a message as a ticket, as the app is configured here. */
export const SANDBOX_TICKET_EMOJI = 'ticket';

/**
 * The sandbox tenant's rate limits, three times a standard tenant's (100 a minute, 1,000 an
 * hour): a visitor or a browser test files tickets in bursts, and each new ticket's triage card
 * reads it once more; at the standard limits a burst of twenty leaves the mirror's background
 * share spent and its looks deferred to the next minute. The app's budget is told the same.
 */
export const SANDBOX_RATE_LIMITS = { perMinute: 300, perHour: 3_000 } as const;

const AGENT_EMAILS = new Set(['sam.rivera@acme.example']);
const CHANNELS = [
  defaultIds.itHelp,
  SANDBOX_REQUEST_CHANNEL,
  defaultIds.general,
  SANDBOX_TRIAGE_CHANNEL,
];
const NOTICES_KEPT = 20;

/** Starts the platform, Slack, the app and the simulator page; resolves once all listen. */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const logger = options.logger ?? pino({ level: 'silent' });
  const profile = await loadAppProfile(options.manifestUrl);
  const stack: (() => Promise<void>)[] = [];
  const closeAll = async () => {
    for (const stop of stack.reverse()) await stop().catch(() => undefined);
    stack.length = 0;
  };
  try {
    const emulator = await startEmulator({
      ...(options.aiDelayMs !== undefined ? { aiDelayMs: options.aiDelayMs } : {}),
      // The demo keys whatever EMULATOR_KEYS says: the sandbox is always acme.
      keys: DEMO_KEYS,
      ratePerMinute: SANDBOX_RATE_LIMITS.perMinute,
      ratePerHour: SANDBOX_RATE_LIMITS.perHour,
    });
    stack.push(() => emulator.close());
    const seed = defaultWorkspaceSeed();
    const laptopHelp = {
      id: SANDBOX_REQUEST_CHANNEL,
      name: 'laptop-help',
      members: [defaultIds.bot, ...SANDBOX_IDENTITIES.map((identity) => identity.userId)],
    };
    const itTriage = {
      id: SANDBOX_TRIAGE_CHANNEL,
      name: 'it-triage',
      isPrivate: true,
      members: [defaultIds.bot, defaultIds.agent],
    };
    const double = await startSlackDouble({
      seed: { channels: [...seed.channels, laptopHelp, itTriage] },
    });
    stack.push(() => double.close());
    addSlackPeopleToPlatform(double, emulator.model);
    for (const identity of SANDBOX_IDENTITIES) double.workspace.openIm(identity.userId);

    const signingSecret = randomBytes(24).toString('hex');
    // Push on by default: the platform calls the app's webhook route as a real tenant's
    // automation rule would; the platform panel turns it off to show the app without it.
    const webhookSecret = randomBytes(24).toString('hex');
    // Configured as production is, through the same settings and the same runtime.
    const config = loadConfig({
      SLACK_BOT_TOKEN: defaultIds.botToken,
      SLACK_SIGNING_SECRET: signingSecret,
      SLACK_API_URL: double.apiUrl,
      SERVICE_DESK_URL: emulator.url,
      SERVICE_DESK_API_KEY: 'sd_acme_rw',
      SERVICE_DESK_WEBHOOK_SECRET: webhookSecret,
      AGENT_EMAILS: [...AGENT_EMAILS].join(','),
      CHANNEL_DESKS: `${defaultIds.itHelp}=${SANDBOX_DESK},${SANDBOX_REQUEST_CHANNEL}=${SANDBOX_DESK}`,
      CHANNEL_MODES: `${SANDBOX_REQUEST_CHANNEL}=auto`,
      // #it-triage is the catch-all too: a ticket filed on no desk (a DM, a message shortcut)
      // gets its card there, as do the subdesks' (it-hardware, it-access) through their parent.
      DESK_TRIAGE_CHANNELS: `${SANDBOX_DESK}=${SANDBOX_TRIAGE_CHANNEL},*=${SANDBOX_TRIAGE_CHANNEL}`,
      TICKET_EMOJI: SANDBOX_TICKET_EMOJI,
      SERVICE_DESK_RATE_PER_MINUTE: String(SANDBOX_RATE_LIMITS.perMinute),
      SERVICE_DESK_RATE_PER_HOUR: String(SANDBOX_RATE_LIMITS.perHour),
      PORT: '0',
    });
    // The stores get what the runtime would give its own: the budget and the triage channel.
    const { stores, store, prefix, closeStores } = await openStores(options.redisUrl, logger, {
      budget: config.serviceDesk.rateLimits,
      triageDefaults: config.slack.deskTriageChannels,
    });
    stack.push(closeStores);
    const runtime = createRuntime(config, logger, { stores, processMetrics: false });
    const slack = runtime.slack;
    const appPort = await runtime.start();
    stack.push(() => runtime.stop());
    emulator.setWebhooks({
      url: `http://127.0.0.1:${appPort}${WEBHOOK_PATH}`,
      secret: webhookSecret,
      enabled: true,
      // A new ticket is announced, as a tenant's rule on ticket creation would: its triage card
      // follows within seconds, with no scan of the platform.
      announceCreated: true,
    });
    let webhooksOn = true;

    const ackTimeoutMs = options.ackTimeoutMs ?? 3_000;
    const driver = new SlackDriver({
      appUrl: `http://127.0.0.1:${appPort}/slack/events`,
      signingSecret,
      double,
      requestTimeoutMs: ackTimeoutMs,
      simulateSlackRetries: {
        timeoutMs: ackTimeoutMs,
        ...(options.eventRetryDelaysMs ? { delaysMs: options.eventRetryDelaysMs } : {}),
      },
    });
    stack.push(() => driver.close());

    const feed = new RevisionFeed();
    const notices: Notice[] = [];
    let nextNotice = 1;
    const actions = new SimulatorActions({
      double,
      driver,
      model: emulator.model,
      tenant: SANDBOX_TENANT,
      profile,
      identities: SANDBOX_IDENTITIES,
      changed: () => feed.changed(),
      setWebhooks: (enabled) => {
        webhooksOn = enabled;
        emulator.setWebhooks({ enabled });
      },
      sendDigest: async () => {
        const run = await slack.digest?.sendNow();
        if (!run) return 'No morning summary is set (TRIAGE_DIGEST_AT=off).';
        return digestOutcome(run, (channel) => double.workspace.conversation(channel)?.name);
      },
      notify: (text, userId) => {
        notices.push({ id: nextNotice++, userId, text, at: Date.now() });
        if (notices.length > NOTICES_KEPT) notices.shift();
        feed.changed();
      },
    });
    stack.push(() => actions.settle());
    const unsubscribers = [
      double.onActivity(() => feed.changed()),
      emulator.model.onEvent(() => feed.changed()),
    ];
    // A ticket's status or assignee changes without a model event; the mirror's reads must not
    // count as changes, so the tickets themselves are compared.
    let lastPlatform = platformFingerprint(emulator.model, SANDBOX_TENANT);
    const watch = setInterval(() => {
      const now = platformFingerprint(emulator.model, SANDBOX_TENANT);
      if (now !== lastPlatform) feed.changed();
      lastPlatform = now;
    }, 250);
    stack.push(async () => {
      clearInterval(watch);
      for (const unsubscribe of unsubscribers) unsubscribe();
    });

    const server = await startSimulatorServer({
      host: options.host ?? '127.0.0.1',
      port: options.port ?? 0,
      feed,
      actions,
      model: emulator.model,
      snapshot: (as, ticketId) => {
        const me = SANDBOX_IDENTITIES.find((i) => i.userId === as)?.userId ?? defaultIds.alice;
        return buildSnapshot(
          {
            workspace: double.workspace,
            model: emulator.model,
            tenant: SANDBOX_TENANT,
            profile,
            identities: SANDBOX_IDENTITIES,
            channels: CHANNELS,
            revision: feed.revision,
            notices,
            webhooks: webhooksOn,
          },
          me,
          ticketId,
        );
      },
    });
    stack.push(() => server.close());
    // "Open in dashboard" leads to the simulator's copy of the platform's ticket page, so the
    // visitor needs one URL only.
    emulator.model.setPublicUrl(`${server.url}/platform`);
    // The admin's step: the dashboard's host in the manifest's unfurl_domains, so a ticket's
    // link posted in the sandbox unfurls (the app's SERVICE_DESK_DASHBOARD_HOSTS default is the
    // platform's host, the same loopback host here).
    double.workspace.setUnfurlDomains([new URL(server.url).hostname]);

    let closing: Promise<void> | undefined;
    return {
      url: server.url,
      emulator,
      double,
      driver,
      slack,
      profile,
      store,
      redisPrefix: prefix,
      close() {
        closing ??= closeAll();
        return closing;
      },
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}

/**
 * Puts the Slack people the platform does not know into its directory, as one company's people
 * are in both: the platform then names their messages and changes as Slack names them, where
 * it would otherwise show a bare email.
 */
function addSlackPeopleToPlatform(double: SlackDouble, model: EmulatorModel): void {
  for (const user of double.workspace.users()) {
    const email = user.profile.email?.trim().toLowerCase();
    if (user.is_bot || user.deleted || !email) continue;
    if (model.findEmployee(SANDBOX_TENANT, email)) continue;
    model.addEmployee(SANDBOX_TENANT, {
      id: `emp_slack_${user.id}`,
      email,
      name: user.real_name || user.name,
      department: null,
      role: AGENT_EMAILS.has(email) ? 'agent' : 'employee',
    });
    // Everyone has a device, so the create form's "Affected device" has something to offer.
    SANDBOX_DEVICES.forEach(([name, type], index) => {
      model.addAsset(SANDBOX_TENANT, {
        id: `ast_slack_${user.id}_${index + 1}`,
        name,
        type,
        serial_number: `SN-${user.id.slice(-4).toUpperCase()}-${index + 1}`,
        assigned_to_email: email,
      });
    });
  }
}

/** The devices each Slack person the sandbox adds to the platform is given. */
const SANDBOX_DEVICES: readonly (readonly [string, string])[] = [
  ['MacBook Pro 14"', 'laptop'],
  ['Dell UltraSharp 27"', 'monitor'],
];

async function openStores(
  redisUrl: string | undefined,
  logger: Logger,
  defaults: { budget: RateBudgetLimits; triageDefaults: ReadonlyMap<string, string> },
) {
  if (!redisUrl) {
    return {
      stores: createMemoryStores(defaults),
      store: 'memory' as const,
      prefix: undefined,
      closeStores: async () => undefined,
    };
  }
  const redis = createRedisClient(redisUrl, { logger });
  // Each run keys its own data: the emulator starts afresh, so last run's links would be stale.
  const prefix = `sandbox:${randomUUID()}:`;
  return {
    stores: createRedisStores({ redis, prefix, ...defaults }),
    store: 'redis' as const,
    prefix,
    closeStores: async () => {
      let cursor = '0';
      let rounds = 0;
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
        cursor = next;
        if (keys.length > 0) await redis.del(...keys);
        rounds += 1;
      } while (cursor !== '0' && rounds < 10_000);
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

/** What the "Send today's digest now" button did, in words, channel by channel. */
function digestOutcome(run: DigestRun, nameOf: (channel: string) => string | undefined): string {
  if (run.channels.length === 0) return 'No triage channel to send a morning summary to.';
  const words: Record<DigestOutcome, string> = {
    posted: 'posted now',
    found: 'posted already today',
    done: 'had today’s already (one a day per channel)',
    withheld: 'none: it is not a private channel the app is in',
    waiting: 'waiting: Slack or the platform budget asked the app to wait',
  };
  return run.channels
    .map(({ channel, outcome }) => `#${nameOf(channel) ?? channel}: ${words[outcome]}`)
    .join('; ');
}

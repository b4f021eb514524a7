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
  secondIds,
  startSlackDouble,
  type Workspace,
} from '../slack-double/index.ts';
import { type AppProfile, loadAppProfile } from './app-manifest.ts';
import { installIntoWorkspace, organizationOAuthSettings } from './organization-install.ts';
import { RevisionFeed } from './revision-feed.ts';
import { type ActionWorkspace, SimulatorActions } from './simulator-actions.ts';
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
  /**
   * An Enterprise Grid organization of two workspaces (Acme and Acme EU), the app installed by
   * OAuth into both at start; one workspace and one bot token (SLACK_BOT_TOKEN) otherwise.
   */
  organization?: boolean;
}

/** One of the sandbox's Slack workspaces, with the driver that plays its people. */
export interface SandboxWorkspace {
  workspace: Workspace;
  driver: SlackDriver;
  /** The channels the page lists, in order (a person sees those they are in). */
  channels: readonly string[];
}

/** A running sandbox. */
export interface RunningSandbox {
  /** The one URL a visitor opens. */
  url: string;
  emulator: RunningEmulator;
  double: SlackDouble;
  /** The first workspace's driver (Acme's). */
  driver: SlackDriver;
  /** Every workspace the page can show: Acme, and Acme EU in an organization. */
  workspaces: readonly SandboxWorkspace[];
  /** Whether the app is installed by OAuth into an organization's workspaces. */
  organization: boolean;
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

/** The people of the organization's second workspace a visitor can be (Acme EU's Elsa). */
export const SANDBOX_SECOND_IDENTITIES: readonly VisitorIdentity[] = [
  { userId: secondIds.elsa, role: 'employee' },
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
/** Acme EU's channels as the page lists them; channels the double gives it later follow. */
const SECOND_CHANNELS = [secondIds.euHelp];
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
    const organization = options.organization === true;
    const double = await startSlackDouble({
      seed: { channels: [...seed.channels, laptopHelp, itTriage] },
      ...(organization ? { organization: {} } : {}),
    });
    stack.push(() => double.close());
    for (const workspace of double.workspaces) {
      addSlackPeopleToPlatform(workspace, emulator.model);
      for (const identity of identitiesOf(workspace)) workspace.openIm(identity.userId);
    }

    const signingSecret = randomBytes(24).toString('hex');
    // Push on by default: the platform calls the app's webhook route as a real tenant's
    // automation rule would; the platform panel turns it off to show the app without it.
    const webhookSecret = randomBytes(24).toString('hex');
    // Configured as production is, through the same settings and the same runtime.
    const config = loadConfig({
      // An organization installs by OAuth, each workspace's token from its installation.
      ...(organization ? organizationOAuthSettings() : { SLACK_BOT_TOKEN: defaultIds.botToken }),
      SLACK_SIGNING_SECRET: signingSecret,
      SLACK_API_URL: double.apiUrl,
      SERVICE_DESK_URL: emulator.url,
      SERVICE_DESK_API_KEY: 'sd_acme_rw',
      SERVICE_DESK_WEBHOOK_SECRET: webhookSecret,
      AGENT_EMAILS: [...AGENT_EMAILS].join(','),
      // Acme EU's #eu-help files to the IT desk too (channel ids are the organization's).
      CHANNEL_DESKS: [
        `${defaultIds.itHelp}=${SANDBOX_DESK}`,
        `${SANDBOX_REQUEST_CHANNEL}=${SANDBOX_DESK}`,
        ...(organization ? [`${secondIds.euHelp}=${SANDBOX_DESK}`] : []),
      ].join(','),
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
    const appUrl = `http://127.0.0.1:${appPort}`;
    if (organization) {
      double.oauth.redirectUrl = `${appUrl}/slack/oauth_redirect`;
      // As each workspace's admin would: "Add to Slack", approve, and back to the app.
      for (const workspace of double.workspaces) {
        await installIntoWorkspace(appUrl, workspace.team.id);
      }
    }
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
    // Each workspace's people are played by a driver of their own (their team in each request).
    const played = (workspace: Workspace, channels: readonly string[]): SandboxWorkspace => {
      const driver = new SlackDriver({
        appUrl: `${appUrl}/slack/events`,
        signingSecret,
        double,
        workspace,
        requestTimeoutMs: ackTimeoutMs,
        simulateSlackRetries: {
          timeoutMs: ackTimeoutMs,
          ...(options.eventRetryDelaysMs ? { delaysMs: options.eventRetryDelaysMs } : {}),
        },
      });
      stack.push(() => driver.close());
      return { workspace, driver, channels };
    };
    const first = played(double.workspace, CHANNELS);
    const others = double.workspaces
      .slice(1)
      .map((workspace) => played(workspace, channelsOf(workspace, SECOND_CHANNELS)));
    const workspaces = [first, ...others];
    const driver = first.driver;

    const feed = new RevisionFeed();
    const notices: Notice[] = [];
    let nextNotice = 1;
    const actions = new SimulatorActions({
      double,
      workspaces: [actedIn(first), ...others.map(actedIn)],
      model: emulator.model,
      tenant: SANDBOX_TENANT,
      profile,
      changed: () => feed.changed(),
      setWebhooks: (enabled) => {
        webhooksOn = enabled;
        emulator.setWebhooks({ enabled });
      },
      sendDigest: async () => {
        const run = await slack.digest?.sendNow();
        if (!run) return 'No morning summary is set (TRIAGE_DIGEST_AT=off).';
        return digestOutcome(run, (channel) =>
          double.workspaces.map((each) => each.conversation(channel)?.name).find(Boolean),
        );
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
      snapshot: (as, ticketId, team) => {
        const shown = workspaces.find((each) => each.workspace.team.id === team) ?? first;
        const identities = identitiesOf(shown.workspace);
        // A person of the workspace shown stays; anyone else becomes its first person.
        const me = (identities.find((i) => i.userId === as) ?? identities[0])?.userId ?? '';
        return buildSnapshot(
          {
            workspace: shown.workspace,
            workspaces: double.workspaces.map((each) => ({
              id: each.team.id,
              name: each.team.name,
              identities: identitiesOf(each).map((identity) => identity.userId),
            })),
            elsewhere: double.workspaces.filter((each) => each !== shown.workspace),
            model: emulator.model,
            tenant: SANDBOX_TENANT,
            profile,
            identities,
            channels: shown.channels,
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
    for (const workspace of double.workspaces) {
      workspace.setUnfurlDomains([new URL(server.url).hostname]);
    }

    let closing: Promise<void> | undefined;
    return {
      url: server.url,
      emulator,
      double,
      driver,
      workspaces,
      organization,
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
function addSlackPeopleToPlatform(workspace: Workspace, model: EmulatorModel): void {
  for (const user of workspace.users()) {
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

/** The people of a workspace a visitor can be, in the order the page offers them. */
function identitiesOf(workspace: Workspace): VisitorIdentity[] {
  return [...SANDBOX_IDENTITIES, ...SANDBOX_SECOND_IDENTITIES].filter(
    (identity) => workspace.user(identity.userId) !== undefined,
  );
}

/** A workspace as the page's actions need it: its driver and whom a visitor can be there. */
function actedIn({ workspace, driver }: SandboxWorkspace): ActionWorkspace {
  return { workspace, driver, identities: identitiesOf(workspace) };
}

/** The channels of a workspace the page lists: those named first, then any others it has. */
function channelsOf(workspace: Workspace, named: readonly string[]): string[] {
  const people = [workspace.botUserId, ...identitiesOf(workspace).map((i) => i.userId)];
  const others = people
    .flatMap((userId) => workspace.conversationsOf(userId))
    .filter((c) => !c.isIm && !c.isMpim && !named.includes(c.id))
    .map((c) => c.id);
  return [
    ...new Set([...named.filter((id) => workspace.conversation(id) !== undefined), ...others]),
  ];
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

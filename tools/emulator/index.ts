/**
 * The service-desk platform emulator: a real HTTP server (node:http) implementing the platform
 * API as docs/platform-contract.md describes it, under variant A or B, with a simulated AI agent,
 * per-key rate limits, fault injection, and the contract's optional capabilities (`updated_at`
 * and `updated_after`, outgoing webhooks). Tests, benchmarks and the sandbox start it with
 * `startEmulator`; people run it with `npm run emulator`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Variant } from '../../src/contract/routes.ts';
import { AiAgent } from './ai-agent.ts';
import { EmulatorConfigError } from './errors.ts';
import { FaultInjector, type FaultSettings } from './faults.ts';
import { type AccessKey, keysFromEnv } from './keys.ts';
import { EmulatorModel, type ModelCapabilities, resolveCapabilities } from './model.ts';
import { seededRandom } from './random.ts';
import { RateLimiter } from './rate-limiter.ts';
import { type Now, realTimers, type Scheduler } from './scheduler.ts';
import { applySeed, type SeedKind } from './seed.ts';
import { createRequestHandler } from './server.ts';
import { type WebhookOptions, WebhookSender, type WebhookSettings } from './webhooks.ts';

export { AiAgent } from './ai-agent.ts';
export * from './errors.ts';
export type { Fault, FaultSettings } from './faults.ts';
export {
  type AccessKey,
  DEMO_KEYS,
  describeKey,
  type KeyRole,
  keysFromEnv,
  parseKeys,
} from './keys.ts';
export {
  EmulatorModel,
  type KnowledgeArticle,
  type ModelCapabilities,
  type ModelEvent,
  type TenantSetup,
  type TicketField,
  type TicketQuery,
} from './model.ts';
export type { Cancel, Now, Scheduler } from './scheduler.ts';
export { bulkSeedTickets, type SeedKind } from './seed.ts';
export {
  DEFAULT_WEBHOOK_SETTINGS,
  type WebhookAttempt,
  type WebhookDelivery,
  type WebhookDeliveryState,
  type WebhookEventType,
  type WebhookOptions,
  type WebhookRequest,
  WebhookSender,
  type WebhookSettings,
  type WebhookStats,
  type WebhookTransport,
  webhookHeaders,
} from './webhooks.ts';

/** Options of `startEmulator`; every one has a default. */
export interface EmulatorOptions {
  /** Port to listen on; 0 (default) picks a free one. */
  port?: number;
  /** Address to listen on; default 127.0.0.1 (loopback only). */
  host?: string;
  /** Addressing variant; default `a`. */
  variant?: Variant;
  /** Initial data; default `demo`. */
  seed?: SeedKind;
  /** Requests per key per minute; default 100 (docs/platform-contract.md, "Behaviour"). */
  ratePerMinute?: number;
  /** Requests per key per hour; default 1,000 (docs/platform-contract.md, "Behaviour"). */
  ratePerHour?: number;
  /** Delay before the AI agent acts; default 1,500 ms. */
  aiDelayMs?: number;
  /** Fraction of requests that fail (500, 503, dropped connection); default 0. */
  faultRate?: number;
  /** Milliseconds added to every request; default 0. */
  latencyMs?: number;
  /** Access keys; default EMULATOR_KEYS from `env`, else the demo keys. */
  keys?: readonly AccessKey[];
  /** Where EMULATOR_KEYS is read from; default process.env. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Now of the model and the rate limiter; default Date.now. */
  now?: Now;
  /** Scheduler of the AI agent's delayed work; default real timers. */
  scheduler?: Scheduler;
  /** Seed of the fault-injection random source (requests and webhooks); default 1. */
  randomSeed?: number;
  /**
   * Optional capabilities; default all on (the best case, which the sandbox shows).
   * `updatedAfter` defaults to `updatedAt`, so `{ updatedAt: false }` plays a platform with
   * neither.
   */
  capabilities?: Partial<ModelCapabilities>;
  /** Outgoing webhooks; default none (they can be configured later with `setWebhooks`). */
  webhook?: WebhookOptions;
}

/** A running emulator. */
export interface RunningEmulator {
  /** Base URL, e.g. `http://127.0.0.1:43123` (add the variant's paths to it). */
  url: string;
  variant: Variant;
  keys: readonly AccessKey[];
  model: EmulatorModel;
  agent: AiAgent;
  /** The webhook sender: `deliveries()` and `stats()` say what was sent and how it went. */
  webhooks: WebhookSender;
  /** Changes fault injection at runtime; `down: true` answers every request 503. */
  setFaults(change: Partial<FaultSettings>): void;
  /** Changes webhook settings at runtime; `{ enabled: false }` stops sending at once. */
  setWebhooks(change: Partial<WebhookSettings>): void;
  /** Stops listening, closes keep-alive sockets, cancels pending AI work and webhooks. */
  close(): Promise<void>;
}

/** What `createPlatform` needs: the model's clock, data and capabilities, the AI agent's timing. */
export interface PlatformOptions {
  tenants: readonly string[];
  seed?: SeedKind;
  now?: Now;
  scheduler?: Scheduler;
  aiDelayMs?: number;
  /** Default both on; see `EmulatorOptions.capabilities`. */
  capabilities?: Partial<ModelCapabilities>;
  /** Default none; a simulated-clock run passes an in-process `transport`. */
  webhook?: WebhookOptions;
  /** Seed of the webhook fault draws unless `webhook.seed` says; default 1. */
  randomSeed?: number;
}

/** The platform without HTTP: its model, AI agent and webhook sender. */
export interface Platform {
  model: EmulatorModel;
  agent: AiAgent;
  webhooks: WebhookSender;
}

/**
 * The platform without HTTP: a seeded model, its AI agent and its webhook sender. Benchmarks
 * on a simulated clock drive this directly; `startEmulator` puts HTTP in front of it.
 */
export function createPlatform(options: PlatformOptions): Platform {
  const now = options.now ?? Date.now;
  const scheduler = options.scheduler ?? realTimers;
  const model = new EmulatorModel(now, options.capabilities);
  applySeed(model, options.seed ?? 'demo', options.tenants);
  const agent = new AiAgent({ model, scheduler, delayMs: options.aiDelayMs ?? 1500 });
  const { seed, transport, ...settings } = options.webhook ?? {};
  const webhooks = new WebhookSender({
    model,
    now,
    scheduler,
    // A stream of its own: turning webhooks on does not change which requests fault.
    random: seededRandom((seed ?? options.randomSeed ?? 1) ^ WEBHOOK_STREAM),
    settings,
    ...(transport ? { transport } : {}),
  });
  return { model, agent, webhooks };
}

// Mixed into the webhook seed so its draws differ from the request faults' at the same seed.
const WEBHOOK_STREAM = 0x5eed_4b1d;

/** Starts the emulator and resolves once it listens. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const settings = resolveOptions(options);
  const { model, agent, webhooks } = createPlatform({
    tenants: settings.keys.map((key) => key.tenant),
    seed: settings.seed,
    now: settings.now,
    scheduler: settings.scheduler,
    aiDelayMs: settings.aiDelayMs,
    capabilities: settings.capabilities,
    randomSeed: settings.randomSeed,
    ...(options.webhook ? { webhook: options.webhook } : {}),
  });
  const faults = new FaultInjector(
    { faultRate: settings.faultRate, latencyMs: settings.latencyMs, down: false },
    seededRandom(settings.randomSeed),
  );
  const limiter = new RateLimiter(
    { perMinute: settings.ratePerMinute, perHour: settings.ratePerHour },
    settings.now,
  );
  const closing = new AbortController();
  const server = createServer(
    createRequestHandler({
      model,
      variant: settings.variant,
      keys: settings.keys,
      limiter,
      faults,
      closing: closing.signal,
    }),
  );

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(settings.port, settings.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    agent.stop();
    webhooks.close();
    throw error;
  }
  const address = server.address() as AddressInfo;
  const url = `http://${urlHost(settings.host)}:${address.port}`;
  model.setPublicUrl(url);

  let closed: Promise<void> | undefined;
  return {
    url,
    variant: settings.variant,
    keys: settings.keys,
    model,
    agent,
    webhooks,
    setFaults: (change) => faults.update(change),
    setWebhooks: (change) => webhooks.update(change),
    close() {
      closed ??= new Promise<void>((resolve) => {
        agent.stop();
        webhooks.close();
        closing.abort();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closed;
    },
  };
}

type ResolvedOptions = Required<Omit<EmulatorOptions, 'env' | 'keys' | 'webhook'>> & {
  keys: readonly AccessKey[];
};

function resolveOptions(options: EmulatorOptions): ResolvedOptions {
  const resolved: ResolvedOptions = {
    port: options.port ?? 0,
    host: options.host ?? '127.0.0.1',
    variant: options.variant ?? 'a',
    seed: options.seed ?? 'demo',
    ratePerMinute: options.ratePerMinute ?? 100,
    ratePerHour: options.ratePerHour ?? 1000,
    aiDelayMs: options.aiDelayMs ?? 1500,
    faultRate: options.faultRate ?? 0,
    latencyMs: options.latencyMs ?? 0,
    keys: options.keys ?? keysFromEnv(options.env ?? process.env),
    now: options.now ?? Date.now,
    scheduler: options.scheduler ?? realTimers,
    randomSeed: options.randomSeed ?? 1,
    capabilities: resolveCapabilities(options.capabilities ?? {}),
  };
  if (resolved.variant !== 'a' && resolved.variant !== 'b')
    throw new EmulatorConfigError('variant must be a or b');
  if (resolved.seed !== 'demo' && resolved.seed !== 'empty')
    throw new EmulatorConfigError('seed must be demo or empty');
  for (const [name, value] of [
    ['ratePerMinute', resolved.ratePerMinute],
    ['ratePerHour', resolved.ratePerHour],
  ] as const) {
    if (!Number.isInteger(value) || value < 1)
      throw new EmulatorConfigError(`${name} must be a whole number, 1 or more`);
  }
  if (!Number.isInteger(resolved.port) || resolved.port < 0 || resolved.port > 65_535) {
    throw new EmulatorConfigError('port must be a whole number from 0 to 65535');
  }
  if (!Number.isFinite(resolved.aiDelayMs) || resolved.aiDelayMs < 0) {
    throw new EmulatorConfigError('aiDelayMs must be a number of milliseconds, 0 or more');
  }
  if (resolved.keys.length === 0)
    throw new EmulatorConfigError('at least one access key is needed');
  return resolved;
}

// An IPv6 literal needs brackets in a URL.
function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

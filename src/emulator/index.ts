/**
 * The service-desk platform emulator: a real HTTP server (node:http) implementing the platform
 * API as docs/api-contract.md describes it, under variant A or B, with a simulated AI agent,
 * per-key rate limits and fault injection. Tests, benchmarks and the sandbox start it with
 * `startEmulator`; people run it with `npm run emulator`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Variant } from '../servicedesk/routes.ts';
import { AiAgent } from './ai-agent.ts';
import { ConfigError } from './errors.ts';
import { FaultInjector, type FaultSettings } from './faults.ts';
import { type AccessKey, keysFromEnv } from './keys.ts';
import { EmulatorModel } from './model.ts';
import { seededRandom } from './random.ts';
import { RateLimiter } from './rate-limiter.ts';
import { type Clock, realTimers, type Scheduler } from './scheduler.ts';
import { applySeed, type SeedKind } from './seed.ts';
import { createRequestHandler } from './server.ts';

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
  type ModelEvent,
  type TenantSetup,
  type TicketQuery,
} from './model.ts';
export type { Cancel, Clock, Scheduler } from './scheduler.ts';
export { bulkSeedTickets, type SeedKind } from './seed.ts';

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
  /** Requests per key per minute; default 100 (spec §8). */
  ratePerMinute?: number;
  /** Requests per key per hour; default 1,000 (spec §8). */
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
  /** Clock of the model and the rate limiter; default Date.now. */
  now?: Clock;
  /** Scheduler of the AI agent's delayed work; default real timers. */
  scheduler?: Scheduler;
  /** Seed of the fault-injection random source; default 1. */
  randomSeed?: number;
}

/** A running emulator. */
export interface RunningEmulator {
  /** Base URL, e.g. `http://127.0.0.1:43123` (add the variant's paths to it). */
  url: string;
  variant: Variant;
  keys: readonly AccessKey[];
  model: EmulatorModel;
  agent: AiAgent;
  /** Changes fault injection at runtime; `down: true` answers every request 503. */
  setFaults(change: Partial<FaultSettings>): void;
  /** Stops listening, closes keep-alive sockets and cancels pending AI work. */
  close(): Promise<void>;
}

/** What `createPlatform` needs: the model's clock and data, and the AI agent's timing. */
export interface PlatformOptions {
  tenants: readonly string[];
  seed?: SeedKind;
  now?: Clock;
  scheduler?: Scheduler;
  aiDelayMs?: number;
}

/**
 * The platform without HTTP: a seeded model and its AI agent. Benchmarks on a simulated clock
 * drive this directly; `startEmulator` puts HTTP in front of it.
 */
export function createPlatform(options: PlatformOptions): { model: EmulatorModel; agent: AiAgent } {
  const model = new EmulatorModel(options.now ?? Date.now);
  applySeed(model, options.seed ?? 'demo', options.tenants);
  const agent = new AiAgent({
    model,
    scheduler: options.scheduler ?? realTimers,
    delayMs: options.aiDelayMs ?? 1500,
  });
  return { model, agent };
}

/** Starts the emulator and resolves once it listens. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const settings = resolveOptions(options);
  const { model, agent } = createPlatform({
    tenants: settings.keys.map((key) => key.tenant),
    seed: settings.seed,
    now: settings.now,
    scheduler: settings.scheduler,
    aiDelayMs: settings.aiDelayMs,
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

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(settings.port, settings.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
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
    setFaults: (change) => faults.update(change),
    close() {
      closed ??= new Promise<void>((resolve) => {
        agent.stop();
        closing.abort();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closed;
    },
  };
}

type ResolvedOptions = Required<Omit<EmulatorOptions, 'env' | 'keys'>> & {
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
  };
  if (resolved.variant !== 'a' && resolved.variant !== 'b')
    throw new ConfigError('variant must be a or b');
  if (resolved.seed !== 'demo' && resolved.seed !== 'empty')
    throw new ConfigError('seed must be demo or empty');
  for (const [name, value] of [
    ['ratePerMinute', resolved.ratePerMinute],
    ['ratePerHour', resolved.ratePerHour],
  ] as const) {
    if (!Number.isInteger(value) || value < 1)
      throw new ConfigError(`${name} must be a whole number, 1 or more`);
  }
  if (!Number.isInteger(resolved.port) || resolved.port < 0 || resolved.port > 65_535) {
    throw new ConfigError('port must be a whole number from 0 to 65535');
  }
  if (!Number.isFinite(resolved.aiDelayMs) || resolved.aiDelayMs < 0) {
    throw new ConfigError('aiDelayMs must be a number of milliseconds, 0 or more');
  }
  if (resolved.keys.length === 0) throw new ConfigError('at least one access key is needed');
  return resolved;
}

// An IPv6 literal needs brackets in a URL.
function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

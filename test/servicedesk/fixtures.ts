/** Shared set-up of the client tests: a MockAgent, a fake clock and recorded waits. */
import { type Interceptable, MockAgent, type MockCallHistoryLog } from 'undici';
import { ServiceDeskClient, type ServiceDeskClientOptions } from '../../src/servicedesk/index.ts';

/** Base URL of the mocked tenant. */
export const BASE = 'https://acme.desk.example';
/** An access key distinctive enough to search for in logs and errors. */
export const KEY = 'sdk_live_7f3Q9xK2mZ8vB4nR1tY6';
/** Start of the fake clock: a whole second, so HTTP dates round-trip exactly. */
export const T0 = 1_767_225_600_000;

/** A ticket as the platform returns it. */
export function ticket(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'IT-42',
    title: 'VPN is down',
    status: 'open',
    priority: 'high',
    created_at: '2026-01-01T00:00:00Z',
    ...overrides,
  };
}

/** A list envelope. */
export function envelope(items: unknown[], total: number | null = items.length) {
  return { items, total_count: total };
}

/** Everything a client test needs; `close()` releases the MockAgent. */
export interface Harness {
  agent: MockAgent;
  pool: Interceptable;
  client: ServiceDeskClient;
  clock: { now: number };
  /** Every wait the client asked for, in order. */
  sleeps: number[];
  calls(): MockCallHistoryLog[];
  close(): Promise<void>;
}

/** A client on a MockAgent with instant, recorded sleeps and a clock the sleeps advance. */
export function harness(options: Partial<ServiceDeskClientOptions> = {}): Harness {
  const agent = new MockAgent({ enableCallHistory: true });
  agent.disableNetConnect();
  const clock = { now: T0 };
  const sleeps: number[] = [];
  const client = new ServiceDeskClient({
    baseUrl: BASE,
    apiKey: KEY,
    dispatcher: agent,
    random: () => 0.5,
    now: () => clock.now,
    sleep: async (ms, signal) => {
      signal?.throwIfAborted();
      sleeps.push(ms);
      clock.now += ms;
    },
    ...options,
  });
  const origin = new URL(options.baseUrl ?? BASE).origin;
  return {
    agent,
    pool: agent.get(origin),
    client,
    clock,
    sleeps,
    calls: () => agent.getCallHistory()?.calls() ?? [],
    close: () => agent.close(),
  };
}

/** The rejection of a promise, failing the test when it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

/** Every item of an async iterable. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

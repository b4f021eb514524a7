/**
 * Shared helpers of the emulator tests: a tiny fetch client, a bounded poll, hand-run clocks
 * and schedulers, and a loopback webhook receiver.
 */

import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type OperationName, ROUTES, routePath } from '../../src/contract/routes.ts';
import {
  type EmulatorOptions,
  type RunningEmulator,
  startEmulator,
} from '../../tools/emulator/index.ts';

/** A response with its JSON body (or undefined when the body was not JSON). */
export interface ApiResponse<T> {
  status: number;
  headers: Headers;
  body: T;
}

/** Options of one call. */
export interface CallOptions {
  key?: string | null;
  body?: unknown;
  /** Sent as is, instead of `body` as JSON. */
  rawBody?: string;
  headers?: Record<string, string>;
  query?: Record<string, string>;
  ticketId?: string;
}

/** Starts an emulator for a test; the AI agent is kept out of the way unless asked for. */
export function emulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  return startEmulator({ aiDelayMs: 3_600_000, env: {}, ...options });
}

/** Calls one operation of the route table on a running emulator. */
export async function call<T = unknown>(
  emu: RunningEmulator,
  operation: OperationName,
  options: CallOptions = {},
): Promise<ApiResponse<T>> {
  const path = routePath(emu.variant, operation, options.ticketId);
  return callPath<T>(emu, ROUTES[operation].method, path, options);
}

/** Calls any method and path (for unknown paths and wrong methods). */
export async function callPath<T = unknown>(
  emu: RunningEmulator,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<ApiResponse<T>> {
  const url = new URL(emu.url + path);
  for (const [name, value] of Object.entries(options.query ?? {}))
    url.searchParams.set(name, value);
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  const key = options.key === undefined ? 'sd_acme_rw' : options.key;
  if (key !== null) headers.Authorization = `AccessKey ${key}`;
  let body: string | undefined = options.rawBody;
  if (body === undefined && options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['Content-Type'] = 'application/json';
  }
  const response = await fetch(url, { method, headers, body });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = text;
  }
  return { status: response.status, headers: response.headers, body: parsed as T };
}

/** Polls `probe` until it returns a value other than undefined; fails after `timeoutMs`. */
export async function eventually<T>(
  probe: () => T | undefined,
  timeoutMs = 5_000,
  everyMs = 10,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** The shape of a FastAPI 422 body. */
export interface ValidationBody {
  detail: Array<{ loc: Array<string | number>; msg: string; type: string }>;
}

/** A scheduler the test runs by hand: nothing happens until `runAll`. */
export class ManualScheduler {
  readonly #tasks = new Map<number, () => void>();
  #next = 0;

  schedule(_delayMs: number, task: () => void): () => void {
    const id = this.#next++;
    this.#tasks.set(id, task);
    return () => this.#tasks.delete(id);
  }

  /** Number of tasks waiting. */
  get pending(): number {
    return this.#tasks.size;
  }

  /** Runs every waiting task (and any they schedule), a bounded number of rounds. */
  runAll(): void {
    for (let round = 0; round < 10 && this.#tasks.size > 0; round += 1) {
      const tasks = [...this.#tasks.values()];
      this.#tasks.clear();
      for (const task of tasks) task();
    }
  }
}

/** A clock the test moves by hand. */
export class ManualClock {
  ms: number;

  constructor(start: number) {
    this.ms = start;
  }

  readonly now = (): number => this.ms;

  advance(ms: number): void {
    this.ms += ms;
  }
}

/** One request a test receiver got. */
export interface ReceivedRequest {
  /** Arrival, real epoch ms. */
  atMs: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** What a test receiver answers: a status, or `hang` to never answer. */
export type ReceiverAnswer = number | 'hang';

/** A real loopback HTTP server standing in for the app's webhook endpoint. */
export interface Receiver {
  url: string;
  received: ReceivedRequest[];
  close(): Promise<void>;
}

/** Starts a receiver on loopback; `answer` decides the reply to the n-th request (from 0). */
export async function startReceiver(
  answer: (index: number) => ReceiverAnswer = () => 200,
): Promise<Receiver> {
  const received: ReceivedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const index = received.length;
      received.push({
        atMs: Date.now(),
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const reply = answer(index);
      if (reply === 'hang') return;
      res.writeHead(reply, { 'Content-Type': 'text/plain' });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/servicedesk/webhook`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * A scheduler on a manual clock that runs one task at a time, in time order, moving the clock
 * to each task's time: a test steps through retries and timeouts exactly, without waiting.
 */
export class TimelineScheduler {
  readonly clock: ManualClock;
  readonly #tasks = new Map<number, { at: number; task: () => void }>();
  #next = 0;

  constructor(clock: ManualClock) {
    this.clock = clock;
  }

  schedule(delayMs: number, task: () => void): () => void {
    const id = this.#next++;
    this.#tasks.set(id, { at: this.clock.ms + delayMs, task });
    return () => this.#tasks.delete(id);
  }

  /** Number of tasks waiting. */
  get pending(): number {
    return this.#tasks.size;
  }

  /** Delay of the earliest task from now, or undefined when none waits. */
  get nextInMs(): number | undefined {
    const earliest = this.#earliest();
    return earliest && earliest[1].at - this.clock.ms;
  }

  /** Moves the clock to the earliest task and runs it; false when none waits. */
  runNext(): boolean {
    const earliest = this.#earliest();
    if (!earliest) return false;
    const [id, { at, task }] = earliest;
    this.#tasks.delete(id);
    this.clock.ms = Math.max(this.clock.ms, at);
    task();
    return true;
  }

  #earliest(): [number, { at: number; task: () => void }] | undefined {
    let found: [number, { at: number; task: () => void }] | undefined;
    for (const entry of this.#tasks) if (!found || entry[1].at < found[1].at) found = entry;
    return found;
  }
}

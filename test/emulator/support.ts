/** Shared helpers of the emulator tests: a tiny fetch client and a bounded poll. */

import {
  type EmulatorOptions,
  type RunningEmulator,
  startEmulator,
} from '../../src/emulator/index.ts';
import { type OperationName, ROUTES, routePath } from '../../src/servicedesk/routes.ts';

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

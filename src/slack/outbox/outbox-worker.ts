/**
 * The outbox worker: takes durable intents from the outbox and performs them, retrying with
 * backoff until they succeed or fail for good, and then telling the person. Several workers
 * (in one process or across replicas) share one outbox safely: each entry is leased to one.
 * A process that only answers Slack never starts the loops; it still runs what it `submit`s.
 */

import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { backoffMs } from '../../backoff.ts';
import { sleep } from '../../clock.ts';
import type { EnqueueOutcome, JsonValue, Outbox, ReservedEntry } from '../../store/types.ts';
import type { ErrorReporter } from '../app/background-tasks.ts';
import type { IntentSubmitter, Settlement } from '../deps.ts';
import { UnknownIntentError } from '../errors.ts';
import { isAppRefusal, isExpected, isRefusal, isTransient, retryAtOf } from './transient-errors.ts';

/** What a handler learns about the person waiting on an entry. */
export interface FailureContext {
  /** True when a Slack request in this process is waiting to show the outcome itself. */
  awaited: boolean;
}

/** Performs one kind of intent. */
export interface IntentHandler {
  /** Does the write; the result is remembered against the delivery key for 24 h. */
  run(entry: ReservedEntry): Promise<JsonValue>;
  /** Tells the person the write failed for good (with what they wrote, so nothing is lost). */
  failed(entry: ReservedEntry, error: unknown, context: FailureContext): Promise<void>;
  /** Tells the person, once, that the platform is not answering and the write will be retried. */
  delayed?(entry: ReservedEntry, error: unknown, context: FailureContext): Promise<void>;
  /** What the entry is about (ticket_id, channel, thread_ts), added to every log line of it. */
  logFields?(entry: ReservedEntry, result?: JsonValue): Record<string, unknown>;
}

/** How an entry's attempt ended, as waiters see it. */
export type { Settlement };

/** Options of the worker. */
export interface OutboxWorkerOptions {
  outbox: Outbox;
  handlers: Readonly<Record<string, IntentHandler>>;
  logger: Logger;
  report: ErrorReporter;
  workerId?: string;
  /** Entries worked on at once; one slow platform call must not hold up every other person. */
  concurrency?: number;
  /** Lease per attempt; longer than the client's own deadline so a live attempt keeps it. */
  leaseMs?: number;
  /** Wait between polls when the outbox is empty (an entry the outbox announces cuts it short). */
  idleMs?: number;
  /**
   * How long entries the outbox announces are gathered before the loops look (default 250 ms):
   * one look per window, not one per entry, keeps background work off every Slack ack
   * (`npm run bench:ack`: p50 2.7 ms taken one by one, 0.6 ms gathered).
   */
  gatherMs?: number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** After this long an entry that keeps failing is given up and the person told. */
  maxAgeMs?: number;
  now?: () => number;
  random?: () => number;
}

/** Runs outbox entries until stopped. */
export class OutboxWorker implements IntentSubmitter {
  readonly #o: Required<Omit<OutboxWorkerOptions, 'handlers' | 'outbox' | 'logger' | 'report'>>;
  readonly #outbox: Outbox;
  readonly #handlers: Readonly<Record<string, IntentHandler>>;
  readonly #logger: Logger;
  readonly #report: ErrorReporter;
  readonly #waiters = new Map<string, Set<(s: Settlement) => void>>();
  readonly #loops = new Set<Promise<void>>();
  // Entries submitted in this process and still being worked on.
  readonly #submitted = new Set<Promise<void>>();
  #running = false;
  #unwatch: (() => Promise<void>) | undefined;
  readonly #sleepers = new Set<() => void>();
  // A wake that came while every loop was busy: the next idle returns at once instead of losing it.
  #wakePending = false;
  #gathering: NodeJS.Timeout | undefined;

  constructor(options: OutboxWorkerOptions) {
    this.#outbox = options.outbox;
    this.#handlers = options.handlers;
    this.#logger = options.logger.child({ component: 'outbox-worker' });
    this.#report = options.report;
    this.#o = {
      workerId: options.workerId ?? `worker-${randomUUID().slice(0, 8)}`,
      concurrency: options.concurrency ?? 4,
      leaseMs: options.leaseMs ?? 60_000,
      idleMs: options.idleMs ?? 500,
      gatherMs: options.gatherMs ?? 250,
      backoffBaseMs: options.backoffBaseMs ?? 1_000,
      backoffMaxMs: options.backoffMaxMs ?? 5 * 60_000,
      maxAgeMs: options.maxAgeMs ?? 24 * 60 * 60_000,
      now: options.now ?? Date.now,
      random: options.random ?? Math.random,
    };
  }

  /** Starts the worker's loops, woken by every new due entry the outbox announces. */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#unwatch = this.#outbox.watch(() => this.#wake());
    for (let i = 0; i < this.#o.concurrency; i++) {
      const loop = this.#loop();
      this.#loops.add(loop);
      void loop.finally(() => this.#loops.delete(loop));
    }
  }

  /**
   * Stops taking entries and waits for the ones under way (submitted ones included);
   * unfinished ones stay in the outbox.
   */
  async stop(): Promise<void> {
    this.#running = false;
    clearTimeout(this.#gathering);
    this.#gathering = undefined;
    for (const sleeper of [...this.#sleepers]) sleeper();
    const unwatch = this.#unwatch;
    this.#unwatch = undefined;
    await Promise.allSettled([...this.#loops, ...this.#submitted, unwatch?.()]);
  }

  /**
   * Makes an intent durable, leased to this worker, and runs it here at once, ahead of any
   * backlog and whether or not the loops run. For a Slack request that can still show the
   * outcome itself (a modal's field errors): resolves with the enqueue's outcome and, when the
   * entry settles within `waitMs`, its settlement. The work goes on after that; should this
   * process die first, the lease lapses and another worker takes the entry.
   */
  async submit(
    deliveryKey: string,
    kind: string,
    payload: JsonValue,
    waitMs: number,
  ): Promise<{ outcome: EnqueueOutcome; settled?: Settlement }> {
    const outcome = await this.#outbox.enqueue(deliveryKey, kind, payload, {
      leaseTo: { workerId: this.#o.workerId, leaseMs: this.#o.leaseMs },
    });
    if (!outcome.enqueued || !outcome.reserved) return { outcome };
    // The waiter first, so the handler knows someone is there to show a failure.
    const settlement = this.#waitFor(deliveryKey, waitMs);
    const work = this.#process(outcome.reserved).catch((error: unknown) =>
      // The store failed while recording the outcome; the lease lapses and it is tried again.
      this.#report(error, { task: 'outbox-submitted', entry_id: outcome.id, kind }),
    );
    this.#submitted.add(work);
    void work.finally(() => this.#submitted.delete(work));
    const settled = await settlement;
    return settled ? { outcome, settled } : { outcome };
  }

  // Has the idle loops look at the outbox once the gathering window closes. Taken at once, each
  // entry's work (the platform, Slack, Redis) would start while its own ack is being written.
  #wake(): void {
    if (this.#gathering) return;
    this.#gathering = setTimeout(() => {
      this.#gathering = undefined;
      if (this.#sleepers.size === 0) this.#wakePending = true;
      for (const sleeper of [...this.#sleepers]) sleeper();
    }, this.#o.gatherMs);
  }

  // The next settlement of a delivery key in this process, for at most `timeoutMs`.
  #waitFor(deliveryKey: string, timeoutMs: number): Promise<Settlement | undefined> {
    return new Promise((resolve) => {
      const waiters = this.#waiters.get(deliveryKey) ?? new Set();
      this.#waiters.set(deliveryKey, waiters);
      const done = (s: Settlement | undefined) => {
        clearTimeout(timer);
        waiters.delete(done);
        if (waiters.size === 0) this.#waiters.delete(deliveryKey);
        resolve(s);
      };
      const timer = setTimeout(() => done(undefined), timeoutMs);
      waiters.add(done);
    });
  }

  /** Runs at most one due entry now; returns whether there was one. Tests and benches use it. */
  async runOnce(): Promise<boolean> {
    const entry = await this.#outbox.reserve(this.#o.workerId, this.#o.leaseMs);
    if (!entry) return false;
    await this.#process(entry);
    return true;
  }

  async #loop(): Promise<void> {
    while (this.#running) {
      let worked = false;
      try {
        worked = await this.runOnce();
      } catch (error) {
        // The store itself failed (Redis down): report it and keep polling, slower.
        this.#report(error, { task: 'outbox-reserve' });
      }
      if (!worked && this.#running) await this.#idle();
    }
  }

  async #idle(): Promise<void> {
    if (this.#wakePending) {
      this.#wakePending = false;
      return;
    }
    const wake = new AbortController();
    const finish = () => wake.abort();
    this.#sleepers.add(finish);
    try {
      await sleep(this.#o.idleMs, wake.signal);
    } catch {
      // Woken by new work or by stop().
    } finally {
      this.#sleepers.delete(finish);
    }
  }

  async #process(entry: ReservedEntry): Promise<void> {
    const handler = this.#handlers[entry.kind];
    const bound = logFields(handler, entry);
    const log = this.#logger.child({
      entry_id: entry.id,
      kind: entry.kind,
      attempt: entry.attempts + 1,
      ...bound,
    });
    try {
      if (!handler) throw new UnknownIntentError(entry.kind);
      const result = await handler.run(entry);
      await this.#outbox.complete(entry, result);
      // Only what the run taught (a ticket filed): the child line already names the rest, and a
      // field given twice is written twice.
      const learned = Object.entries(logFields(handler, entry, result)).filter(
        ([key]) => bound[key] === undefined,
      );
      log.info(Object.fromEntries(learned), 'outbox entry done');
      this.#settle(entry.deliveryKey, { state: 'done', result });
    } catch (error) {
      await this.#failed(entry, handler, error, log);
    }
  }

  async #failed(
    entry: ReservedEntry,
    handler: IntentHandler | undefined,
    error: unknown,
    log: Logger,
  ): Promise<void> {
    if (!isExpected(error))
      this.#report(error, { task: 'outbox-entry', entry_id: entry.id, kind: entry.kind });
    const context = { awaited: this.#waiters.has(entry.deliveryKey) };
    const age = this.#o.now() - entry.createdAt;
    if (handler && isTransient(error) && age < this.#o.maxAgeMs) {
      const wait = backoffMs(entry.attempts, {
        baseMs: this.#o.backoffBaseMs,
        maxMs: this.#o.backoffMaxMs,
        jitter: 'full',
        random: this.#o.random,
      });
      const backoff = this.#o.now() + Math.max(250, wait);
      // An error that says when to come back (a spent rate budget) is not tried before then:
      // retrying sooner only spends Redis calls on a refusal known in advance.
      const hinted = retryAtOf(error);
      const nextAttemptAt =
        hinted !== undefined && hinted > backoff
          ? hinted + Math.floor(this.#o.random() * 1_000)
          : backoff;
      await this.#outbox.retryAt(entry, nextAttemptAt, describe(error));
      log.warn(
        { err: error, next_attempt_at: new Date(nextAttemptAt).toISOString() },
        'outbox entry will be retried',
      );
      if (entry.attempts === 0 && handler.delayed) {
        await this.#tell(() => handler.delayed?.(entry, error, context), entry);
      }
      this.#settle(entry.deliveryKey, { state: 'retrying', error, nextAttemptAt });
      return;
    }
    if (handler && isAppRefusal(error)) {
      // Finished with what was decided, so a repeat of the same delivery is not run again.
      const { code, message } = error as Error & { code?: unknown };
      await this.#outbox.complete(entry, { refused: String(code) });
      log.info({ code, reason: message }, 'outbox entry refused; the person is told why');
      await this.#tell(() => handler.failed(entry, error, context), entry);
      this.#settle(entry.deliveryKey, { state: 'failed', error });
      return;
    }
    await this.#outbox.fail(entry, describe(error));
    if (handler && isRefusal(error)) {
      const { code, message } = error as Error & { code?: unknown };
      log.info({ code, reason: message }, 'outbox entry refused; the person is told why');
    } else {
      log.warn({ err: error }, 'outbox entry failed for good');
    }
    if (handler) await this.#tell(() => handler.failed(entry, error, context), entry);
    this.#settle(entry.deliveryKey, { state: 'failed', error });
  }

  // Telling the person is best effort: the entry's state is already recorded.
  async #tell(notify: () => Promise<void> | undefined, entry: ReservedEntry): Promise<void> {
    try {
      await notify();
    } catch (error) {
      this.#report(error, { task: 'outbox-notify', entry_id: entry.id, kind: entry.kind });
    }
  }

  #settle(deliveryKey: string, settlement: Settlement): void {
    for (const waiter of [...(this.#waiters.get(deliveryKey) ?? [])]) waiter(settlement);
  }
}

// A payload too broken to describe still gets its lines logged.
function logFields(
  handler: IntentHandler | undefined,
  entry: ReservedEntry,
  result?: JsonValue,
): Record<string, unknown> {
  try {
    return handler?.logFields?.(entry, result) ?? {};
  } catch {
    return {};
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' ? `${code}: ${error.message}` : error.message;
  }
  return String(error);
}

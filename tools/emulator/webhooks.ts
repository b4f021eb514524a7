/**
 * Outgoing webhooks, as docs/platform-contract.md ("Optional capabilities") describes them: one
 * signed POST per change of a ticket, naming the ticket and never its text, delivered at least
 * once and in no promised order, retried with backoff; plus the faults a real sender shows
 * (lost, late, repeated and reordered deliveries), drawn from a seeded source.
 *
 * Nothing here runs inside an API request: a change only queues a delivery and asks the
 * scheduler for a turn, so a slow, failing or silent receiver never slows or breaks the API.
 * Timers (backoff, timeouts, delays) go through the injected scheduler and time through the
 * injected clock, so a benchmark on a simulated clock drives deliveries without waiting.
 */
import { randomUUID } from 'node:crypto';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { webhookSignature } from '../../src/contract/webhook.ts';
import { EmulatorConfigError } from './errors.ts';
import type { EmulatorModel, ModelEvent } from './model.ts';
import type { Random } from './random.ts';
import type { Cancel, Now, Scheduler } from './scheduler.ts';

/** The kinds of change a webhook announces. */
export type WebhookEventType = 'ticket.created' | 'ticket.message_added' | 'ticket.updated';

/** Webhook settings; every field can change at run time through `setWebhooks`. */
export interface WebhookSettings {
  /** Receiver's address (http or https); nothing is sent while it is undefined. */
  url: string | undefined;
  /** Shared secret: the HMAC key, or the bearer token in `bearer` mode. */
  secret: string;
  /** Sends `Authorization: Bearer <secret>` instead of the timestamp and signature headers. */
  bearer: boolean;
  /** The run-time switch; turning it off abandons every delivery still queued. */
  enabled: boolean;
  /** Only this tenant's tickets; undefined: every tenant's. */
  tenant: string | undefined;
  /**
   * Whether a new ticket is announced (`ticket.created`), as a platform's rule on ticket
   * creation does; off, only changes are (the receiver then learns of new tickets otherwise).
   */
  announceCreated: boolean;
  /** Fraction (0 to 1) of deliveries lost: never sent, never retried. */
  dropRate: number;
  /** Fraction (0 to 1) of deliveries sent a second time (same id) after their first attempt. */
  duplicateRate: number;
  /** Milliseconds between a change and its delivery's first attempt. */
  delayMs: number;
  /** Adds a random 0 to `reorderWindowMs` to each first attempt, so deliveries overtake. */
  reorder: boolean;
  /** Width of the random hold that `reorder` adds. */
  reorderWindowMs: number;
  /** An attempt without a complete answer by then is a failure (and is retried). */
  timeoutMs: number;
  /** Wait before the first retry; each further retry waits twice as long. */
  retryInitialMs: number;
  /** Longest wait between two attempts. */
  retryMaxMs: number;
  /** A delivery is given up once its next attempt would fall later than this after the change. */
  retryForMs: number;
  /** Most deliveries queued or in flight; a new one beyond it evicts the oldest. */
  maxQueue: number;
}

/** How `startEmulator` and `createPlatform` take webhook settings. */
export interface WebhookOptions extends Partial<WebhookSettings> {
  url: string;
  secret: string;
  /** Seed of the fault draws; default the emulator's `randomSeed`. */
  seed?: number;
  /** Sends one request; default real HTTP. A simulated-clock benchmark delivers in process. */
  transport?: WebhookTransport;
}

/** One request of a delivery attempt. */
export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** Sends a request and resolves with the HTTP status; rejects on a network error or abort. */
export type WebhookTransport = (request: WebhookRequest, signal: AbortSignal) => Promise<number>;

/** One attempt of a delivery. */
export interface WebhookAttempt {
  /** When it started, epoch ms on the emulator's clock. */
  atMs: number;
  /** The receiver's HTTP status, when it answered. */
  status?: number;
  /** Why there is no status: no answer in time, a network error, or the queue let it go. */
  error?: 'timeout' | 'network' | 'cancelled';
  /** Wait before the next attempt, when one was scheduled. */
  retryInMs?: number;
}

/** Where a delivery stands. */
export type WebhookDeliveryState =
  | 'pending'
  | 'delivered'
  | 'failed'
  | 'dropped'
  | 'overflow'
  | 'abandoned';

/** The record of one delivery (a duplicate has its own record with the same id). */
export interface WebhookDelivery {
  id: string;
  /** True for the second copy a `duplicateRate` draw sent. */
  duplicate: boolean;
  type: WebhookEventType;
  tenant: string;
  ticketId: string;
  occurredAt: string;
  state: WebhookDeliveryState;
  attempts: WebhookAttempt[];
}

/** Counts since the start. */
export interface WebhookStats {
  /** Deliveries queued or in flight now. */
  pending: number;
  attempts: number;
  delivered: number;
  /** Given up after `retryForMs`. */
  failed: number;
  /** Lost on purpose (`dropRate`). */
  dropped: number;
  /** Second copies sent on purpose (`duplicateRate`). */
  duplicated: number;
  /** Evicted because the queue was full. */
  overflowed: number;
  /** Let go when webhooks were turned off or the emulator closed. */
  abandoned: number;
}

/** Defaults: off until a URL is set; retries like a real sender, for up to a day. */
export const DEFAULT_WEBHOOK_SETTINGS: Readonly<WebhookSettings> = {
  url: undefined,
  secret: '',
  bearer: false,
  enabled: true,
  tenant: undefined,
  announceCreated: false,
  dropRate: 0,
  duplicateRate: 0,
  delayMs: 0,
  reorder: false,
  reorderWindowMs: 1_000,
  timeoutMs: 10_000,
  retryInitialMs: 1_000,
  retryMaxMs: 3_600_000,
  retryForMs: 86_400_000,
  maxQueue: 10_000,
};

/** How many delivery records are kept for `deliveries()` (the oldest go first). */
export const WEBHOOK_RECORDS_KEPT = 10_000;

/** What the sender needs. */
export interface WebhookSenderOptions {
  model: EmulatorModel;
  now: Now;
  scheduler: Scheduler;
  random: Random;
  settings?: Partial<WebhookSettings>;
  transport?: WebhookTransport;
  /** Where an unexpected failure goes; a model listener must never throw into a request. */
  onError?: (error: unknown) => void;
}

interface Pending {
  key: number;
  record: WebhookDelivery;
  body: string;
  createdMs: number;
  /** Whether a second copy follows the first attempt. */
  duplicate: boolean;
  cancelTimer: Cancel | undefined;
  inFlight: AbortController | undefined;
}

/** Turns ticket changes into webhook deliveries; subscribes to the model until `close()`. */
export class WebhookSender {
  #settings: WebhookSettings;
  readonly #now: Now;
  readonly #scheduler: Scheduler;
  readonly #random: Random;
  readonly #transport: WebhookTransport;
  readonly #onError: (error: unknown) => void;
  readonly #agents = {
    http: new HttpAgent({ keepAlive: true }),
    https: new HttpsAgent({ keepAlive: true }),
  };
  readonly #queue = new Map<number, Pending>();
  readonly #records: WebhookDelivery[] = [];
  readonly #unsubscribe: () => void;
  readonly #stats: Omit<WebhookStats, 'pending'> = {
    attempts: 0,
    delivered: 0,
    failed: 0,
    dropped: 0,
    duplicated: 0,
    overflowed: 0,
    abandoned: 0,
  };
  #nextKey = 0;
  #closed = false;

  constructor(options: WebhookSenderOptions) {
    this.#settings = checkedSettings({ ...DEFAULT_WEBHOOK_SETTINGS, ...options.settings });
    this.#now = options.now;
    this.#scheduler = options.scheduler;
    this.#random = options.random;
    this.#transport = options.transport ?? httpTransport(this.#agents);
    this.#onError =
      options.onError ?? ((error) => console.error('emulator webhooks failed:', error));
    this.#unsubscribe = options.model.onEvent((event) => this.#observe(event));
  }

  /** The current settings (the secret included: this is the platform's own side). */
  get settings(): Readonly<WebhookSettings> {
    return this.#settings;
  }

  /** Changes some settings; turning webhooks off (or clearing the URL) abandons the queue. */
  update(change: Partial<WebhookSettings>): void {
    const next = checkedSettings({ ...this.#settings, ...change });
    this.#settings = next;
    if (!sending(next)) this.#abandonAll();
  }

  /** Copies of the delivery records, oldest first (at most `WEBHOOK_RECORDS_KEPT`). */
  deliveries(): WebhookDelivery[] {
    return this.#records.map((record) => ({
      ...record,
      attempts: record.attempts.map((attempt) => ({ ...attempt })),
    }));
  }

  /** Counts since the start. */
  stats(): WebhookStats {
    return { pending: this.#queue.size, ...this.#stats };
  }

  /** Stops listening, abandons the queue, aborts requests in flight and closes sockets. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#unsubscribe();
    this.#abandonAll();
    this.#agents.http.destroy();
    this.#agents.https.destroy();
  }

  #observe(event: ModelEvent): void {
    // A new ticket is announced as such (the contract's `ticket.created`), whoever made it,
    // where the platform's rule says so.
    if (event.type === 'ticket_created' && !this.#settings.announceCreated) return;
    const type =
      event.type === 'ticket_created'
        ? 'ticket.created'
        : event.type === 'message_added'
          ? 'ticket.message_added'
          : 'ticket.updated';
    try {
      this.#enqueue(type, event.tenant, event.ticketId, event.atMs);
    } catch (error) {
      this.#onError(error);
    }
  }

  #enqueue(type: WebhookEventType, tenant: string, ticketId: string, atMs: number): void {
    const settings = this.#settings;
    if (this.#closed || !sending(settings)) return;
    if (settings.tenant !== undefined && settings.tenant !== tenant) return;
    // Three draws for every delivery, used or not, so one rate's setting does not shift the
    // draws of the other faults at the same seed.
    const dropDraw = this.#random();
    const duplicateDraw = this.#random();
    const holdDraw = this.#random();
    const id = `whd_${randomUUID()}`;
    const occurredAt = new Date(atMs).toISOString();
    const body = JSON.stringify({ id, type, ticket_id: ticketId, occurred_at: occurredAt });
    const record: WebhookDelivery = {
      id,
      duplicate: false,
      type,
      tenant,
      ticketId,
      occurredAt,
      state: 'pending',
      attempts: [],
    };
    this.#remember(record);
    if (dropDraw < settings.dropRate) {
      record.state = 'dropped';
      this.#stats.dropped += 1;
      return;
    }
    const hold = settings.reorder ? Math.floor(holdDraw * settings.reorderWindowMs) : 0;
    this.#queueDelivery(
      record,
      body,
      duplicateDraw < settings.duplicateRate,
      settings.delayMs + hold,
    );
  }

  #queueDelivery(record: WebhookDelivery, body: string, duplicate: boolean, delayMs: number): void {
    // Full: the oldest goes, as a bounded real queue would shed it, and the counter says so.
    while (this.#queue.size >= this.#settings.maxQueue) {
      const oldest = this.#queue.values().next().value;
      if (oldest === undefined) break;
      this.#letGo(oldest, 'overflow');
      this.#stats.overflowed += 1;
    }
    const pending: Pending = {
      key: this.#nextKey++,
      record,
      body,
      createdMs: this.#now(),
      duplicate,
      cancelTimer: undefined,
      inFlight: undefined,
    };
    this.#queue.set(pending.key, pending);
    pending.cancelTimer = this.#scheduler.schedule(delayMs, () => this.#attempt(pending));
  }

  #attempt(pending: Pending): void {
    pending.cancelTimer = undefined;
    const settings = this.#settings;
    if (!this.#queue.has(pending.key) || settings.url === undefined) return;
    const atMs = this.#now();
    const attempt: WebhookAttempt = { atMs };
    pending.record.attempts.push(attempt);
    this.#stats.attempts += 1;
    const controller = new AbortController();
    pending.inFlight = controller;
    let settled = false;
    const finish = (status: number | undefined, error: WebhookAttempt['error']) => {
      if (settled) return;
      settled = true;
      cancelTimeout();
      pending.inFlight = undefined;
      if (status !== undefined) attempt.status = status;
      if (error !== undefined) attempt.error = error;
      // Evicted or abandoned meanwhile: its record already says so.
      if (!this.#queue.has(pending.key)) return;
      try {
        this.#afterAttempt(pending, attempt);
      } catch (failure) {
        this.#onError(failure);
      }
    };
    const cancelTimeout = this.#scheduler.schedule(settings.timeoutMs, () => {
      finish(undefined, 'timeout');
      controller.abort();
    });
    const request: WebhookRequest = {
      url: settings.url,
      headers: webhookHeaders(settings, pending.body, atMs),
      body: pending.body,
    };
    send(this.#transport, request, controller.signal).then(
      (status) => finish(status, undefined),
      () => finish(undefined, controller.signal.aborted ? 'cancelled' : 'network'),
    );
  }

  #afterAttempt(pending: Pending, attempt: WebhookAttempt): void {
    const record = pending.record;
    if (pending.duplicate && record.attempts.length === 1) {
      // The copy a sender makes when it lost the receiver's answer: same id, sent again.
      const copy: WebhookDelivery = { ...record, duplicate: true, state: 'pending', attempts: [] };
      this.#remember(copy);
      this.#stats.duplicated += 1;
      this.#queueDelivery(copy, pending.body, false, 0);
    }
    const status = attempt.status;
    if (status !== undefined && status >= 200 && status < 300) {
      record.state = 'delivered';
      this.#stats.delivered += 1;
      this.#queue.delete(pending.key);
      return;
    }
    const settings = this.#settings;
    const waitMs = Math.min(
      settings.retryInitialMs * 2 ** (record.attempts.length - 1),
      settings.retryMaxMs,
    );
    if (this.#now() + waitMs - pending.createdMs > settings.retryForMs) {
      record.state = 'failed';
      this.#stats.failed += 1;
      this.#queue.delete(pending.key);
      return;
    }
    attempt.retryInMs = waitMs;
    pending.cancelTimer = this.#scheduler.schedule(waitMs, () => this.#attempt(pending));
  }

  #letGo(pending: Pending, state: 'overflow' | 'abandoned'): void {
    this.#queue.delete(pending.key);
    pending.cancelTimer?.();
    pending.cancelTimer = undefined;
    pending.inFlight?.abort();
    pending.record.state = state;
  }

  #abandonAll(): void {
    for (const pending of [...this.#queue.values()]) {
      this.#letGo(pending, 'abandoned');
      this.#stats.abandoned += 1;
    }
  }

  #remember(record: WebhookDelivery): void {
    this.#records.push(record);
    if (this.#records.length > WEBHOOK_RECORDS_KEPT) this.#records.shift();
  }
}

/**
 * The headers of one attempt: a fresh timestamp and the HMAC-SHA256 of "<timestamp>.<body>"
 * (receivers refuse stale timestamps, so a retry is signed again), or the fixed bearer token.
 */
export function webhookHeaders(
  settings: Pick<WebhookSettings, 'secret' | 'bearer'>,
  body: string,
  atMs: number,
): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'User-Agent': 'servicedesk-emulator-webhooks/1',
  };
  if (settings.bearer) {
    headers.Authorization = `Bearer ${settings.secret}`;
    return headers;
  }
  // Signed by the contract's one signing function, which the app checks against.
  const timestamp = Math.floor(atMs / 1000);
  headers['X-ServiceDesk-Timestamp'] = String(timestamp);
  headers['X-ServiceDesk-Signature'] = webhookSignature(settings.secret, timestamp, body);
  return headers;
}

function sending(settings: WebhookSettings): boolean {
  return settings.enabled && settings.url !== undefined;
}

// A transport that throws instead of rejecting still counts as a failed attempt.
async function send(
  transport: WebhookTransport,
  request: WebhookRequest,
  signal: AbortSignal,
): Promise<number> {
  return transport(request, signal);
}

/**
 * Real HTTP. Only the status counts, but the answer is read to its end (a receiver that sends
 * headers and then stalls is a timeout, as for a real sender) and the socket is reused.
 */
function httpTransport(agents: { http: HttpAgent; https: HttpsAgent }): WebhookTransport {
  return (request, signal) =>
    new Promise<number>((resolve, reject) => {
      const url = new URL(request.url);
      const secure = url.protocol === 'https:';
      const open = secure ? httpsRequest : httpRequest;
      const req = open(
        url,
        {
          method: 'POST',
          headers: {
            ...request.headers,
            'Content-Length': String(Buffer.byteLength(request.body)),
          },
          agent: secure ? agents.https : agents.http,
          signal,
        },
        (res) => {
          res.on('error', reject);
          res.on('end', () => resolve(res.statusCode ?? 0));
          res.resume();
        },
      );
      req.on('error', reject);
      req.end(request.body);
    });
}

function checkedSettings(settings: WebhookSettings): WebhookSettings {
  const fail = (message: string): never => {
    throw new EmulatorConfigError(`webhook ${message}`);
  };
  if (settings.url !== undefined) {
    let protocol = '';
    try {
      protocol = new URL(settings.url).protocol;
    } catch {
      fail('url must be an absolute http or https URL');
    }
    if (protocol !== 'http:' && protocol !== 'https:') {
      fail('url must be an absolute http or https URL');
    }
    if (settings.secret === '') fail('secret must not be empty');
  }
  for (const name of ['dropRate', 'duplicateRate'] as const) {
    const value = settings[name];
    if (!(Number.isFinite(value) && value >= 0 && value <= 1)) {
      fail(`${name} must be a number from 0 to 1`);
    }
  }
  for (const name of ['delayMs', 'reorderWindowMs', 'retryForMs'] as const) {
    const value = settings[name];
    if (!(Number.isFinite(value) && value >= 0)) {
      fail(`${name} must be a number of milliseconds, 0 or more`);
    }
  }
  // A zero timeout or backoff would retry in a tight loop against a failing receiver.
  for (const name of ['timeoutMs', 'retryInitialMs', 'retryMaxMs'] as const) {
    const value = settings[name];
    if (!(Number.isFinite(value) && value >= 1)) {
      fail(`${name} must be a number of milliseconds, 1 or more`);
    }
  }
  if (settings.retryMaxMs < settings.retryInitialMs) {
    fail('retryMaxMs must not be less than retryInitialMs');
  }
  if (!(Number.isInteger(settings.maxQueue) && settings.maxQueue >= 1)) {
    fail('maxQueue must be a whole number, 1 or more');
  }
  return { ...settings };
}

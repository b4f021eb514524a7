/**
 * People's reads of the platform, kept fair and cheap. Every replica shares one rate budget
 * with the platform (100 requests a minute, 1,000 an hour); without this, one person sending
 * lookups as fast as they can type spends it for everyone. So a read for a person:
 *
 * 1. is answered from a short shared cache when the same thing was read for anyone in the last
 *    few seconds (the cache holds the ticket; who may see it is decided by the caller, per
 *    person, each time);
 * 2. else takes one token from the person's own buckets (shared by replicas): by default 5 at
 *    once and 10 a minute, and 60 an hour. One person can then spend at most 15 requests in a
 *    minute and 120 in an hour: less than the 20 a minute and 200 an hour the budget reserves
 *    for people (its 20% reserve), so one person's burst never reaches anyone else's share;
 * 3. else goes to the platform, once for every person asking at the same moment.
 *
 * When the platform is not asked (their share, or the shared budget, or the platform's own
 * 429), the caller is handed why and when to try again, and what was read earlier, if anything,
 * with its time: words for the person, never silence.
 *
 * Every platform read a person's action causes is theirs to pay: lookups, their lists, App
 * Home, the create form's devices (kept for minutes, in the same shared store: a person opening
 * the form again and again is read once), and a shared list (desks, a desk's fields, the
 * catalog) when no copy of it is kept (`payer`).
 */
import { z } from 'zod';
import { BudgetExhaustedError } from '../../mirror/errors.ts';
import type { Mirror } from '../../mirror/mirror.ts';
import {
  type Asset,
  assetSchema,
  RateLimitError,
  type ServiceDeskClient,
  type Ticket,
  ticketSchema,
} from '../../servicedesk/index.ts';
import { StoreError } from '../../store/errors.ts';
import type { FairShareBucket, FairShareStore, JsonValue } from '../../store/types.ts';
import type { BusyReason } from '../builders/busy-builder.ts';
import { DONE_STATUSES } from '../builders/ticket-labels.ts';
import type {
  KeptValue,
  KnownTicket,
  Payer,
  PeopleRequest,
  PersonRead,
  Reads,
  StatusMemo,
} from '../deps.ts';
import { FairShareSpentError } from '../errors.ts';
import {
  type AgentQueue,
  afterTaking,
  agentQueueSchema,
  type QueueAsk,
  readAgentQueue,
} from './agent-queue.ts';

/** What a person asked for that reads the platform, and what it gives. */
export type { KeptValue, PeopleRequest, PersonRead };

/** Where an answer to a person came from. */
export type PeopleAnswerSource = 'platform' | 'cache' | 'known';

/** What the fair share reports (the app's metrics implement it). */
export interface PeopleReadMetrics {
  /** A person's request the platform was not asked for, and why. */
  countPeopleRefusal(reason: BusyReason, request: PeopleRequest): void;
  /** Seconds a person's request waited on the shared budget, and whether it then went. */
  observeBudgetWait(seconds: number, outcome: 'granted' | 'refused'): void;
  /** One answer to a person, by where it came from. */
  countPeopleAnswer(source: PeopleAnswerSource, request: PeopleRequest): void;
}

/** A pino-compatible logger. */
interface ReadsLogger {
  warn(obj: object, msg?: string): void;
}

/** A person's default share: 5 at once and 10 a minute; 60 an hour (see above). */
export const DEFAULT_FAIR_SHARE: readonly FairShareBucket[] = [
  { capacity: 5, refillEveryMs: 6_000 },
  { capacity: 60, refillEveryMs: 60_000 },
];

/** How long a person's devices answer the create form without asking the platform again. */
export const DEVICES_FRESH_MS = 5 * 60_000;
/** How long an agent's queue answers their Home and `/ticket queue` without reading it again. */
export const QUEUE_FRESH_MS = 60_000;
/** Most devices the create form lists (the platform's page). */
const DEVICES_MAX = 100;

/** A person's take for a read the caller makes itself: granted, or refused until `retryAt`. */
export type ShareGrant =
  | { granted: true }
  | { granted: false; reason: BusyReason; retryAt: number };

/** Options of `PeopleReads`. */
export interface PeopleReadsOptions {
  store: FairShareStore;
  serviceDesk: Pick<
    ServiceDeskClient,
    'getTicket' | 'iterateTickets' | 'iterateAssets' | 'listTickets'
  >;
  logger: ReadsLogger;
  metrics?: PeopleReadMetrics | undefined;
  /**
   * The freshest status the app knows of a ticket otherwise (a change made from Slack, the
   * mirror's last poll): a kept ticket it contradicts is not served as fresh.
   */
  known?: (ticketId: string) => Promise<KnownTicket | undefined>;
  /** Each person's buckets (default `DEFAULT_FAIR_SHARE`). */
  buckets?: readonly FairShareBucket[];
  /** How long a read answers the same question for anyone without asking again (10 s). */
  freshMs?: number;
  /** How long a read is kept to show, with its age, when the platform cannot be asked (15 min). */
  keptMs?: number;
  /** How long a person's devices answer without asking again (`DEVICES_FRESH_MS`). */
  devicesFreshMs?: number;
  /** How long an agent's queue answers without asking again (`QUEUE_FRESH_MS`). */
  queueFreshMs?: number;
  now?: () => number;
}

const ticketListSchema = z.array(ticketSchema);
const assetListSchema = z.array(assetSchema);

/** Reads the platform for people, fairly and once for the same question. */
export class PeopleReads implements Reads {
  readonly #store: FairShareStore;
  readonly #serviceDesk: PeopleReadsOptions['serviceDesk'];
  readonly #logger: ReadsLogger;
  readonly #metrics: PeopleReadMetrics | undefined;
  readonly #known: PeopleReadsOptions['known'];
  readonly #buckets: readonly FairShareBucket[];
  readonly #freshMs: number;
  readonly #keptMs: number;
  readonly #devicesFreshMs: number;
  readonly #queueFreshMs: number;
  readonly #now: () => number;
  readonly #inFlight = new Map<string, Promise<unknown>>();

  constructor(options: PeopleReadsOptions) {
    this.#store = options.store;
    this.#serviceDesk = options.serviceDesk;
    this.#logger = options.logger;
    this.#metrics = options.metrics;
    this.#known = options.known;
    this.#buckets = options.buckets ?? DEFAULT_FAIR_SHARE;
    this.#freshMs = options.freshMs ?? 10_000;
    this.#keptMs = options.keptMs ?? 15 * 60_000;
    this.#devicesFreshMs = options.devicesFreshMs ?? DEVICES_FRESH_MS;
    this.#queueFreshMs = options.queueFreshMs ?? QUEUE_FRESH_MS;
    this.#now = options.now ?? Date.now;
  }

  /** The clock the reads use (ages and waits are measured against it). */
  now(): number {
    return this.#now();
  }

  /**
   * A ticket read for a person. The caller decides whether they may see it, each time: the
   * cache is shared by everyone. A ticket that does not exist throws the client's NotFoundError.
   * `fresh` (a form about to change the ticket) reads the platform whatever is cached, outside
   * the person's share: it is not a question asked again and again.
   */
  ticket(
    userId: string,
    ticketId: string,
    request: PeopleRequest,
    options: { fresh?: boolean; freshMs?: number } = {},
  ): Promise<PersonRead<Ticket>> {
    const id = ticketId.toUpperCase();
    return this.#read(
      userId,
      `ticket:${id}`,
      request,
      () => this.#serviceDesk.getTicket(id, { priority: 'interactive' }),
      (value) => ticketSchema.safeParse(value).data,
      options.fresh
        ? { servable: 'never', shared: false }
        : {
            servable: (kept) => this.#agreesWithKnown(kept),
            shared: true,
            ...(options.freshMs !== undefined ? { freshMs: options.freshMs } : {}),
          },
    );
  }

  /**
   * The ticket as the last read of it for anyone kept it (up to `keptMs` old), without asking
   * the platform or spending anyone's share: what is known of a ticket before deciding to read.
   */
  keptTicket(ticketId: string): Promise<KeptValue<Ticket> | undefined> {
    return this.#recall(
      `ticket:${ticketId.toUpperCase()}`,
      (value) => ticketSchema.safeParse(value).data,
    );
  }

  /**
   * The open tickets a person requested (newest first), read by their own email: a list only
   * ever shown to the person whose email it is read by.
   */
  openRequested(
    userId: string,
    email: string,
    request: PeopleRequest,
    seen?: (ticket: Ticket) => void,
  ): Promise<PersonRead<Ticket[]>> {
    return this.#read(
      userId,
      `requested:${email.toLowerCase()}`,
      request,
      async () => {
        const open: Ticket[] = [];
        for await (const ticket of this.#serviceDesk.iterateTickets(
          { requester_email: email },
          { maxItems: 500, priority: 'interactive' },
        )) {
          seen?.(ticket);
          if (!DONE_STATUSES.has(ticket.status)) open.push(ticket);
        }
        // The platform lists oldest first; the newest matter most.
        return open.reverse();
      },
      (value) => ticketListSchema.safeParse(value).data,
      // A list is only kept to show with its age: a ticket the person just filed must be in it.
      { servable: 'never', shared: true },
    );
  }

  /**
   * The devices assigned to an email, for the create form opened by `userId` (who pays the read
   * from their share, whoever the devices are for). Kept for minutes in the shared store, so a
   * form opened again and again reads the platform once; past that, the kept list comes with
   * the refusal when the platform cannot be asked.
   */
  devices(userId: string, email: string): Promise<PersonRead<Asset[]>> {
    return this.#read(
      userId,
      `devices:${email.toLowerCase()}`,
      'form',
      async () => {
        const assets: Asset[] = [];
        for await (const asset of this.#serviceDesk.iterateAssets(
          { assigned_to_email: email },
          { maxItems: DEVICES_MAX, priority: 'interactive' },
        )) {
          assets.push(asset);
        }
        return assets;
      },
      (value) => assetListSchema.safeParse(value).data,
      { servable: async () => true, shared: true, freshMs: this.#devicesFreshMs },
    );
  }

  /**
   * An agent's queue (`agent-queue.ts`), paid from their share and kept for a minute in the
   * shared store: their Home opened again, `/ticket queue`, another replica, all answer from one
   * read. Kept per agent and per set of desks, so a list is only ever shown to the agent it was
   * read for; past the minute, the kept queue comes with a refusal when the platform cannot be
   * asked.
   */
  agentQueue(
    userId: string,
    ask: QueueAsk,
    request: PeopleRequest,
  ): Promise<PersonRead<AgentQueue>> {
    return this.#read(
      userId,
      queueKey(ask),
      request,
      () => readAgentQueue(this.#serviceDesk, ask),
      (value) => agentQueueSchema.safeParse(value).data,
      { servable: async () => true, shared: true, freshMs: this.#queueFreshMs },
    );
  }

  /**
   * Moves a ticket the agent just took (Assign to me) into their kept queue, so their Home shows
   * it at once without a read; nothing when no queue is kept.
   */
  async tookFromQueue(
    ask: QueueAsk,
    ticketId: string,
    taken?: Ticket,
  ): Promise<{ queue: AgentQueue; changed: boolean } | undefined> {
    const key = queueKey(ask);
    const kept = await this.#recall(key, (value) => agentQueueSchema.safeParse(value).data);
    if (!kept) return undefined;
    const queue = afterTaking(kept.value, ticketId, ask.email.toLowerCase(), taken);
    const changed = queue !== kept.value;
    if (changed) await this.#keep(key, queue as unknown as JsonValue);
    return { queue, changed };
  }

  /**
   * A payer for a shared list's read (desks, a desk's fields, the catalog) the person's action
   * starts: one read from their share when it has one, and the read made either way. Such a read
   * is bounded by the list's keeping (one per desk per 10 minutes, the catalog once an hour, for
   * everyone), not by how often anyone asks, so refusing it would only leave a form without its
   * fields (a person opening a form, switching desk and picking from the catalog spends five
   * reads in seconds) and protect nobody; the shared budget still refuses it when spent.
   */
  payer(userId: string, request: PeopleRequest): Payer {
    return async () => {
      const grant = await this.#take(userId);
      if (!grant.granted) this.#metrics?.countPeopleRefusal('fair_share', request);
    };
  }

  /** Counts an answer given from what was known (a refusal's kept read, the status memo). */
  answeredFromKnown(request: PeopleRequest): void {
    this.#metrics?.countPeopleAnswer('known', request);
  }

  async #read<T extends JsonValue | Ticket | Ticket[] | Asset[] | AgentQueue>(
    userId: string,
    key: string,
    request: PeopleRequest,
    fetch: () => Promise<T>,
    decode: (value: JsonValue) => T | undefined,
    how: {
      /** Whether a kept value young enough may answer ('never': the platform is always asked). */
      servable: 'never' | ((kept: KeptValue<T>) => Promise<boolean>);
      /** Whether the read is taken from the person's fair share. */
      shared: boolean;
      /** How long a kept value answers without asking again (default `freshMs`). */
      freshMs?: number;
    },
  ): Promise<PersonRead<T>> {
    const { servable } = how;
    // A read never answered from what is kept (a list, the Update form) recalls it only when
    // the platform cannot be asked: no Redis read and parse on the way to a fresh answer.
    const kept = servable === 'never' ? undefined : await this.#recall(key, decode);
    const recalled = () => (servable === 'never' ? this.#recall(key, decode) : kept);
    if (
      servable !== 'never' &&
      kept &&
      this.#now() - kept.keptAt < (how.freshMs ?? this.#freshMs) &&
      (await servable(kept))
    ) {
      this.#metrics?.countPeopleAnswer('cache', request);
      return { kind: 'read', value: kept.value, source: 'cache' };
    }
    const started = this.#now();
    // The share is taken inside the one read for everyone asking at once: joining a read already
    // on its way costs nothing, only the one who started it pays. A read someone else started
    // and could not pay for is started again, paid from this person's share.
    const paid = async () => {
      if (how.shared) {
        const grant = await this.#take(userId);
        if (!grant.granted) throw new FairShareSpentError(userId, grant.retryAt);
      }
      return fetch();
    };
    for (let attempt = 1; ; attempt++) {
      try {
        const value = await this.#once(key, paid);
        this.#metrics?.countPeopleAnswer('platform', request);
        return { kind: 'read', value, source: 'platform' };
      } catch (error) {
        if (error instanceof FairShareSpentError) {
          if (error.userId !== userId && attempt < 3) continue;
          this.#metrics?.countPeopleRefusal('fair_share', request);
          return {
            kind: 'busy',
            reason: 'fair_share',
            retryAt: error.retryAt,
            kept: await recalled(),
          };
        }
        const busy = busyUntil(error, this.#now());
        if (busy === undefined) throw error;
        if (error instanceof BudgetExhaustedError) {
          this.#metrics?.observeBudgetWait((this.#now() - started) / 1000, 'refused');
        }
        this.#metrics?.countPeopleRefusal('budget', request);
        return { kind: 'busy', reason: 'budget', retryAt: busy, kept: await recalled() };
      }
    }
  }

  /** Whether nothing the app learnt since says the kept ticket's status changed. */
  async #agreesWithKnown(kept: KeptValue<Ticket>): Promise<boolean> {
    const known = await this.#known?.(kept.value.id);
    return !known || known.at <= kept.keptAt || known.status === kept.value.status;
  }

  /** One platform read for everyone asking the same thing at once, kept for the next ones. */
  #once<T>(key: string, fetch: () => Promise<T>): Promise<T> {
    const running = this.#inFlight.get(key) as Promise<T> | undefined;
    if (running) return running;
    const read = fetch()
      .then(async (value) => {
        await this.#keep(key, value as JsonValue);
        return value;
      })
      .finally(() => this.#inFlight.delete(key));
    this.#inFlight.set(key, read);
    return read;
  }

  async #recall<T>(
    key: string,
    decode: (value: JsonValue) => T | undefined,
  ): Promise<KeptValue<T> | undefined> {
    try {
      const kept = await this.#store.recall(key);
      const value = kept && decode(kept.value);
      return kept && value !== undefined ? { value, keptAt: kept.keptAt } : undefined;
    } catch (error) {
      if (!(error instanceof StoreError)) throw error;
      // Without the cache the person is still answered, from the platform.
      this.#logger.warn({ err: error }, 'kept reads unreachable');
      return undefined;
    }
  }

  async #keep(key: string, value: JsonValue): Promise<void> {
    try {
      await this.#store.keep(key, value, this.#keptMs);
    } catch (error) {
      if (!(error instanceof StoreError)) throw error;
      this.#logger.warn({ err: error }, 'a read for people could not be kept');
    }
  }

  async #take(userId: string): ReturnType<FairShareStore['take']> {
    try {
      return await this.#store.take(userId, this.#buckets);
    } catch (error) {
      if (!(error instanceof StoreError)) throw error;
      // Without the shared count a person is still served; the rate budget remains the limit.
      this.#logger.warn({ err: error }, 'fair share unreachable');
      return { granted: true };
    }
  }
}

/** Where an agent's queue is kept: theirs, for the desks it was read for. */
function queueKey(ask: QueueAsk): string {
  return `queue:${ask.email.toLowerCase()}:${ask.scope.key}`;
}

/**
 * When the platform can be asked again, if the error says it cannot be asked now: the person's
 * share or the shared budget had no room, or the platform itself answered 429.
 */
export function busyUntil(error: unknown, now: number): number | undefined {
  if (error instanceof FairShareSpentError) return Math.max(error.retryAt, now + 1_000);
  if (error instanceof BudgetExhaustedError) return Math.max(error.retryAt, now + 1_000);
  if (error instanceof RateLimitError) return now + Math.max(1_000, error.retryAfterMs ?? 60_000);
  return undefined;
}

/**
 * The freshest status the app knows of a ticket: this process's memo, or the mirror's shared
 * record of its last poll.
 */
export async function knownTicketStatus(
  deps: { statuses: StatusMemo; mirror: Pick<Mirror, 'lastRead'> },
  ticketId: string,
): Promise<KnownTicket | undefined> {
  const memo = deps.statuses.get(ticketId);
  let mirrored: KnownTicket | undefined;
  try {
    const read = await deps.mirror.lastRead(ticketId.toUpperCase());
    if (read?.status !== undefined && read.polledAt > 0) {
      mirrored = {
        status: read.status,
        requesterEmail: read.requesterEmail?.toLowerCase(),
        at: read.polledAt,
      };
    }
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
  }
  if (memo && (!mirrored || memo.at >= mirrored.at)) return memo;
  return mirrored;
}

/** Why the platform was not asked and until when, if the error says it cannot be asked now. */
export function busyOf(
  error: unknown,
  now: number,
): { reason: BusyReason; retryAt: number } | undefined {
  const retryAt = busyUntil(error, now);
  if (retryAt === undefined) return undefined;
  return { reason: error instanceof FairShareSpentError ? 'fair_share' : 'budget', retryAt };
}

/**
 * The store interfaces shared by the Redis and in-memory backends. Both pass the same contract
 * tests, so callers depend on these types only and never on a backend.
 */

/** A value that survives a JSON round trip unchanged. */
export type JsonValue =
  | string
  | number
  | boolean
  | null
  | JsonValue[]
  | { [key: string]: JsonValue };

/** Milliseconds since the epoch; injected so leases and ages are testable without waiting. */
export type { Now } from '../clock.ts';

/** How long a finished delivery is remembered so a repeat is answered, not redone: 24 h. */
export const DAY_MS = 86_400_000;

/** The answer to a claim: the caller now holds the lease, someone else does, or it is finished. */
export type ClaimOutcome =
  | { state: 'claimed'; token: string }
  | { state: 'busy' }
  | { state: 'done'; result?: JsonValue };

/** What a claim key currently holds. */
export type ClaimRecord = { state: 'leased' } | { state: 'done'; result?: JsonValue };

/**
 * Delivery claims: short leases while work is under way, a remembered result once it is done.
 * A crashed holder's lease expires so a retry can take over; only the holder's token can
 * complete or release a live lease.
 */
export interface ClaimStore {
  /** Takes the lease when the key is free (never claimed, released, or its lease expired). */
  claim(key: string, leaseMs: number): Promise<ClaimOutcome>;
  /**
   * Records the key as done for `ttlMs` (default 24 h). False when someone else holds a live
   * lease or the key is already done: their outcome stands.
   */
  complete(key: string, token: string, result?: JsonValue, ttlMs?: number): Promise<boolean>;
  /** The live record for the key, if any. */
  get(key: string): Promise<ClaimRecord | undefined>;
  /** Gives the lease back early; false (and nothing changes) unless `token` holds it. */
  release(key: string, token: string): Promise<boolean>;
}

/** Options for one outbox entry. */
export interface EnqueueOptions {
  /** When the first attempt is due (default: now). */
  runAt?: number;
  /** How long the delivery key is remembered once the entry completes or fails (default 24 h). */
  rememberMs?: number;
  /**
   * Leases the new entry to this worker in the same step: the process that enqueued it runs it
   * at once, ahead of any backlog; should it die, the lease lapses and any worker takes it.
   */
  leaseTo?: { workerId: string; leaseMs: number };
}

/** The state of a delivery key the outbox already knows. */
export type DeliveryState = 'pending' | 'done' | 'failed';

/** The answer to an enqueue: a new entry, or the one (or its outcome) already there. */
export type EnqueueOutcome =
  /** `reserved` is the new entry's lease when `leaseTo` was given. */
  | { enqueued: true; id: string; reserved?: ReservedEntry }
  | { enqueued: false; id: string; state: DeliveryState; result?: JsonValue; error?: string };

/**
 * The answer to an amend: the entry now carries the new payload; it carries a newer one already
 * (`stale`); or it is no longer to be changed (`taken`: no entry pending under the key, or a
 * worker took it at least once, so it runs or ran with what it had).
 */
export type AmendOutcome = 'amended' | 'stale' | 'taken';

/** What the outbox remembers of a delivery key: its state, and how it ended once it did. */
export interface DeliveryRecord {
  state: DeliveryState;
  result?: JsonValue;
  error?: string;
}

/** A durable intent waiting for the worker. */
export interface OutboxEntry {
  id: string;
  deliveryKey: string;
  kind: string;
  payload: JsonValue;
  /** Attempts that failed so far (counted by `retryAt` and `fail`). */
  attempts: number;
  createdAt: number;
  nextAttemptAt: number;
  lastError?: string;
}

/** What names an entry its holder is working on; every operation after `reserve` takes it. */
export interface OutboxLease {
  id: string;
  leaseToken: string;
  /** The entry's delivery key, whose record finishing the entry updates. */
  deliveryKey: string;
}

/** An entry leased to one worker; invisible to others until `leaseExpiresAt`. */
export interface ReservedEntry extends OutboxEntry, OutboxLease {
  workerId: string;
  leaseExpiresAt: number;
}

/** An entry that failed for good, kept (capped, newest first) for inspection. */
export interface DeadLetter {
  id: string;
  deliveryKey: string;
  kind: string;
  payload: JsonValue;
  attempts: number;
  createdAt: number;
  failedAt: number;
  error: string;
}

/**
 * The answer to a retry of a dead letter: back in the queue, no dead letter with that id, or
 * not retried because its delivery key has been queued anew since (retrying would do it twice).
 */
export type DeadLetterRetry = 'requeued' | 'not-found' | 'superseded';

/** Queue health for metrics and alerts. */
export interface OutboxStats {
  /** Entries not yet completed or failed, leased ones included. */
  depth: number;
  /** Age of the oldest such entry, 0 when the queue is empty. */
  oldestAgeMs: number;
  /** Entries under a live lease. */
  inFlight: number;
}

/**
 * The outbox: intents made durable before Slack is acked, retried by a worker until they
 * succeed or fail for good. One delivery key makes at most one entry.
 */
export interface Outbox {
  /** Claims the delivery key and appends the entry in one atomic step. */
  enqueue(
    deliveryKey: string,
    kind: string,
    payload: JsonValue,
    opts?: EnqueueOptions,
  ): Promise<EnqueueOutcome>;
  /**
   * Replaces the payload of the entry pending under `deliveryKey` (of this `kind`) while no
   * worker ever took it, when `version` sorts after the version it carries (versions compare
   * as strings: give them one width). A held message edited before it ran runs with its edit.
   */
  amend(
    deliveryKey: string,
    kind: string,
    payload: JsonValue,
    version: string,
  ): Promise<AmendOutcome>;
  /** What is remembered of a delivery key, or undefined when nothing (never, or forgotten). */
  delivery(deliveryKey: string): Promise<DeliveryRecord | undefined>;
  /** Leases the oldest due entry (expired leases are due again), or undefined when none is. */
  reserve(workerId: string, leaseMs: number): Promise<ReservedEntry | undefined>;
  /** Removes the entry and remembers its result against the delivery key. */
  complete(lease: OutboxLease, result?: JsonValue): Promise<boolean>;
  /** Counts a failed attempt and makes the entry due again at `atMs`. */
  retryAt(lease: OutboxLease, atMs: number, error: string): Promise<boolean>;
  /** Moves the entry to the dead-letter list and marks its delivery key failed. */
  fail(lease: OutboxLease, error: string): Promise<boolean>;
  /** Depth, oldest age (since queued or retried) and in-flight count as of `now` (default: the store's clock). */
  stats(now?: number): Promise<OutboxStats>;
  /** The most recent dead letters, newest first. */
  deadLetters(limit?: number): Promise<DeadLetter[]>;
  /** One dead letter by its entry id. */
  deadLetter(id: string): Promise<DeadLetter | undefined>;
  /**
   * Puts a dead letter back in the queue under its id, due now and announced like a new entry,
   * with its delivery key pending again. It starts afresh (no attempts, created now) so it gets
   * the full retry time, and goes through a worker like any entry: failing again tells the
   * person again and makes it a dead letter again.
   */
  retryDeadLetter(id: string): Promise<DeadLetterRetry>;
  /** Deletes a dead letter; its delivery key stays failed until it is forgotten. */
  dropDeadLetter(id: string): Promise<boolean>;
  /**
   * Calls `listener` soon after any process (any replica on the same backend) enqueues an
   * entry that is due at once and not leased, so idle workers need not poll for it. A hint,
   * not a delivery: one may be missed (a reconnect), so workers still poll now and then.
   * Returns the function that stops the calls.
   */
  watch(listener: () => void): () => Promise<void>;
}

/** A Slack thread: the channel and the `ts` of its parent message. */
export interface Thread {
  channel: string;
  threadTs: string;
  /**
   * The desk's triage thread (its card in the triage channel): the agents', which also gets the
   * ticket's internal notes. Absent on the requester's threads.
   */
  triage?: boolean;
}

/** How a link may change what is there. */
export interface LinkOptions {
  /** Moves a thread linked to another ticket to this one (the closed-ticket follow-up). */
  move?: boolean;
}

/**
 * Links between tickets and Slack threads. A thread belongs to at most one ticket; a ticket
 * may have several threads. Links never expire: a ticket's conversation can resume at any
 * time. Ticket IDs are compared exactly, so callers pass them in canonical form.
 */
export interface ThreadLinks {
  /**
   * Links the thread to the ticket; false when already linked to it. A thread linked to another
   * ticket stays with it (`ThreadLinkedElsewhereError`) unless `move` says the caller means to
   * move it: a thread belongs to one ticket, and only the requester's choice moves it.
   */
  link(ticketId: string, thread: Thread, options?: LinkOptions): Promise<boolean>;
  /** The ticket a thread belongs to. */
  ticketForThread(channel: string, threadTs: string): Promise<string | undefined>;
  /** The ticket's threads, in the order they were linked. */
  threadsForTicket(ticketId: string): Promise<Thread[]>;
  /** Removes the link; false when the thread was not linked to this ticket. */
  unlink(ticketId: string, thread: Thread): Promise<boolean>;
  /** Every channel holding a linked thread, sorted (a workspace's records are found by them). */
  channels(): Promise<string[]>;
  /**
   * Removes the link of every thread in these channels (a workspace that uninstalled the app);
   * the number of threads unlinked.
   */
  unlinkChannels(channels: readonly string[]): Promise<number>;
}

/** Who a platform request is for: a person waiting on an answer, or background work. */
export type BudgetPriority = 'interactive' | 'background';

/** The limits a rate budget keeps every replica within, together. */
export interface RateBudgetLimits {
  /** Requests in any 60 s (default 100, the platform's per-minute limit). */
  perMinute: number;
  /** Requests in any hour (default 1,000, the platform's per-hour limit). */
  perHour: number;
  /**
   * Share of each window background work leaves to people (default 0.2): it never makes more
   * than (1 - reserve) of a window itself, and never takes the window's last reserve / 4.
   */
  reserve: number;
}

/** The platform's limits and the default reserve. */
export const DEFAULT_RATE_BUDGET_LIMITS: RateBudgetLimits = {
  perMinute: 100,
  perHour: 1000,
  reserve: 0.2,
};

/** The answer to a take: one request may go now, or not before `retryAt`. */
export type BudgetGrant =
  | { granted: true }
  | { granted: false; retryAt: number; reason: 'window' | 'backoff' };

/** What one response's X-RateLimit-* headers said (the window closest to exhaustion). */
export interface RateLimitObservation {
  limit: number;
  remaining: number;
  /** When that window resets, in ms since the epoch. */
  resetAt: number;
  /** When the response was read, in ms since the epoch. */
  observedAt: number;
}

/** How much of the budget is spent as of now. */
export interface BudgetUsage {
  /** Requests taken in the last 60 s. */
  minute: number;
  /** Requests taken in the last hour. */
  hour: number;
  /** Requests taken in the last `recentMs` (see `usage`). */
  recent: number;
  /**
   * The part of this replica group's own takes that background work made, per window: what the
   * poller can steer. The platform's headers say nothing of priorities, so these are this
   * budget's counts only.
   */
  background: { minute: number; hour: number; recent: number };
  /** Until when every replica holds back after a 429, if it does now. */
  blockedUntil: number | undefined;
  /**
   * Whether a person's request found no room lately (`PRESSED_MS`): background work keeps out
   * of people's whole reserve meanwhile.
   */
  peoplePressed: boolean;
}

/**
 * One rate budget for every replica, over a rolling minute and a rolling hour (stricter than
 * the platform's fixed windows, so a budget that holds here holds there). It adopts what the
 * platform's headers say, keeps room for people that background work never takes, and after a 429
 * holds every replica back until the reset.
 */
export interface RateBudget {
  readonly limits: RateBudgetLimits;
  /** Takes one request when the priority may have one now. */
  take(priority: BudgetPriority): Promise<BudgetGrant>;
  /** Adopts the platform's view of a window when it is stricter than the budget's own count. */
  observe(observation: RateLimitObservation): Promise<void>;
  /** Holds every request back until `untilMs` (after a 429); a later time wins. */
  backOff(untilMs: number): Promise<void>;
  /** Requests counted in each window; `recentMs` (default 10 min) sizes the `recent` one. */
  usage(recentMs?: number): Promise<BudgetUsage>;
}

/** A due ticket handed to one poller; only its token can reschedule it. */
export interface PollClaim {
  ticketId: string;
  token: string;
  /** When the ticket was due. */
  dueAt: number;
  /** When the claim lapses and the ticket is due again for anyone. */
  leaseExpiresAt: number;
}

/**
 * When each linked ticket is next polled: a sorted set by due time. A due ticket is claimed by
 * one poller at a time; a claim lapses after its lease, so a crashed poller delays a ticket but
 * never stops it.
 */
export interface PollSchedule {
  /**
   * Polls the ticket at `atMs` or earlier: an earlier time than the one set wins, a later one
   * changes nothing. While the ticket is claimed the time is kept and applied when the claim
   * ends, so a hint that arrives mid-poll is never lost. Never before a hold `reschedule` set.
   */
  pollAt(ticketId: string, atMs: number): Promise<void>;
  /** Claims up to `limit` due tickets, earliest first, each for `leaseMs`. */
  claimDue(limit: number, leaseMs: number): Promise<PollClaim[]>;
  /**
   * Ends a claim and sets the next poll (or the earlier time a hint asked for meanwhile).
   * False, and nothing changes, when the claim lapsed and someone else took the ticket.
   * `notBeforeMs` holds the ticket until then whoever asks for it later (a hint, the change
   * feed, the planner): Slack's Retry-After on a post, which no look may come before.
   */
  reschedule(claim: PollClaim, atMs: number, notBeforeMs?: number): Promise<boolean>;
  /** Stops polling the ticket; with a claim, only if the claim still holds. */
  remove(ticketId: string, claim?: PollClaim): Promise<boolean>;
  /** When the ticket is next due (a claimed ticket: when its claim lapses). */
  dueAt(ticketId: string): Promise<number | undefined>;
  /** The earliest due time of any ticket, claimed or not. */
  nextDueAt(): Promise<number | undefined>;
  /** How many tickets are scheduled. */
  size(): Promise<number>;
  /**
   * The tickets due at or before `untilMs` that no poller holds (a lapsed claim's ticket is
   * held until it is claimed again), earliest first, at most `limit`.
   */
  dueWithin(untilMs: number, limit: number): Promise<ScheduledPoll[]>;
  /**
   * Moves a ticket's poll from `dueAt` to the later `atMs`, as a look made elsewhere (a change
   * feed) makes it unnecessary. Nothing changes, and false comes back, unless the ticket is
   * still due exactly at `dueAt` and no poller holds it or held it last: a hint or a claim in
   * between wins.
   */
  postpone(ticketId: string, dueAt: number, atMs: number): Promise<boolean>;
}

/** A ticket in the poll schedule and when it is due. */
export interface ScheduledPoll {
  ticketId: string;
  dueAt: number;
}

/**
 * What the mirror store keeps of one ticket (the mirror's `MirrorState`, whose meaning is the
 * mirror's): the six counts and times from `activityCursor` to `lastPolledAt`, and
 * `firstResponseAt`, only move forward; `backoffStep` to `ticket` are kept as saved; the last
 * four are raised only by `noteSlackWrite` and `noteHint`.
 */
export interface MirrorRecord {
  /** Activity entries already read (the offset of the next Get-activity request). */
  activityCursor: number;
  /** Messages already read (their index in the ticket's conversation). */
  messageCursor: number;
  /** `message_added` entries read from the activity: more than `messageCursor` means unread. */
  messagesAnnounced: number;
  /** The latest thing that happened to the ticket (platform activity or a Slack write), ms. */
  lastActivityAt: number;
  /** The latest public message that did not come from Slack (an answer from the desk), ms. */
  lastAnswerAt: number;
  /** When the ticket was last polled, ms. */
  lastPolledAt: number;
  /** Failed polls in a row. */
  backoffStep: number;
  /** The ticket's last known status. */
  status: string | undefined;
  /** When it became resolved or closed, ms. */
  settledAt: number | undefined;
  requesterEmail: string | undefined;
  /**
   * The ticket as the mirror last read it (JSON, the mirror's to parse): a later change's card
   * is drawn from it and the activity read for the change, instead of a second read.
   */
  ticket: string | undefined;
  /**
   * When the ticket was first answered in public by an agent or the AI agent, as the mirror read
   * its messages, ms (0: not seen): its first-response clock stops there when the platform
   * gives no `first_responded_at`. Only moves forward, as the counts do, and set once.
   */
  firstResponseAt: number;
  /** The last time a person wrote to the ticket from Slack (set by `noteSlackWrite`), ms. */
  slackWriteAt: number;
  /** The last time the platform hinted that the ticket changed (set by `noteHint`), ms. */
  hintedAt: number;
  /**
   * The last time the platform hinted that a message was added, and nothing else (set by
   * `noteHint(..., 'message')`), ms: the messages alone tell what changed.
   */
  messageHintedAt: number;
  /**
   * The last time the platform's webhook announced a change other than a message (set by
   * `noteHint(..., 'announced')`, which sets `hintedAt` too), ms: news people wait for, as a
   * message is.
   */
  announcedAt: number;
}

/**
 * What a hint says changed: anything, a message was added and nothing else, or (`announced`)
 * the platform's webhook announced a change other than a message.
 */
export type HintScope = 'change' | 'message' | 'announced';

/** The answer to a claim on one post: post it, someone else is, or it is posted. */
export type PostClaimOutcome =
  | {
      state: 'claimed';
      token: string;
      /** An earlier holder's lease lapsed unfinished: the post may be in Slack already. */
      retaken: boolean;
    }
  | { state: 'busy' }
  | { state: 'done' };

/**
 * The mirror's memory of each ticket: its state, a claim per post so that no message is posted
 * twice into a thread, and the messages the app itself added from Slack (never echoed).
 */
export interface MirrorStore {
  /** The ticket's record, if the mirror has seen it. */
  state(ticketId: string): Promise<MirrorRecord | undefined>;
  /**
   * Saves the state. Cursors and times only move forward (a late, slow poller cannot move them
   * back); `slackWriteAt`, `hintedAt`, `messageHintedAt` and `announcedAt` are left to `noteSlackWrite` and
   * `noteHint`.
   */
  saveState(ticketId: string, state: MirrorRecord): Promise<void>;
  /** Records that a person wrote to the ticket from Slack at `atMs` (a later time wins). */
  noteSlackWrite(ticketId: string, atMs: number): Promise<void>;
  /**
   * Keeps `ticket` (see `MirrorRecord.ticket`) in the ticket's record, leaving the rest as it
   * is; a ticket with no record gets one (a triage card's ticket, kept before its first poll).
   */
  keepTicket(ticketId: string, ticket: string): Promise<void>;
  /** Records that the ticket was hinted at `atMs` to have changed in `scope` (a later time wins). */
  noteHint(ticketId: string, atMs: number, scope?: HintScope): Promise<void>;
  /** Claims one post (`postKey` names the item and the thread) before it is posted. */
  claimPost(ticketId: string, postKey: string, leaseMs: number): Promise<PostClaimOutcome>;
  /** Marks the post done; false when the token no longer holds it. */
  completePost(ticketId: string, postKey: string, token: string): Promise<boolean>;
  /** Gives the claim back after a failed post, so the next poll tries again at once. */
  releasePost(ticketId: string, postKey: string, token: string): Promise<boolean>;
  /** Remembers message ids or fingerprints of messages the app added from Slack. */
  rememberOwn(ticketId: string, marks: readonly string[]): Promise<void>;
  /** Whether any of the marks belongs to a message the app added from Slack. */
  isOwn(ticketId: string, marks: readonly string[]): Promise<boolean>;
  /** Lets everything kept for the ticket expire after `afterMs` (a closed ticket). */
  forget(ticketId: string, afterMs: number): Promise<void>;
}

/** What the change feed keeps of one ticket it has seen in a list of tickets. */
export interface TicketFacts {
  /** The desk it was filed under when seen (null: none yet). */
  deskId: string | null;
  /** Its `created_at`, ms: where it sits in a list ordered by creation. */
  createdAt: number;
  /** Its `updated_at` when seen, ms (platform time). */
  updatedAt: number;
  /**
   * Its status, priority and assignee when seen, as one text: a later listing with the same
   * shows that only messages were added since (absent: not known).
   */
  fields?: string;
}

/** The change feed's saved state: opaque to the store but for the time of the scan that saved it. */
export interface ChangeFeedRecord {
  /** When the scan that saved it began, ms: a save never replaces a later scan's. */
  scannedAt: number;
  data: JsonValue;
}

/**
 * The change feed's memory, shared by every replica: where its scans stand (one record), and
 * the facts it learnt about linked tickets (desk, creation, last change seen).
 */
export interface ChangeFeedStore {
  /** The saved record, if any. */
  state(): Promise<ChangeFeedRecord | undefined>;
  /** Saves the record unless one from a later scan is there already (false then). */
  saveState(record: ChangeFeedRecord): Promise<boolean>;
  /** The facts kept of these tickets (those it has none of are left out). */
  facts(ticketIds: readonly string[]): Promise<Map<string, TicketFacts>>;
  /** Keeps these facts, replacing what was kept of the same tickets. */
  noteFacts(facts: ReadonlyMap<string, TicketFacts>): Promise<void>;
  /** Drops what is kept of these tickets (seen elsewhere than expected: learnt again). */
  forgetFacts(ticketIds: readonly string[]): Promise<void>;
}

/**
 * One bucket of a person's fair share: holds up to `capacity` reads (the burst) and gains one
 * every `refillEveryMs` (the steady rate).
 */
export interface FairShareBucket {
  capacity: number;
  refillEveryMs: number;
}

/** The answer to a person's take: one read may go now, or not before `retryAt`. */
export type FairShareGrant = { granted: true } | { granted: false; retryAt: number };

/** A value kept for a short time, and when it was kept. */
export interface KeptRead {
  value: JsonValue;
  /** When it was kept (ms since the epoch). */
  keptAt: number;
}

/**
 * People's share of the platform, shared by every replica: a token bucket per person (one or
 * more buckets, all of which must hold a token) and a short cache of what was read for people,
 * so one person's burst is slowed before it spends everyone's budget and a repeated read is
 * not paid for twice.
 */
export interface FairShareStore {
  /** Takes one read from each of the person's buckets, or none when any is empty. */
  take(person: string, buckets: readonly FairShareBucket[]): Promise<FairShareGrant>;
  /** What was kept under the key, if it has not expired. */
  recall(key: string): Promise<KeptRead | undefined>;
  /** Keeps the value under the key for `ttlMs`, replacing what was kept. */
  keep(key: string, value: JsonValue, ttlMs: number): Promise<void>;
}

/** The key of the catch-all among the triage channels: it takes tickets no desk's channel takes. */
export const TRIAGE_CATCH_ALL = '*';

/** One desk's triage channel, as `TriageChannels.all` lists it. */
export interface TriageChannel {
  /** A desk slug, or `TRIAGE_CATCH_ALL`. */
  desk: string;
  /** The Slack channel id. */
  channel: string;
  /** Set in Slack (`/ticket triage`), or the deployment's default (DESK_TRIAGE_CHANNELS). */
  origin: 'slack' | 'default';
}

/**
 * Which Slack channel triages each desk's tickets (desk slug -> channel id), plus the catch-all
 * (`*`). What was set in Slack wins over the deployment's defaults, `off` included: a channel
 * turned off stays off when the app restarts with the same defaults. Several desks may share a
 * channel. Nothing expires.
 */
export interface TriageChannels {
  /** Makes `channel` the desk's (or the catch-all's) triage channel; the channel it replaced. */
  set(desk: string, channel: string): Promise<string | undefined>;
  /** Ends every triage `channel` serves, defaults included; the desks it served, sorted. */
  clear(channel: string): Promise<string[]>;
  /**
   * Makes `channel` the desk's triage channel again, as found in Slack once the store came
   * back empty, unless something is stored for the desk (a command since, or an off): true
   * when it was stored.
   */
  restore(desk: string, channel: string): Promise<boolean>;
  /**
   * Where a desk's tickets go: its own triage channel, else the catch-all's, else nowhere.
   * Without a desk (a ticket on none), the catch-all's.
   */
  channelFor(desk: string | undefined): Promise<string | undefined>;
  /** Every desk's triage channel, the catch-all's included, by desk. */
  all(): Promise<TriageChannel[]>;
}

/**
 * What the app does with a channel's new top-level messages: `auto` files each one a person
 * writes as a ticket; `off` files nothing (people use the form, the shortcut or the emoji).
 */
export const CHANNEL_MODES = ['auto', 'off'] as const;
/** One of `CHANNEL_MODES`. */
export type ChannelMode = (typeof CHANNEL_MODES)[number];

/**
 * Channel modes as agents set them (`/ticket channel auto|off`), shared by every replica. A
 * channel no agent set has none here: the configured default (CHANNEL_MODES) applies.
 */
export interface ChannelModeStore {
  /** The mode set for the channel, if one was. */
  get(channel: string): Promise<ChannelMode | undefined>;
  /** Sets the channel's mode; it stays until set again. */
  set(channel: string, mode: ChannelMode): Promise<void>;
  /** Every channel with a mode set, sorted. */
  channels(): Promise<string[]>;
  /** Drops the channel's mode (its workspace uninstalled the app); false when none was set. */
  remove(channel: string): Promise<boolean>;
}

/**
 * Where each conversation and person lives in an Enterprise Grid organization: channel or user
 * id -> the workspace (team id, or the enterprise id of an org-wide install) whose installation
 * acts on it. Grid's ids are unique across the organization, so the id alone tells the
 * workspace a Slack call naming it must be made in. Nothing expires: ids are few, and a home
 * goes only when its workspace uninstalls the app (`forget`).
 */
export interface ConversationHomes {
  /** Notes the id's home, replacing the one noted before (a person seen in another workspace). */
  note(id: string, workspace: string): Promise<void>;
  /** Notes `workspace` as the home of each id that has none yet; how many were noted. */
  adopt(ids: readonly string[], workspace: string): Promise<number>;
  /** The id's home, if one was noted. */
  homeOf(id: string): Promise<string | undefined>;
  /** Forgets every id whose home is `workspace`; the ids it forgot, sorted. */
  forget(workspace: string): Promise<string[]>;
}

/** The stores one backend provides. */
export interface Stores {
  claims: ClaimStore;
  outbox: Outbox;
  links: ThreadLinks;
  budget: RateBudget;
  schedule: PollSchedule;
  /**
   * When each ticket with a triage card next needs its service-level clocks looked at (its
   * warning point or due time): a second schedule of the same kind as the polls', apart from
   * them so a clock coming due never brings a platform request forward.
   */
  clockSchedule: PollSchedule;
  mirror: MirrorStore;
  feed: ChangeFeedStore;
  fairShare: FairShareStore;
  triageChannels: TriageChannels;
  channelModes: ChannelModeStore;
  /** Which workspace each channel and person lives in (apps installed in several). */
  homes: ConversationHomes;
}

/** How many dead letters a backend keeps unless told otherwise. */
export const DEFAULT_DEAD_LETTER_CAP = 1000;

/**
 * The mirror: brings each linked ticket's new public messages and its status, priority and
 * assignee changes into its Slack threads, has the ticket's card in each thread show the
 * changes, and tells the requester when it is resolved or closed.
 *
 * Safe with several replicas: a due ticket is claimed by one poller (the claim lapses if that
 * poller dies), every post is claimed before it is sent and recorded once it is, and a post
 * whose claim lapsed unfinished is looked for in the thread before it is sent again. Cursors
 * only move once everything before them is posted, so an outage of the platform or of Slack
 * delays posts but loses none.
 */
import { randomUUID } from 'node:crypto';
import { type Sleep, sleep } from '../clock.ts';
import {
  type Activity,
  CHANGE_ACTIVITY_TYPES,
  type Message,
  NotFoundError,
  type Ticket,
} from '../servicedesk/index.ts';
import type { PollClaim, Stores, Thread } from '../store/types.ts';
import type { BudgetPacer } from './budget-pacer.ts';
import { isFirstResponse, withFirstResponse } from './clock-watch.ts';
import { BudgetDeferredError, PostBusyError, PostDeferredError } from './errors.ts';
import { timeOf } from './iso-time.ts';
import { drawTicket, keepTicket, keptTicket } from './kept-ticket.ts';
import {
  type LookDecision,
  type LookEvent,
  type LookRules,
  lookRules,
  nextLook,
} from './look-policy.ts';
import { initialMirrorState, type MirrorState } from './mirror-state.ts';
import { tuningOf } from './mirror-tuning.ts';
import {
  ownMessageIdMark,
  ownMessageTextMark,
  reopenAnnouncedMark,
  reopenToldInMark,
  slackChangeMark,
  spreadMark,
  triageMessageIdMark,
  writtenInThreadMark,
} from './own-marks.ts';
import {
  isSettled,
  type Pace,
  type PollKind,
  type PollPlanner,
  RELAXED_PACE,
} from './poll-planner.ts';
import type {
  MirrorLogger,
  MirrorPlatform,
  MirrorPoster,
  PostedItem,
  PostOutcome,
} from './types.ts';
import { WorkLoop } from './work-loop.ts';

/** Options of the mirror worker. */
export interface MirrorWorkerOptions {
  platform: MirrorPlatform;
  stores: Pick<Stores, 'links' | 'schedule' | 'mirror'>;
  poster: MirrorPoster;
  logger: MirrorLogger;
  /** When tickets are polled (default: the adaptive rule). */
  planner?: PollPlanner;
  /**
   * The look policy's rules, shared with the rest of the mirror (default: `planner` at the
   * tuning table's values); `planner` is ignored when set.
   */
  rules?: LookRules;
  /** Slows the schedule when the budget is tight (default: none, the relaxed pace). */
  pacer?: BudgetPacer;
  /** Due tickets claimed per round (default 8). */
  batch?: number;
  /** Tickets polled at once (default 4). */
  concurrency?: number;
  /** How long a claim on a ticket lasts; longer than one poll takes (default 60 s). */
  leaseMs?: number;
  /** How long a claim on one post lasts (default 30 s). */
  postLeaseMs?: number;
  /** Longest wait between looks at the schedule, for hints other replicas add (default 1 s). */
  idleMs?: number;
  /** How long a closed ticket's mirror state is kept (default 7 days). */
  closedForgetMs?: number;
  /** Told after every post (latency metrics, benchmarks). */
  onPosted?: (item: PostedItem) => void;
  /**
   * Told when a look changed what the record keeps of a ticket with a triage card (the ticket,
   * its first response): its service-level clocks are looked at again (the clock watch).
   */
  onClockFacts?: (ticketId: string) => Promise<void>;
  now?: () => number;
  /** Waits; must settle (resolve or reject) when the signal aborts. */
  sleep?: Sleep;
  random?: () => number;
}

const CHANGE_TYPES: ReadonlySet<string> = new Set(CHANGE_ACTIVITY_TYPES);

/** Polls linked tickets by the schedule and posts what changed; see the file comment. */
export class MirrorWorker {
  readonly #platform: MirrorPlatform;
  readonly #stores: MirrorWorkerOptions['stores'];
  readonly #poster: MirrorPoster;
  readonly #logger: MirrorLogger;
  readonly #rules: LookRules;
  readonly #pages: { activity: number; messages: number; max: number };
  readonly #minTurnWaitMs: number;
  readonly #pacer: BudgetPacer | undefined;
  readonly #o: Required<
    Pick<
      MirrorWorkerOptions,
      | 'batch'
      | 'concurrency'
      | 'leaseMs'
      | 'postLeaseMs'
      | 'idleMs'
      | 'closedForgetMs'
      | 'now'
      | 'sleep'
      | 'random'
    >
  >;
  readonly #onPosted: ((item: PostedItem) => void) | undefined;
  readonly #onClockFacts: MirrorWorkerOptions['onClockFacts'];
  readonly #id = `mirror-${randomUUID().slice(0, 8)}`;
  readonly #loop: WorkLoop;

  constructor(options: MirrorWorkerOptions) {
    this.#platform = options.platform;
    this.#stores = options.stores;
    this.#poster = options.poster;
    this.#logger = options.logger;
    this.#rules = options.rules ?? lookRules(options.planner);
    const t = tuningOf('worker');
    this.#pages = { activity: t.activityPage, messages: t.messagePage, max: t.maxPages };
    this.#minTurnWaitMs = t.minTurnWaitMs;
    this.#pacer = options.pacer;
    this.#onPosted = options.onPosted;
    this.#onClockFacts = options.onClockFacts;
    this.#o = {
      batch: options.batch ?? t.batch,
      concurrency: options.concurrency ?? t.concurrency,
      leaseMs: options.leaseMs ?? t.leaseMs,
      postLeaseMs: options.postLeaseMs ?? t.postLeaseMs,
      idleMs: options.idleMs ?? t.idleMs,
      closedForgetMs: options.closedForgetMs ?? t.closedForgetMs,
      now: options.now ?? Date.now,
      sleep: options.sleep ?? sleep,
      random: options.random ?? Math.random,
    };
    this.#loop = new WorkLoop(() => this.#turn(), this.#o);
  }

  /** The rule the schedule follows. */
  get planner(): PollPlanner {
    return this.#rules.planner;
  }

  /**
   * Looks at the schedule again now when it is asleep past `atMs`: a look was just brought
   * forward (a write from Slack) and must not wait out the idle time.
   */
  wake(atMs: number): void {
    this.#loop.wake(atMs);
  }

  /** Starts polling until `stop()`. */
  start(): void {
    this.#loop.start();
  }

  /** Stops after the polls under way; unfinished work stays scheduled. */
  stop(): Promise<void> {
    return this.#loop.stop();
  }

  /**
   * Posts a message the app itself just added from Slack into the ticket's linked threads at
   * once, through the same claimed posts as a poll (so the poll that reads it later, another
   * replica or a retry finds each post done and never posts it twice). Throws what a post
   * throws (Slack refusing, a post another replica is sending); what is not posted stays for
   * the mirror's next look, as the message cursor has not moved past it.
   */
  async postWritten(ticketId: string, message: Message): Promise<void> {
    const threads = await this.#stores.links.threadsForTicket(ticketId);
    if (threads.length === 0) return;
    await this.#mirrorMessage(ticketId, message, threads);
  }

  /** Claims the tickets due now and polls them; returns how many were claimed. */
  async runOnce(): Promise<number> {
    await this.#pacer?.refreshIfDue();
    const claims = await this.#stores.schedule.claimDue(this.#o.batch, this.#o.leaseMs);
    let next = 0;
    const lane = async () => {
      while (next < claims.length) {
        const claim = claims[next++] as PollClaim;
        await this.pollClaimed(claim);
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.#o.concurrency, claims.length) }, lane));
    return claims.length;
  }

  /** The pacer's pace as of its last refresh; relaxed without a pacer. */
  #pace(): Pace {
    return this.#pacer?.pace() ?? RELAXED_PACE;
  }

  /** The look policy's decision on what just happened to the ticket in `state`. */
  #decide(event: LookEvent, state: MirrorState): LookDecision {
    return nextLook({ event, state, pace: this.#pace(), now: this.#o.now(), rules: this.#rules });
  }

  /** Polls one claimed ticket and reschedules it; never throws. */
  async pollClaimed(claim: PollClaim): Promise<void> {
    const { ticketId } = claim;
    try {
      const threads = await this.#stores.links.threadsForTicket(ticketId);
      if (threads.length === 0) {
        await this.#stores.schedule.remove(ticketId, claim);
        return;
      }
      const previous = (await this.#stores.mirror.state(ticketId)) ?? initialMirrorState();
      // The one question before the request: look now (which request, which priority), or
      // when. The pacer then only admits by priority and budget.
      const look = this.#decide({ type: 'claimed' }, previous);
      if (look.do !== 'look') return;
      if (look.at > this.#o.now()) {
        await this.#stores.schedule.reschedule(claim, look.at);
        return;
      }
      const { priority } = look;
      const roomAt = look.gated && this.#pacer ? await this.#pacer.roomAt(priority) : undefined;
      if (roomAt !== undefined) {
        // Not claimed again before the budget can take it: no churn of claims put back.
        const event = { type: 'no-room', priority, roomAt, random: this.#o.random() } as const;
        const later = this.#decide(event, previous);
        const at = later.do === 'look' ? later.at : this.#o.now();
        if (look.messagesFirst) {
          await this.#messagesFirst(claim, previous, threads, at);
          return;
        }
        await this.#stores.schedule.reschedule(claim, at);
        return;
      }
      let state: MirrorState;
      try {
        // The request the policy chose: the planner is not asked again.
        state = await this.#poll(ticketId, previous, threads, look.kind);
      } catch (error) {
        await this.#afterFailure(claim, previous, error);
        return;
      }
      await this.#save(ticketId, previous, state, threads);
      const next = this.#decide({ type: 'looked' }, state);
      if (next.do === 'look') {
        await this.#stores.schedule.reschedule(claim, next.at);
        return;
      }
      // A write from Slack during this poll keeps the ticket scheduled (remove gives way to it).
      if (!(await this.#stores.schedule.remove(ticketId, claim))) return;
      if (state.status === 'closed') {
        await this.#stores.mirror.forget(ticketId, this.#o.closedForgetMs);
      }
      this.#logger.info({ ticket_id: ticketId, status: state.status }, 'mirror stopped polling');
    } catch (error) {
      // The stores failed: the claim lapses and the ticket comes due again by itself.
      this.#logger.warn({ err: error, ticket_id: ticketId }, 'mirror poll could not be recorded');
    }
  }

  /**
   * A message hinted, or the answer a write from Slack awaits, on a ticket whose change (a
   * status hint, a write that moved or may have moved its status) waits for room: the
   * message is what a person waits for, so it is fetched now with the
   * one request a person's look may always take, and the change stays hinted for its own look
   * when the budget has room, instead of the message waiting behind the status read.
   */
  async #messagesFirst(
    claim: PollClaim,
    previous: MirrorState,
    threads: Thread[],
    changeAt: number,
  ): Promise<void> {
    const { ticketId } = claim;
    let state: MirrorState;
    try {
      state = await this.#poll(ticketId, previous, threads, 'messages');
    } catch (error) {
      await this.#afterFailure(claim, previous, error);
      return;
    }
    await this.#save(ticketId, previous, state, threads);
    // Read as of this look, the change would count as seen: hinted again just after it, as
    // announced as it was.
    const scope = previous.announcedAt > previous.lastPolledAt ? 'announced' : 'change';
    await this.#stores.mirror.noteHint(ticketId, state.lastPolledAt + 1, scope);
    await this.#stores.schedule.reschedule(claim, changeAt);
  }

  /**
   * Saves a look's state, and tells the clock watch when what it computes from changed. A
   * triage card's ticket, kept by the triage feed while this look ran, is not undone by it.
   */
  async #save(
    ticketId: string,
    previous: MirrorState,
    state: MirrorState,
    threads: Thread[],
  ): Promise<void> {
    const triage = threads.some((thread) => thread.triage);
    if (triage && state.ticket === previous.ticket) {
      // Kept by the triage feed or a listing while this look read nothing newer.
      state.ticket = (await this.#stores.mirror.state(ticketId))?.ticket ?? state.ticket;
    }
    await this.#stores.mirror.saveState(ticketId, state);
    if (!triage || !this.#onClockFacts) return;
    const read = state.ticket !== previous.ticket && state.ticket !== undefined;
    if (!read && state.firstResponseAt === previous.firstResponseAt) {
      return;
    }
    try {
      await this.#onClockFacts(ticketId);
    } catch (error) {
      this.#logger.warn({ err: error, ticket_id: ticketId }, 'clock watch not told of a change');
    }
  }

  // One round, then as long as nothing is due: at once again after a round that claimed some.
  async #turn(): Promise<number> {
    let claimed = 0;
    try {
      claimed = await this.runOnce();
    } catch (error) {
      this.#logger.warn({ err: error, worker: this.#id }, 'mirror round failed');
    }
    if (claimed > 0) return 0;
    let waitMs = this.#o.idleMs;
    try {
      const nextDue = await this.#stores.schedule.nextDueAt();
      // A floor, so a ticket another replica just claimed cannot spin this loop.
      if (nextDue !== undefined) {
        waitMs = Math.min(waitMs, Math.max(this.#minTurnWaitMs, nextDue - this.#o.now()));
      }
    } catch {
      // The store is away: wait the full idle time and look again.
    }
    return waitMs;
  }

  async #afterFailure(claim: PollClaim, previous: MirrorState, error: unknown): Promise<void> {
    const { ticketId } = claim;
    const now = this.#o.now();
    if (error instanceof BudgetDeferredError || error instanceof PostDeferredError) {
      // Not a failure: the poll waits for room (or for Slack's word).
      const slack = error instanceof PostDeferredError;
      const event = { type: 'deferred', retryAt: error.retryAt, slack, random: this.#o.random() };
      const later = this.#decide(event as LookEvent, previous);
      if (later.do === 'look')
        await this.#stores.schedule.reschedule(claim, later.at, later.notBefore);
      return;
    }
    if (error instanceof PostBusyError) {
      const later = this.#decide({ type: 'busy', postLeaseMs: this.#o.postLeaseMs }, previous);
      if (later.do === 'look') await this.#stores.schedule.reschedule(claim, later.at);
      return;
    }
    // The ticket is gone, or this key may no longer see it: nothing more will come.
    const gone = error instanceof NotFoundError && error.operation !== 'getTicket';
    const failed = gone ? previous : { ...previous, backoffStep: previous.backoffStep + 1 };
    const after = this.#decide(
      { type: 'failed', gone, random: gone ? 0 : this.#o.random() },
      failed,
    );
    if (after.do !== 'look') {
      this.#logger.warn({ ticket_id: ticketId }, 'linked ticket not found; mirror stops');
      await this.#stores.schedule.remove(ticketId, claim);
      await this.#stores.mirror.forget(ticketId, this.#o.closedForgetMs);
      return;
    }
    await this.#stores.mirror.saveState(ticketId, failed);
    this.#logger.warn(
      { err: error, ticket_id: ticketId, attempt: failed.backoffStep, retry_in_ms: after.at - now },
      'mirror poll failed; will retry',
    );
    await this.#stores.schedule.reschedule(claim, after.at);
  }

  /**
   * One poll: read what is new, post it in order, and return the state to save. `only` reads
   * that kind (the look policy's choice, or the messages alone).
   */
  async #poll(
    ticketId: string,
    previous: MirrorState,
    threads: Thread[],
    only: PollKind,
  ): Promise<MirrorState> {
    const now = this.#o.now();
    const kind = only;
    const state: MirrorState = { ...previous, lastPolledAt: now, backoffStep: 0 };
    const entries =
      kind === 'activity' ? await this.#readActivity(ticketId, previous.activityCursor) : [];
    const added = entries.filter((entry) => entry.type === 'message_added').length;
    state.messagesAnnounced = previous.messagesAnnounced + added;
    const messages =
      kind === 'messages' || state.messagesAnnounced > previous.messageCursor
        ? await this.#readMessages(ticketId, previous.messageCursor)
        : [];
    const byId = new Map(messages.map((message) => [message.id, message]));
    const handled = new Set<string>();
    let cardChanged = false;
    let ticket: Ticket | undefined;
    const kept = keptTicket(previous.ticket, now);
    const ticketOnce = async () => {
      if (ticket) return ticket;
      const drawn = kept && drawTicket(kept.ticket, entries);
      if (drawn) {
        ticket = drawn;
        state.ticket = keepTicket(drawn, kept.at);
      } else {
        ticket = await this.#platform.getTicket(ticketId, { priority: 'background' });
        state.ticket = keepTicket(ticket, now);
      }
      return ticket;
    };

    // The activity gives the true order of messages and changes; messages it does not name
    // (a messages-only poll) follow in their own order.
    // The message the entry before this one added: a reopening right after it is its doing.
    let justAdded: string | undefined;
    for (const entry of entries) {
      state.lastActivityAt = Math.max(state.lastActivityAt, timeOf(entry.created_at) ?? 0);
      const addedBefore = justAdded;
      justAdded = entry.type === 'message_added' ? (entry.to ?? undefined) : undefined;
      if (entry.type === 'message_added') {
        const message = entry.to ? byId.get(entry.to) : undefined;
        if (message && !handled.has(message.id)) {
          handled.add(message.id);
          if (await this.#mirrorMessage(ticketId, message, threads)) {
            state.lastAnswerAt = Math.max(state.lastAnswerAt, timeOf(message.created_at) ?? 0);
          }
        }
      } else if (entry.type === 'created') {
        if (entry.to) state.status ??= entry.to;
      } else if (CHANGE_TYPES.has(entry.type)) {
        const told = await this.#reopenToldIn(ticketId, entry, addedBefore, threads);
        await this.#mirrorChange(ticketId, entry, threads, state, ticketOnce, told);
        cardChanged = true;
      }
    }
    for (const message of messages) {
      // The first answer stops the first-response clock (SLA_TARGETS; the platform's
      // `first_responded_at` wins when it gives one), whoever wrote it and wherever.
      if (state.firstResponseAt === 0 && isFirstResponse(message)) {
        state.firstResponseAt = timeOf(message.created_at) ?? 0;
      }
    }
    for (const message of messages) {
      state.lastActivityAt = Math.max(state.lastActivityAt, timeOf(message.created_at) ?? 0);
      if (handled.has(message.id)) continue;
      handled.add(message.id);
      if (await this.#mirrorMessage(ticketId, message, threads)) {
        state.lastAnswerAt = Math.max(state.lastAnswerAt, timeOf(message.created_at) ?? 0);
      }
    }
    // Last, so the cards show the ticket after every change of this poll, from one read.
    if (cardChanged) await this.#refreshCards(ticketId, threads, ticketOnce, state);
    state.activityCursor = previous.activityCursor + entries.length;
    state.messageCursor = previous.messageCursor + messages.length;
    return state;
  }

  async #readActivity(ticketId: string, cursor: number): Promise<Activity[]> {
    const entries: Activity[] = [];
    for (let page = 0; page < this.#pages.max; page++) {
      const offset = cursor + entries.length;
      const { items, total_count } = await this.#platform.listActivity(
        ticketId,
        { offset, limit: this.#pages.activity },
        { priority: 'background' },
      );
      entries.push(...items);
      const total = total_count ?? Number.POSITIVE_INFINITY;
      if (items.length < this.#pages.activity || offset + items.length >= total) break;
    }
    return entries;
  }

  async #readMessages(ticketId: string, cursor: number): Promise<Message[]> {
    const messages: Message[] = [];
    // Messages are paged by number: the page that holds the cursor, then the ones after it.
    let page = Math.floor(cursor / this.#pages.messages) + 1;
    for (let round = 0; round < this.#pages.max; round++, page++) {
      const { items, total_count } = await this.#platform.listMessages(
        ticketId,
        { page, page_size: this.#pages.messages },
        { priority: 'background' },
      );
      const first = (page - 1) * this.#pages.messages;
      messages.push(...items.slice(Math.max(0, cursor - first)));
      const total = total_count ?? Number.POSITIVE_INFINITY;
      if (items.length < this.#pages.messages || page * this.#pages.messages >= total) break;
    }
    return messages;
  }

  /**
   * Posts a message into the requester's threads unless it is internal or the app's own, and
   * into the triage thread unless it was written there; true when it was an answer.
   */
  async #mirrorMessage(ticketId: string, message: Message, threads: Thread[]): Promise<boolean> {
    const triage = threads.some((thread) => thread.triage);
    if (message.internal && !triage) return false;
    const marks = [ownMessageIdMark(message.id)];
    if (message.author.email) marks.push(ownMessageTextMark(message.author.email, message.body));
    const own = message.internal || (await this.#stores.mirror.isOwn(ticketId, marks));
    const fromTriage =
      triage && (await this.#stores.mirror.isOwn(ticketId, [triageMessageIdMark(message.id)]));
    const targets = threads.filter((thread) => (thread.triage ? !fromTriage : !own));
    if (own && !message.internal) targets.push(...(await this.#othersOf(ticketId, marks, threads)));
    if (targets.length === 0) return false;
    const count = this.#poster.messageParts?.(ticketId, message) ?? 1;
    for (const thread of targets) {
      // Parts in order, each its own post: one claimed and done is never posted again.
      for (let index = 0; index < count; index++) {
        const part = count > 1 ? { index, count } : undefined;
        const outcome = await this.#post(
          ticketId,
          message.id,
          'message',
          timeOf(message.created_at) ?? 0,
          thread,
          () => this.#poster.postMessage(thread, ticketId, message, part?.index),
          part,
        );
        if (outcome === 'gone') break;
      }
    }
    return !own;
  }

  /**
   * The requester's threads that have not got a message written from Slack in one of the
   * ticket's threads: the one it was written in has it, the others show it all the same.
   */
  async #othersOf(ticketId: string, marks: string[], threads: Thread[]): Promise<Thread[]> {
    const spread = marks.map(spreadMark);
    if (!(await this.#stores.mirror.isOwn(ticketId, spread))) return [];
    const others: Thread[] = [];
    for (const thread of threads) {
      if (thread.triage) continue;
      const there = marks.map((mark) => writtenInThreadMark(mark, thread));
      if (!(await this.#stores.mirror.isOwn(ticketId, there))) others.push(thread);
    }
    return others;
  }

  /**
   * The threads already told that this change reopened the ticket because of a reply from
   * Slack ("reply reopened IT-19"), so one line says it in each, not two: all of them when the
   * Slack side did not say where it told it, else the thread it told.
   */
  async #reopenToldIn(
    ticketId: string,
    entry: Activity,
    addedBefore: string | undefined,
    threads: Thread[],
  ): Promise<Thread[]> {
    if (entry.type !== 'status_changed' || entry.to !== 'open' || !addedBefore) return [];
    if (await this.#stores.mirror.isOwn(ticketId, [reopenAnnouncedMark(addedBefore)]))
      return threads;
    const told: Thread[] = [];
    for (const thread of threads) {
      if (await this.#stores.mirror.isOwn(ticketId, [reopenToldInMark(addedBefore, thread)]))
        told.push(thread);
    }
    return told;
  }

  async #mirrorChange(
    ticketId: string,
    entry: Activity,
    threads: Thread[],
    state: MirrorState,
    ticketOnce: () => Promise<Ticket>,
    toldIn: Thread[] = [],
  ): Promise<void> {
    const createdAt = timeOf(entry.created_at) ?? 0;
    const untold = threads.filter((thread) => !toldIn.includes(thread));
    const fromSlack =
      untold.length > 0 &&
      !!entry.actor?.includes('@') &&
      (await this.#stores.mirror.isOwn(ticketId, [
        slackChangeMark(entry.type, entry.from, entry.to, entry.actor ?? ''),
      ]));
    for (const thread of untold) {
      await this.#post(ticketId, entry.id, 'change', createdAt, thread, () =>
        this.#poster.postChange(thread, { ticketId, activity: entry, fromSlack }),
      );
    }
    if (entry.type !== 'status_changed' || !entry.to) return;
    state.status = entry.to;
    state.settledAt = isSettled(entry.to) ? createdAt : undefined;
    if (entry.to !== 'resolved' && entry.to !== 'closed') return;
    const status = entry.to;
    let ticket: Ticket | undefined;
    if (!state.requesterEmail) {
      ticket = await ticketOnce();
      state.requesterEmail = ticket.requester_email ?? undefined;
    }
    const requesterEmail = state.requesterEmail;
    if (!requesterEmail) return;
    await this.#post(ticketId, entry.id, 'notice', createdAt, undefined, async () => {
      ticket ??= await ticketOnce().catch(() => undefined);
      return this.#poster.notifyRequester({
        ticketId,
        activityId: entry.id,
        status,
        requesterEmail,
        ticket: ticket ? { id: ticket.id, title: ticket.title } : undefined,
      });
    });
  }

  /**
   * Brings the ticket's card in each thread up to date. The read of the ticket fails the poll
   * like any other read, so the next poll (its change lines already posted) refreshes again;
   * Slack refusing is only logged, as a card is a view and must never hold the posts back.
   */
  async #refreshCards(
    ticketId: string,
    threads: Thread[],
    ticketOnce: () => Promise<Ticket>,
    state: MirrorState,
  ): Promise<void> {
    // The first response the mirror saw, where the platform gives none: card and warnings agree.
    const ticket = withFirstResponse(await ticketOnce(), state.firstResponseAt);
    try {
      await this.#poster.ticketRead?.(ticket);
    } catch (error) {
      this.#logger.warn(
        { err: error, ticket_id: ticketId },
        'the Slack side could not follow the ticket',
      );
    }
    for (const thread of threads) {
      try {
        await this.#poster.refreshCard(thread, ticket);
      } catch (error) {
        this.#logger.warn(
          { err: error, ticket_id: ticketId, channel: thread.channel, thread_ts: thread.threadTs },
          'ticket card could not be refreshed',
        );
      }
    }
  }

  /**
   * Claims, sends and records one post. A post whose earlier claim lapsed unfinished is first
   * looked for in its thread; one that someone else is sending right now stops this poll.
   * Answers how it went, `done` when it was posted before.
   */
  async #post(
    ticketId: string,
    itemId: string,
    kind: PostedItem['kind'],
    createdAt: number,
    thread: Thread | undefined,
    send: () => Promise<PostOutcome>,
    part?: { index: number; count: number },
  ): Promise<PostOutcome | 'done'> {
    // A part of a message posted in parts is a post of its own, with its own claim.
    const where = thread ? [itemId, thread.channel, thread.threadTs] : [itemId];
    const postKey = JSON.stringify(part ? [...where, part.index] : where);
    const { mirror } = this.#stores;
    const claim = await mirror.claimPost(ticketId, postKey, this.#o.postLeaseMs);
    if (claim.state === 'done') return 'done';
    if (claim.state === 'busy') throw new PostBusyError(ticketId, itemId);
    let outcome: PostOutcome;
    try {
      if (
        claim.retaken &&
        thread &&
        (await this.#poster.findPosted(thread, ticketId, itemId, part?.index))
      ) {
        await mirror.completePost(ticketId, postKey, claim.token);
        return 'done';
      }
      outcome = await send();
    } catch (error) {
      await mirror.releasePost(ticketId, postKey, claim.token).catch(() => undefined);
      throw error;
    }
    await mirror.completePost(ticketId, postKey, claim.token);
    if (outcome === 'gone') {
      if (thread) {
        this.#logger.info(
          { ticket_id: ticketId, channel: thread.channel, thread_ts: thread.threadTs },
          'thread can no longer take posts; unlinked',
        );
        await this.#stores.links.unlink(ticketId, thread);
      }
      return outcome;
    }
    // A message in parts is reported once, when its last part is in.
    if (!part || part.index === part.count - 1) {
      this.#onPosted?.({ ticketId, itemId, kind, createdAt, postedAt: this.#o.now() });
    }
    return outcome;
  }
}

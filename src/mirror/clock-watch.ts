/**
 * The service-level clock watch: when a ticket with a triage card reaches the warning point of
 * a clock (SLA_WARN_AT of its time) and again at its due time, its triage thread gets one
 * line, its card is refreshed (its clock turns), and a breach is also said once at the top of
 * the triage channel.
 *
 * No platform request of its own: the clocks are computed from the ticket the mirror keeps in
 * its record (read for its card, or drawn from the activity) and the first response the mirror
 * saw in its messages. The mirror and the triage feed tell the watch when what it keeps of a
 * ticket changed (`noteTicket`); the watch keeps when each ticket's clocks next change in the
 * shared clock schedule, and at that time looks again, as of then.
 *
 * Exactly once across replicas and restarts: a look is claimed in the clock schedule (one
 * replica at a time), each post is claimed in the mirror store like any mirror post, and a
 * post whose claim lapsed unfinished is looked for in Slack (by its metadata) before it is
 * made again. Nothing is posted for a ticket answered, resolved or paused as of the look.
 */
import { type Sleep, sleep } from '../clock.ts';
import {
  type Message,
  nextClockChangeMs,
  type ServiceClock,
  type ServiceTargets,
  type Ticket,
  ticketClocks,
} from '../servicedesk/index.ts';
import type { PollClaim, Stores, Thread } from '../store/types.ts';
import { PostBusyError, PostDeferredError } from './errors.ts';
import { keepTicket, keptTicket } from './kept-ticket.ts';
import { tuningOf } from './mirror-tuning.ts';
import type { ClockWarning, MirrorLogger, MirrorPoster, PostOutcome } from './types.ts';
import { WorkLoop } from './work-loop.ts';

/** What the watch needs. */
export interface ClockWatchOptions {
  stores: Pick<Stores, 'clockSchedule' | 'mirror' | 'links'>;
  logger: MirrorLogger;
  /** SLA_TARGETS: the clocks of tickets the platform gives none. */
  targets: ServiceTargets;
  /** SLA_WARN_AT: the share of a clock's time at which it warns (0.8). */
  warnAt: number;
  /** Tickets looked at per round (default 16). */
  batch?: number;
  /** How long a claim on a look lasts (default 60 s). */
  leaseMs?: number;
  /** How long a claim on one post lasts (default 30 s). */
  postLeaseMs?: number;
  /** Longest wait between looks at the schedule, for what other replicas add (default 5 s). */
  idleMs?: number;
  /** How long a look that failed waits before the next (default 30 s). */
  retryMs?: number;
  /** Told of each warning posted (metrics, the benchmark). */
  onWarned?: (warning: ClockWarningPosted) => void;
  now?: () => number;
  sleep?: Sleep;
}

/** One warning or breach posted in a triage thread. */
export interface ClockWarningPosted {
  ticketId: string;
  kind: ServiceClock['kind'];
  level: ClockWarning['level'];
  /** When the clock reached the point (its warning point, or its due time), ms. */
  pointAt: number;
  postedAt: number;
}

/** Whether a message is a first response: public, by an agent or the AI agent. */
export function isFirstResponse(message: Message): boolean {
  return (
    !message.internal && (message.author.type === 'agent' || message.author.type === 'ai_agent')
  );
}

/**
 * The ticket with the first response the mirror saw, when the platform gives none: the card
 * and the warnings then agree on when the first-response clock stopped.
 */
export function withFirstResponse(ticket: Ticket, firstResponseAt: number | undefined): Ticket {
  if (ticket.first_responded_at || !firstResponseAt) return ticket;
  return { ...ticket, first_responded_at: new Date(firstResponseAt).toISOString() };
}

/** The item a warning's posts name in their metadata: one per ticket, clock and level. */
export function clockWarningItemId(kind: ServiceClock['kind'], level: ClockWarning['level']) {
  return `sla:${kind}:${level}`;
}

/** Watches the clocks of tickets with a triage card; see the file comment. */
export class ClockWatch {
  readonly #stores: ClockWatchOptions['stores'];
  readonly #logger: MirrorLogger;
  readonly #targets: ServiceTargets;
  readonly #warnAt: number;
  readonly #onWarned: ClockWatchOptions['onWarned'];
  readonly #o: Required<
    Pick<
      ClockWatchOptions,
      'batch' | 'leaseMs' | 'postLeaseMs' | 'idleMs' | 'retryMs' | 'now' | 'sleep'
    >
  >;
  readonly #loop: WorkLoop;
  #poster: MirrorPoster | undefined;

  constructor(options: ClockWatchOptions) {
    this.#stores = options.stores;
    this.#logger = options.logger;
    this.#targets = options.targets;
    this.#warnAt = options.warnAt;
    this.#onWarned = options.onWarned;
    this.#o = {
      ...tuningOf('clocks', {
        batch: options.batch,
        leaseMs: options.leaseMs,
        postLeaseMs: options.postLeaseMs,
        idleMs: options.idleMs,
        retryMs: options.retryMs,
      }),
      now: options.now ?? Date.now,
      sleep: options.sleep ?? sleep,
    };
    this.#loop = new WorkLoop(() => this.#turn(), this.#o);
  }

  /** Gives the watch the Slack side's poster; without one (or its warning calls) it posts nothing. */
  attach(poster: MirrorPoster): void {
    this.#poster = poster;
  }

  /** Starts watching until `stop()`. */
  start(): void {
    this.#loop.start();
  }

  /** Stops after the look under way; the schedule keeps what is due. */
  stop(): Promise<void> {
    return this.#loop.stop();
  }

  /**
   * What the mirror keeps of the ticket changed (a read, a change, its first response): its
   * clocks are looked at again soon, and from then on at each change.
   */
  async ticketChanged(ticketId: string): Promise<void> {
    if (!this.#poster?.postClockWarning) return;
    const at = this.#o.now();
    await this.#stores.clockSchedule.pollAt(ticketId, at);
    this.#loop.wake(at);
  }

  /**
   * A triage card was posted for the ticket: it is kept in the mirror's record unless the
   * record holds a read as new, and its clocks are watched.
   */
  async cardPosted(ticket: Ticket): Promise<void> {
    if (!this.#poster?.postClockWarning) return;
    const record = await this.#stores.mirror.state(ticket.id);
    const kept = keptTicket(record?.ticket, this.#o.now(), Number.POSITIVE_INFINITY);
    if (!kept || isOlder(kept.ticket, ticket)) {
      await this.#stores.mirror.keepTicket(ticket.id, keepTicket(ticket, this.#o.now()));
    }
    await this.ticketChanged(ticket.id);
  }

  /**
   * Tickets a listing returned (the change feed's, by `updated_after`): one newer than what the
   * mirror keeps of a ticket with a triage card is kept instead, and its clocks looked at
   * again. A due time the platform moved without an activity entry (a new desk, the end of a
   * pause) arrives so, with no request of its own. Store reads only; never throws.
   */
  listed(tickets: readonly Ticket[]): void {
    if (!this.#poster?.postClockWarning || tickets.length === 0) return;
    this.#keepListed(tickets).catch((error: unknown) =>
      this.#logger.warn({ err: error }, 'listed tickets not kept for their clocks'),
    );
  }

  async #keepListed(tickets: readonly Ticket[]): Promise<void> {
    const now = this.#o.now();
    for (const ticket of tickets) {
      const record = await this.#stores.mirror.state(ticket.id);
      // A ticket the mirror keeps nothing of has no card to warn on.
      if (!record?.ticket) continue;
      const kept = keptTicket(record.ticket, now, Number.POSITIVE_INFINITY);
      if (kept && !isOlder(kept.ticket, ticket)) continue;
      const threads = await this.#stores.links.threadsForTicket(ticket.id);
      if (!threads.some((thread) => thread.triage)) continue;
      await this.#stores.mirror.keepTicket(ticket.id, keepTicket(ticket, now));
      await this.ticketChanged(ticket.id);
    }
  }

  /** Looks at the clocks due now; answers how many were claimed. */
  async runOnce(): Promise<number> {
    const claims = await this.#stores.clockSchedule.claimDue(this.#o.batch, this.#o.leaseMs);
    for (const claim of claims) await this.#lookClaimed(claim);
    return claims.length;
  }

  async #turn(): Promise<number> {
    let claimed = 0;
    try {
      claimed = await this.runOnce();
    } catch (error) {
      this.#logger.warn({ err: error }, 'clock watch round failed');
    }
    if (claimed > 0) return 0;
    let waitMs = this.#o.idleMs;
    try {
      const next = await this.#stores.clockSchedule.nextDueAt();
      if (next !== undefined) waitMs = Math.min(waitMs, Math.max(5, next - this.#o.now()));
    } catch {
      // The store is away: wait the full idle time.
    }
    return waitMs;
  }

  /** Looks at one ticket's clocks, posts what is due and schedules the next; never throws. */
  async #lookClaimed(claim: PollClaim): Promise<void> {
    const { ticketId } = claim;
    const schedule = this.#stores.clockSchedule;
    try {
      const next = await this.#look(ticketId);
      if (next === undefined) await schedule.remove(ticketId, claim);
      else await schedule.reschedule(claim, next);
    } catch (error) {
      const now = this.#o.now();
      try {
        if (error instanceof PostDeferredError) {
          // Slack's Retry-After: no replica posts before it.
          await schedule.reschedule(claim, error.retryAt, error.retryAt);
        } else if (error instanceof PostBusyError) {
          await schedule.reschedule(claim, now + this.#o.postLeaseMs);
        } else {
          this.#logger.warn(
            { err: error, ticket_id: ticketId },
            'clock warning failed; will retry',
          );
          await schedule.reschedule(claim, now + this.#o.retryMs);
        }
      } catch (failure) {
        // The store is away: the claim lapses and the look comes due again by itself.
        this.#logger.warn({ err: failure, ticket_id: ticketId }, 'clock look not rescheduled');
      }
    }
  }

  /**
   * Posts the warnings the ticket's clocks call for now; answers when they next change
   * (undefined: never by time alone, or the ticket has no triage card or no kept ticket).
   */
  async #look(ticketId: string): Promise<number | undefined> {
    const poster = this.#poster;
    if (!poster?.postClockWarning) return undefined;
    const threads = (await this.#stores.links.threadsForTicket(ticketId)).filter(
      (thread) => thread.triage,
    );
    if (threads.length === 0) return undefined;
    const record = await this.#stores.mirror.state(ticketId);
    const kept = keptTicket(record?.ticket, this.#o.now(), Number.POSITIVE_INFINITY);
    if (!record || !kept) return undefined;
    // As of this moment: a first response, a resolve or a pause read since stops the post.
    const nowMs = this.#o.now();
    const ticket = withFirstResponse(kept.ticket, record.firstResponseAt);
    const clocks = ticketClocks(ticket, {
      targets: this.#targets,
      warnAt: this.#warnAt,
      nowMs,
      firstRespondedAtMs: record.firstResponseAt || undefined,
    });
    let posted = false;
    for (const clock of clocks) {
      if (clock.state !== 'warning' && clock.state !== 'breached') continue;
      // A clock found past its due time says so once; its warning no longer would help.
      const level = clock.state === 'breached' ? 'breach' : 'warning';
      const warning: ClockWarning = {
        ticket,
        clock,
        level,
        nowMs,
        itemId: clockWarningItemId(clock.kind, level),
      };
      for (const thread of threads) {
        const line = await this.#post(
          ticketId,
          // Once per ticket, clock and level: a card moved from the catch-all is not told again.
          ['sla', warning.itemId],
          () => poster.postClockWarning?.(thread, warning) ?? Promise.resolve('gone'),
          () => poster.findPosted(thread, ticketId, warning.itemId),
        );
        if (line === 'posted') {
          // The card's clock turns with the line (once, by whoever posted it), before the
          // channel's notice, which Slack may hold back.
          if (!posted) await this.#refreshCards(threads, ticket);
          posted = true;
          const pointAt = level === 'breach' ? clock.dueAtMs : clock.warnAtMs;
          this.#onWarned?.({
            ticketId,
            kind: clock.kind,
            level,
            pointAt,
            postedAt: this.#o.now(),
          });
        }
        if (level !== 'breach' || !poster.postBreachNotice) continue;
        await this.#post(
          ticketId,
          ['sla', `${warning.itemId}:channel`],
          () => poster.postBreachNotice?.(thread, warning) ?? Promise.resolve('gone'),
          async () => (await poster.findBreachNotice?.(thread, warning)) ?? false,
        );
      }
    }
    return nextClockChangeMs(clocks, nowMs);
  }

  async #refreshCards(threads: Thread[], ticket: Ticket): Promise<void> {
    for (const thread of threads) {
      try {
        await this.#poster?.refreshCard(thread, ticket);
      } catch (error) {
        // A card is a view: its next refresh shows the clock all the same.
        this.#logger.warn(
          { err: error, ticket_id: ticket.id, channel: thread.channel },
          'card not refreshed after a clock warning',
        );
      }
    }
  }

  /**
   * Claims, sends and records one post; a post whose earlier claim lapsed unfinished is first
   * looked for in Slack. Answers `done` when it was made before (here or by another replica).
   */
  async #post(
    ticketId: string,
    where: string[],
    send: () => Promise<PostOutcome>,
    find: () => Promise<boolean>,
  ): Promise<PostOutcome | 'done'> {
    const { mirror } = this.#stores;
    const key = JSON.stringify(where);
    const claim = await mirror.claimPost(ticketId, key, this.#o.postLeaseMs);
    if (claim.state === 'done') return 'done';
    if (claim.state === 'busy') throw new PostBusyError(ticketId, where[1] ?? '');
    let outcome: PostOutcome | 'done';
    try {
      outcome = claim.retaken && (await find()) ? 'done' : await send();
    } catch (error) {
      await mirror.releasePost(ticketId, key, claim.token).catch(() => undefined);
      throw error;
    }
    await mirror.completePost(ticketId, key, claim.token);
    return outcome;
  }
}

// Whether `kept` is older than `other`, by `updated_at` (a kept ticket without one is older).
function isOlder(kept: Ticket, other: Ticket): boolean {
  const keptAt = kept.updated_at ? Date.parse(kept.updated_at) : Number.NaN;
  const otherAt = other.updated_at ? Date.parse(other.updated_at) : Number.NaN;
  if (Number.isNaN(keptAt)) return true;
  return !Number.isNaN(otherAt) && otherAt > keptAt;
}

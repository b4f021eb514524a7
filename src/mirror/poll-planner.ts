/**
 * When each ticket is polled, and with which request. Pure: time, state and the budget's
 * pressure come in, a time comes out, so every rule is testable without a clock. A planner is
 * the look policy's strategy (`look-policy.ts`): the policy asks it when a ticket is due by the
 * schedule; nothing else in the mirror asks it. Its defaults are in `mirror-tuning.ts`.
 *
 * The adaptive rule spends polls where a new message is likely:
 * - A write from Slack is answered by the platform's AI agent within seconds, so the first
 *   look comes two seconds after it, and asks for the messages alone: one request finds and
 *   fetches the answer (Get activity would need a second to fetch it).
 * - A write the AI agent has not answered is a person's to answer, within minutes: the ticket
 *   is looked at again and again, each look further from the write (for up to 15 minutes).
 * - A ticket someone wrote to from Slack within the hour is in conversation: its looks come in
 *   turn with the other conversations', a minute apart at most, or ten seconds times the
 *   stretch when the budget is tight and that is longer, whatever its age, since an agent's
 *   unprompted note is as likely twenty minutes after the write as two. Under a full budget the
 *   gates then let the looks through in the order they fell due: a round robin, which keeps a
 *   message's wait in line with the looks the budget leaves, where growing with the age (below)
 *   would leave a note on a busy ticket for the requester's next write.
 * - Otherwise the interval grows with the time since the ticket's last activity: people answer
 *   each other in bursts, so a ticket that just had activity is polled within seconds, one
 *   quiet for a day a few times a day (never more rarely than the idle interval, which the
 *   pacer sizes from the number of tickets), a resolved one rarely and then not at all, a
 *   closed one never. These polls ask for the activity, which tells every change; messages are
 *   fetched only when it announced one. Where no hints come and the budget is tight (a stretch
 *   above 1), the later looks for an awaited answer read the messages alone too, one request
 *   that finds and fetches it: a change made meanwhile (an agent taking the ticket) then shows
 *   with the answer or at the next look reading the activity, instead of costing a second
 *   request on every look that finds the answer.
 * When the budget is tight the pacer's stretch lengthens every interval but the first look,
 * the poll most likely to find something.
 *
 * Where the platform pushes hints (its webhooks) or a change feed hints, a hinted look reads
 * only what the hint says changed (a message: the messages alone) and is never routine. While
 * the platform's message hints reach the app for a ticket (or scans by `updated_after` watch
 * every ticket), they will also bring the answer a write from Slack awaits: the first look
 * after it waits half a minute, and looks by age and while awaiting are only the safety net for
 * a lost hint, at most one every half hour (stretched with the rest), which is what lets every
 * hint be looked at at once.
 */
import { backoffMs } from '../backoff.ts';
import type { MirrorState } from './mirror-state.ts';
import { MIRROR_TUNING, tuningOf } from './mirror-tuning.ts';

/** How hard the poller must save requests now (see `BudgetPacer`). */
export interface Pace {
  /** Multiplies every interval set by age: more when the budget is tight, less when it is idle. */
  stretch: number;
  /** The longest interval of an open ticket, sized so that idle tickets cost a fixed share. */
  idleIntervalMs: number;
  /**
   * A change feed by `updated_after` scanned every change lately: like a ticket's own message
   * hints, it will tell of an answer, so nothing is looked at speculatively.
   */
  watched?: boolean;
  /**
   * How long a look is trusted where a change feed vouches that nothing changed since: a quiet
   * ticket is looked at for real again only then, so those looks take a small fixed share of
   * the hour however many tickets there are (default: the idle interval).
   */
  trustMs?: number;
}

/** The first look after a write from Slack while hints will bring its answer (30 s). */
export const HINTED_FIRST_LOOK_MS = MIRROR_TUNING.look.hintedFirstLookMs.value;

/** The pace when nothing is known about the budget. */
export const RELAXED_PACE: Pace = { stretch: 1, idleIntervalMs: 3_600_000 };

/** The request a poll starts with. */
export type PollKind =
  /** Get activity from the cursor: tells every change; messages are fetched only if one came. */
  | 'activity'
  /** List messages from the cursor: one request for the answer a Slack write is waiting for. */
  | 'messages';

/**
 * How much a poll matters when the budget runs short:
 * - `awaited`: what people wait for, one request: the first look after a write from Slack, a
 *   look a message hint asked for, or one for a change the platform's webhook announced (its
 *   activity read is one request, the card drawn from the ticket kept); only the budget itself
 *   holds it back (and, for a look reading the activity, the pacer just below its limits).
 * - `hinted`: a look that reads the activity for a hint of a change (a feed's, or a change made
 *   from Slack) or for a write from Slack that moved the ticket's status, or, where no hints
 *   come, a later look for an awaited answer.
 * - `routine`: a look by the schedule alone; the first to step aside.
 */
export type LookPriority = 'awaited' | 'hinted' | 'routine';

/** A rule for when tickets are polled. */
export interface PollPlanner {
  readonly name: string;
  /** When to look for the answer to a write from Slack made at `atMs` to a ticket in `state`. */
  afterSlackWrite(atMs: number, state?: MirrorState, pace?: Pace): number;
  /** Which request the poll of a ticket in `state` starts with, at the pacer's `pace`. */
  kind(state: MirrorState, now: number, pace?: Pace): PollKind;
  /**
   * How much the poll matters, which decides how near the budget's limit the pacer lets it go
   * (at the pacer's `pace`: whether hints or a feed cover the ticket).
   */
  priority(state: MirrorState, now: number, pace?: Pace): LookPriority;
  /**
   * Whether messages are what a person waits for now (a message hint arrived since the last
   * look, or the first look after a write from Slack is due): worth their one request even
   * while the look's read of a change waits for room.
   */
  messagesAwaited(state: MirrorState, now: number): boolean;
  /** When the ticket is polled next, or 'stop' to stop polling it. */
  next(state: MirrorState, now: number, pace: Pace): number | 'stop';
  /** When to try again after `state.backoffStep` failed polls in a row. */
  retryAt(state: MirrorState, now: number, random: number): number;
}

/** Settings of the adaptive rule. */
export interface AdaptivePlannerOptions {
  /** The first look after a write from Slack: just after the AI agent usually answers (2 s). */
  firstLookMs?: number;
  /** The shortest interval otherwise (10 s). */
  minIntervalMs?: number;
  /** Interval = time since the last activity × growth (1: each interval doubles the age). */
  growth?: number;
  /**
   * While a write from Slack waits for its answer: interval = time since the write × this
   * (0.5: each look 1.5 times as far from the write as the last)...
   */
  awaitGrowth?: number;
  /** ...for at most this long after the write (15 min); then the ticket is merely active. */
  awaitWindowMs?: number;
  /**
   * A write from Slack this recent (1 h) puts the ticket in conversation: where no hint source
   * covers it, it is looked at in turn with the others...
   */
  conversationMs?: number;
  /**
   * ...at most this far apart (1 min), or the shortest interval times the stretch when that is
   * longer: a minute is soon for a note nobody asked for, and a conversation's looks then cost
   * 60 an hour, not 360, while the budget is idle.
   */
  turnMs?: number;
  /** A message hint this recent (1 h) shows that the platform's hints reach the app... */
  pushVouchMs?: number;
  /**
   * ...and then the first look after a write from Slack waits this long (30 s), as the answer's
   * hint will most likely come first and its look read the write and the answer at once...
   */
  pushedFirstLookMs?: number;
  /** ...and then looks by age and while awaiting are at least this far apart (30 min). */
  pushedIntervalMs?: number;
  /** A resolved ticket is polled at least this far apart (30 min)... */
  resolvedIntervalMs?: number;
  /** ...and not at all once it has been resolved this long (3 days). */
  resolvedStopAfterMs?: number;
  /** Wait after the first failed poll, doubled per failure (5 s)... */
  retryBaseMs?: number;
  /** ...up to this (5 min). */
  retryMaxMs?: number;
}

const SETTLED = new Set(['resolved', 'closed']);
// Statuses a requester's message changes on the platform.
const MOVED_BY_REQUESTER = new Set<string | undefined>(['resolved', 'waiting_on_requester']);

/** Whether a status is one after which the ticket needs nothing more. */
export function isSettled(status: string | undefined): boolean {
  return status !== undefined && SETTLED.has(status);
}

/** The adaptive rule (see the file comment). */
export class AdaptivePlanner implements PollPlanner {
  readonly name = 'adaptive';
  readonly #o: Required<AdaptivePlannerOptions>;

  constructor(options: AdaptivePlannerOptions = {}) {
    // The table's values (`mirror-tuning.ts`), with what the caller set.
    const t = tuningOf('look');
    this.#o = {
      firstLookMs: t.firstLookMs,
      minIntervalMs: t.minIntervalMs,
      growth: t.growth,
      awaitGrowth: t.awaitGrowth,
      awaitWindowMs: t.awaitWindowMs,
      conversationMs: t.conversationMs,
      turnMs: t.turnMs,
      pushVouchMs: t.pushVouchMs,
      pushedFirstLookMs: t.hintedFirstLookMs,
      pushedIntervalMs: t.pushedIntervalMs,
      resolvedIntervalMs: t.resolvedIntervalMs,
      resolvedStopAfterMs: t.resolvedStopAfterMs,
      retryBaseMs: t.retryBaseMs,
      retryMaxMs: t.retryMaxMs,
      ...withoutUndefined(options),
    };
  }

  afterSlackWrite(atMs: number, state?: MirrorState, pace?: Pace): number {
    // A watching feed finds the answer within its period; with budget to spare (a stretch below
    // 1) the quick look is still worth its request, as the AI agent often answers within it.
    const watched = pace?.watched === true && pace.stretch >= 1;
    const pushed = watched || (state !== undefined && this.#pushed(state, atMs));
    return atMs + (pushed ? this.#o.pushedFirstLookMs : this.#o.firstLookMs);
  }

  kind(state: MirrorState, now: number, pace: Pace = RELAXED_PACE): PollKind {
    // The first look after a write from Slack asks for the messages alone: the AI agent's answer
    // is what is awaited, and one request finds and fetches it (activity would need a second).
    // So does a look hinted by a message hint alone, and, where no hints come and the budget is
    // tight, every look for the awaited answer. Other looks read the activity, so a change made
    // meanwhile (an agent resolving the ticket while the requester waits) is announced at once
    // instead of after the answer; so does a look hinted at any other change.
    // And a write from Slack to a ticket that a requester's message moves (resolved: reopened;
    // waiting on the requester: back to the desk) changed its status too: its look reads the
    // activity, whether or not that change's own hint arrives.
    const changeHinted = state.hintedAt > state.lastPolledAt;
    const moved = state.slackWriteAt > state.lastPolledAt && MOVED_BY_REQUESTER.has(state.status);
    if (changeHinted || moved) return 'activity';
    const frugal = pace.stretch > 1 && this.#alone(state, now, pace) && this.#awaiting(state, now);
    return frugal || this.messagesAwaited(state, now) ? 'messages' : 'activity';
  }

  messagesAwaited(state: MirrorState, now: number): boolean {
    return this.#messageHinted(state) || this.#firstLookDue(state, now);
  }

  #messageHinted(state: MirrorState): boolean {
    return state.messageHintedAt > state.lastPolledAt;
  }

  priority(state: MirrorState, now: number, pace: Pace = RELAXED_PACE): LookPriority {
    // A change the platform's webhook announced is news people wait for as much as a message:
    // its look reads the activity, one request (the card is drawn from the ticket kept), as a
    // hinted message's reads the messages. Ranked below, it waited for the pacer's room at least
    // half a minute at a time, and under a full hour for many minutes (push status p95 53-320 s
    // at 5,000 linked / 50 hot, hot p95 1 s). A feed's hint of a change stays below: a sweep
    // hints every ticket it found changed so, and ranked awaited those spent its pages' room.
    if (state.announcedAt > state.lastPolledAt) return 'awaited';
    const changeHinted = state.hintedAt > state.lastPolledAt;
    const kind = this.kind(state, now, pace);
    if (kind === 'messages' && this.messagesAwaited(state, now)) {
      return 'awaited';
    }
    // A look reading the activity for a write costs two requests: under a full budget it waits
    // for room a little before what a person waits for, even the first look after a write.
    // Where no hints come, so does a later look for an awaited answer: likelier to find
    // something than any routine look, it would otherwise wait behind every conversation's turn.
    const unreadWrite = state.slackWriteAt > state.lastPolledAt;
    const awaitedAlone = this.#alone(state, now, pace) && this.#awaiting(state, now);
    return changeHinted || unreadWrite || awaitedAlone ? 'hinted' : 'routine';
  }

  #firstLookDue(state: MirrorState, now: number): boolean {
    return this.#awaiting(state, now) && state.lastPolledAt < state.slackWriteAt;
  }

  /** Whether the platform's message hints reached the app for this ticket lately. */
  #pushed(state: MirrorState, now: number): boolean {
    return state.messageHintedAt > 0 && now - state.messageHintedAt < this.#o.pushVouchMs;
  }

  /** Whether no hint source covers the ticket: a watching feed, or the platform's message hints. */
  #alone(state: MirrorState, now: number, pace: Pace): boolean {
    return pace.watched !== true && !this.#pushed(state, now);
  }

  /** Whether someone wrote to the ticket from Slack lately and it is still open. */
  #inConversation(state: MirrorState, now: number): boolean {
    return now - state.slackWriteAt < this.#o.conversationMs && !isSettled(state.status);
  }

  /** `interval`, or the conversations' turn where shorter (see the file comment). */
  #inTurn(state: MirrorState, now: number, pace: Pace, interval: number): number {
    if (!this.#alone(state, now, pace) || !this.#inConversation(state, now)) return interval;
    const turn = Math.max(this.#o.turnMs, this.#o.minIntervalMs * pace.stretch);
    return Math.min(interval, turn);
  }

  #awaiting(state: MirrorState, now: number): boolean {
    return (
      state.slackWriteAt > state.lastAnswerAt &&
      now - state.slackWriteAt < this.#o.awaitWindowMs &&
      !isSettled(state.status)
    );
  }

  next(state: MirrorState, now: number, pace: Pace): number | 'stop' {
    if (state.status === 'closed') return 'stop';
    const lastActivity = Math.max(state.lastActivityAt, state.slackWriteAt);
    const pushed = pace.watched === true || this.#pushed(state, now);
    // A write from Slack that no answer has followed, and the AI agent (which answers within
    // seconds) has not answered: a person from the desk will, within minutes. Unless the
    // platform's hints will say when.
    if (this.#awaiting(state, now) && !pushed) {
      const waited = Math.max(0, now - state.slackWriteAt);
      const interval = Math.max(
        this.#o.minIntervalMs,
        waited * this.#o.awaitGrowth * Math.max(0, pace.stretch),
      );
      return now + Math.round(this.#inTurn(state, now, pace, interval));
    }
    const age = Math.max(0, now - lastActivity);
    const stretch = Math.max(0, pace.stretch);
    // Budget left over goes to tickets with recent activity, never to quiet ones: the idle
    // interval stretches when the budget is tight but does not shrink when it is not.
    const byAge = Math.min(
      pace.idleIntervalMs * Math.max(1, stretch),
      age * this.#o.growth * stretch,
    );
    let interval = Math.max(this.#o.minIntervalMs * Math.max(1, stretch), byAge);
    if (pushed) {
      const safetyNet = Math.min(pace.idleIntervalMs, this.#o.pushedIntervalMs) * stretch;
      interval = Math.max(
        interval,
        Math.min(pace.idleIntervalMs * Math.max(1, stretch), safetyNet),
      );
    }
    if (state.status === 'resolved') {
      const settledAt = state.settledAt ?? lastActivity;
      if (now - settledAt >= this.#o.resolvedStopAfterMs) return 'stop';
      interval = Math.max(interval, this.#o.resolvedIntervalMs);
    }
    return now + Math.round(this.#inTurn(state, now, pace, interval));
  }

  retryAt(state: MirrorState, now: number, random: number): number {
    const retry = Math.max(1, state.backoffStep) - 1;
    // Half fixed, half jitter: replicas that failed together do not retry together.
    return (
      now +
      backoffMs(retry, {
        baseMs: this.#o.retryBaseMs,
        maxMs: this.#o.retryMaxMs,
        jitter: 'half',
        random: () => random,
      })
    );
  }
}

/**
 * The naive bridge, for comparison: every linked ticket on one timer, whatever happens to it;
 * a write from Slack changes nothing. Closed tickets still stop.
 */
export class FixedPlanner implements PollPlanner {
  readonly name = 'fixed';
  readonly #intervalMs: number;
  readonly #retry: AdaptivePlanner;

  constructor(intervalMs: number) {
    this.#intervalMs = intervalMs;
    this.#retry = new AdaptivePlanner();
  }

  afterSlackWrite(atMs: number): number {
    return atMs + this.#intervalMs;
  }

  kind(): PollKind {
    return 'activity';
  }

  priority(): LookPriority {
    return 'routine';
  }

  messagesAwaited(): boolean {
    // Round robin by design: every look waits its turn, a hinted message too.
    return false;
  }

  next(state: MirrorState, now: number): number | 'stop' {
    return state.status === 'closed' ? 'stop' : now + this.#intervalMs;
  }

  retryAt(state: MirrorState, now: number, random: number): number {
    return this.#retry.retryAt(state, now, random);
  }
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

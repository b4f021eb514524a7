/**
 * When a ticket is next looked at, with which request and at which priority: one pure function
 * for the whole mirror. Every part records facts in the ticket's record (a write from Slack, a
 * hint, a message hint, a look and what it found, a failure) and then asks `nextLook` with what
 * just happened; the answer is the one place a due time is decided. The parts still write it
 * into the schedule (`pollAt` keeps an earlier time, a claim's `reschedule` sets it, the feed's
 * `postpone` moves a look later only if it is still where it was), but never choose it.
 *
 * The strategy's rules (`PollPlanner`: adaptive, or the fixed timer the bench compares with)
 * say when a ticket is due by the schedule; this file adds what is the mirror's whatever the
 * strategy: hints, the feed's trust, the budget's and Slack's waits, failures. The feed's trust
 * (a look a watching feed vouches for is not made until the trust ends) is written once, here,
 * for the worker's claimed looks and the feed's moves alike. Every number is in the tuning
 * table (`mirror-tuning.ts`); the table-driven test `test/mirror/look-policy.test.ts` has one
 * row per rule.
 */
import type { HintScope } from '../store/types.ts';
import { initialMirrorState, type MirrorState } from './mirror-state.ts';
import { type TuningValues, tuningOf } from './mirror-tuning.ts';
import {
  AdaptivePlanner,
  type LookPriority,
  type Pace,
  type PollKind,
  type PollPlanner,
} from './poll-planner.ts';

/** The policy's settings: the `look` part of the tuning table, and the feed's trust. */
export type LookTuning = TuningValues<'look'> & {
  /** How long a look a feed vouches for is trusted (default: the pace's trust). */
  trustMs?: number;
};

/** The rules a mirror runs by: the strategy's schedule and the tuning. */
export interface LookRules {
  planner: PollPlanner;
  tuning: LookTuning;
}

/** The adaptive strategy at the table's values, with `overrides`. */
export function lookRules(
  planner: PollPlanner = new AdaptivePlanner(),
  overrides: Partial<LookTuning> = {},
): LookRules {
  const { trustMs, ...rest } = overrides;
  return { planner, tuning: { ...tuningOf('look', rest), ...(trustMs ? { trustMs } : {}) } };
}

/** What just happened to the ticket; its record already holds what it changed. */
export type LookEvent =
  /** The schedule handed the ticket to a poller: look now, or when? */
  | { type: 'claimed' }
  /** A look read the ticket and its record was saved. */
  | { type: 'looked' }
  /** A person wrote to the ticket from Slack at `atMs` (noted in the record). */
  | { type: 'slack-write'; atMs: number }
  /** A person changed the ticket from Slack (noted as a hint). */
  | { type: 'slack-change' }
  /**
   * The platform or a feed hinted that the ticket changed; `state` is the record before the
   * hint was noted, `dueAt` when the ticket is due now.
   */
  | { type: 'hint'; scope: HintScope; dueAt: number | undefined }
  /** A message written from Slack could not be posted at once (Slack's `retryAt`, if any). */
  | { type: 'post-failed'; retryAt?: number }
  /** A thread was linked to the ticket (a re-link, a triage card): the worker brings it in. */
  | { type: 'linked' }
  /** The pacer turned a claimed look of `priority` away until about `roomAt`. */
  | { type: 'no-room'; priority: LookPriority; roomAt: number; random: number }
  /** The budget (or Slack, `slack`) deferred the look until `retryAt`. */
  | { type: 'deferred'; retryAt: number; slack: boolean; random: number }
  /** Another replica is sending one of the look's posts; its claim lasts `postLeaseMs`. */
  | { type: 'busy'; postLeaseMs: number }
  /** The look failed (`backoffStep` counts it); `gone`: the ticket is gone for this key. */
  | { type: 'failed'; gone: boolean; random: number }
  /** A whole feed scan found the ticket unchanged since its last look; the look is due `dueAt`. */
  | { type: 'unchanged'; dueAt: number };

/** What the policy is asked with. */
export interface LookInput {
  event: LookEvent;
  /** The ticket's record (undefined: none yet). */
  state: MirrorState | undefined;
  /** The pacer's pace (relaxed without one). */
  pace: Pace;
  now: number;
  rules: LookRules;
}

/** Which rule decided (the rows of the table-driven test). */
export type LookRule =
  | 'schedule'
  | 'stop'
  | 'look-now'
  | 'trusted'
  | 'first-look'
  | 'slack-change'
  | 'hint'
  | 'own-write'
  | 'post-failed'
  | 'linked'
  | 'no-room'
  | 'deferred'
  | 'slack-hold'
  | 'busy'
  | 'retry'
  | 'gone'
  | 'not-moved';

/** A look: when, which request it starts with, how much it matters. */
export interface Look {
  do: 'look';
  rule: LookRule;
  at: number;
  kind: PollKind;
  priority: LookPriority;
  /** Slack's Retry-After: nothing may bring the look before it. */
  notBefore?: number;
  /**
   * For a claimed look made now: whether the pacer must find room for it (an awaited look
   * reading the messages alone is one request only the budget holds back), and whether, turned
   * away, the messages are fetched at once as a person waits for them.
   */
  gated?: boolean;
  messagesFirst?: boolean;
}

/** The policy's answer: a look, stop looking, or leave the schedule as it is. */
export type LookDecision = Look | { do: 'stop'; rule: LookRule } | { do: 'keep'; rule: LookRule };

/** The one decision of when the ticket is next looked at; see the file comment. */
export function nextLook(input: LookInput): LookDecision {
  const { event, now, pace, rules } = input;
  const { planner, tuning } = rules;
  const state = input.state ?? initialMirrorState();
  const look = (rule: LookRule, at: number, extra: Partial<Look> = {}): Look => ({
    do: 'look',
    rule,
    at,
    kind: planner.kind(state, at, pace),
    priority: planner.priority(state, at, pace),
    ...extra,
  });
  switch (event.type) {
    case 'claimed': {
      const until = trustedUntil(state, now, pace, rules, pace.watched === true);
      if (until !== undefined) return look('trusted', until);
      const kind = planner.kind(state, now, pace);
      const priority = planner.priority(state, now, pace);
      return {
        do: 'look',
        rule: 'look-now',
        at: now,
        kind,
        priority,
        gated: priority !== 'awaited' || kind === 'activity',
        messagesFirst: planner.messagesAwaited(state, now),
      };
    }
    case 'looked': {
      const next = planner.next(state, now, pace);
      return next === 'stop' ? { do: 'stop', rule: 'stop' } : look('schedule', next);
    }
    case 'slack-write':
      return look('first-look', planner.afterSlackWrite(event.atMs, input.state, pace));
    case 'slack-change':
      return look('slack-change', now);
    case 'hint': {
      if (event.scope === 'message' && ownWrite(state, event.dueAt, now, tuning)) {
        return { do: 'keep', rule: 'own-write' };
      }
      const earliest = state.lastPolledAt + tuning.minGapMs;
      const at = Math.max(now + tuning.gatherMs, earliest);
      // The look's request and rank are those of the record once the hint is noted in it.
      const noted = withHint(state, event.scope, now);
      return {
        ...look('hint', at),
        kind: planner.kind(noted, at, pace),
        priority: planner.priority(noted, at, pace),
      };
    }
    case 'post-failed':
      return look('post-failed', Math.max(now, event.retryAt ?? now + tuning.postRetryMs));
    case 'linked':
      return look('linked', now);
    case 'no-room': {
      const { priority } = event;
      const wait = Math.min(
        tuning[`${priority}MaxRoomWaitMs`],
        Math.max(tuning[`${priority}RoomWaitMs`], event.roomAt - now),
      );
      return look('no-room', now + Math.round(wait * (1 + event.random * tuning.roomJitter)));
    }
    case 'deferred': {
      const at = Math.max(event.retryAt, now) + Math.round(event.random * tuning.deferJitterMs);
      // Slack's Retry-After holds the ticket: a hint, the feed or a write from Slack may bring
      // its look forward, but never before Slack allows the post.
      if (event.slack) return look('slack-hold', at, { notBefore: event.retryAt });
      return look('deferred', at);
    }
    case 'busy':
      return look('busy', now + event.postLeaseMs);
    case 'failed':
      if (event.gone) return { do: 'stop', rule: 'gone' };
      return look('retry', planner.retryAt(state, now, event.random));
    case 'unchanged': {
      const until = trustedUntil(state, now, pace, rules, true);
      if (until === undefined || until <= event.dueAt) return { do: 'keep', rule: 'not-moved' };
      return look('trusted', until);
    }
  }
}

/**
 * The feed's trust, the one rule of it: a look nothing asked for (no hint, no message hint, no
 * write from Slack since the last look) at a ticket a feed watches need not be made while the
 * last look is trusted: the feed tells of any change since (a scan the budget turned away
 * leaves it to the next, which still finds it). Until the strategy's next look, and never past
 * the trust, so every ticket is looked at for real once per trust. Undefined: look now.
 */
function trustedUntil(
  state: MirrorState,
  now: number,
  pace: Pace,
  rules: LookRules,
  watched: boolean,
): number | undefined {
  const last = state.lastPolledAt;
  if (!watched || last <= 0) return undefined;
  if (Math.max(state.hintedAt, state.messageHintedAt, state.slackWriteAt) > last) return undefined;
  const trust = rules.tuning.trustMs ?? pace.trustMs ?? pace.idleIntervalMs;
  if (now - last >= trust) return undefined;
  const next = rules.planner.next(state, now, pace);
  if (next === 'stop') return undefined;
  // In whole milliseconds, as the schedule keeps them: a trust that ends within this one
  // would put the look back at now, to be claimed and put back again without end.
  const until = Math.ceil(Math.min(next, last + trust));
  return until > now ? until : undefined;
}

/** The record as `noteHint` leaves it. */
function withHint(state: MirrorState, scope: HintScope, now: number): MirrorState {
  if (scope === 'message')
    return { ...state, messageHintedAt: Math.max(state.messageHintedAt, now) };
  const hinted = { ...state, hintedAt: Math.max(state.hintedAt, now) };
  if (scope === 'announced') hinted.announcedAt = Math.max(state.announcedAt, now);
  return hinted;
}

/**
 * Whether a message hint is, most likely, for a write from Slack whose look is near: the first
 * since the write, within `ownWriteMs` of it. Taken wrongly (an answer within the second), it
 * waits for that look: so only a near one.
 */
function ownWrite(
  state: MirrorState,
  dueAt: number | undefined,
  now: number,
  tuning: LookTuning,
): boolean {
  const unread = state.slackWriteAt > state.lastPolledAt;
  const first = state.messageHintedAt < state.slackWriteAt;
  if (!unread || !first || now - state.slackWriteAt >= tuning.ownWriteMs) return false;
  return dueAt !== undefined && dueAt <= now + tuning.hintedFirstLookMs;
}

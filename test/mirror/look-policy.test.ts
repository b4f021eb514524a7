/**
 * The look policy, one row per rule: what happened and what the ticket's record holds in, the
 * next look out. The rows are the documentation of when a ticket is looked at (docs/mirror.md
 * leads with the same table); times are offsets from NOW.
 */
import { describe, expect, it } from 'vitest';
import {
  FixedPlanner,
  initialMirrorState,
  type Look,
  type LookDecision,
  type LookEvent,
  type LookRule,
  type LookRules,
  type LookTuning,
  lookRules,
  type MirrorState,
  nextLook,
  type Pace,
} from '../../src/mirror/index.ts';

const NOW = 1_767_225_600_000;
const S = 1_000;
const MIN = 60 * S;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const PACE: Pace = { stretch: 1, idleIntervalMs: HOUR };

/** An open ticket last looked at a minute ago, nothing else known; `at` fields are offsets. */
function record(offsets: Partial<MirrorState> = {}): MirrorState {
  const at = (name: keyof MirrorState) => {
    const value = offsets[name];
    return typeof value === 'number' ? { [name]: NOW + value } : {};
  };
  return {
    ...initialMirrorState(),
    lastPolledAt: NOW - MIN,
    status: 'open',
    ...offsets,
    ...at('lastPolledAt'),
    ...at('lastActivityAt'),
    ...at('lastAnswerAt'),
    ...at('slackWriteAt'),
    ...at('hintedAt'),
    ...at('messageHintedAt'),
    ...at('announcedAt'),
    ...(typeof offsets.settledAt === 'number' ? { settledAt: NOW + offsets.settledAt } : {}),
  };
}

interface Row {
  rule: string;
  event: LookEvent;
  state?: Partial<MirrorState>;
  pace?: Partial<Pace>;
  rules?: LookRules;
  /** The decision (a part of it), `at` and `notBefore` as offsets from NOW. */
  out: Partial<Omit<Look, 'do' | 'rule'>> & { do?: LookDecision['do']; rule?: LookRule };
}

const adaptive = lookRules();
const trusting = (trustMs: number, overrides: Partial<LookTuning> = {}) =>
  lookRules(undefined, { trustMs, ...overrides });
const fixed = lookRules(new FixedPlanner(5 * MIN));
const looked = { type: 'looked' } as const;
const claimed = { type: 'claimed' } as const;

const ROWS: Row[] = [
  // --- After a look: the strategy's schedule (adaptive) ------------------------------------
  {
    rule: 'a closed ticket is not looked at again',
    event: looked,
    state: { status: 'closed' },
    out: { do: 'stop', rule: 'stop' },
  },
  {
    rule: 'a ticket resolved three days ago is not looked at again',
    event: looked,
    state: { status: 'resolved', settledAt: -3 * DAY },
    out: { do: 'stop', rule: 'stop' },
  },
  {
    rule: 'a resolved ticket is looked at half an hour apart at least',
    event: looked,
    state: { status: 'resolved', settledAt: -HOUR, lastActivityAt: -MIN },
    out: { do: 'look', rule: 'schedule', at: 30 * MIN, kind: 'activity', priority: 'routine' },
  },
  {
    rule: 'a quiet ticket waits as long as it has been quiet (its age × growth 1)',
    event: looked,
    state: { lastActivityAt: -5 * MIN },
    out: { do: 'look', rule: 'schedule', at: 5 * MIN, kind: 'activity', priority: 'routine' },
  },
  {
    rule: 'a ticket just active waits the shortest interval, 10 s',
    event: looked,
    state: { lastActivityAt: -2 * S },
    out: { do: 'look', at: 10 * S },
  },
  {
    rule: 'a ticket quiet for long waits the idle interval the pacer sized, no more',
    event: looked,
    state: { lastActivityAt: -10 * HOUR },
    out: { do: 'look', at: HOUR },
  },
  {
    rule: 'a tight budget stretches the interval by age',
    event: looked,
    state: { lastActivityAt: -5 * MIN },
    pace: { stretch: 2 },
    out: { do: 'look', at: 10 * MIN },
  },
  {
    rule: 'an awaited answer is looked for at half the time since the write',
    event: looked,
    state: { slackWriteAt: -MIN, lastPolledAt: -30 * S },
    out: { do: 'look', at: 30 * S, kind: 'activity', priority: 'hinted' },
  },
  {
    rule: 'a conversation (a write within the hour) takes its turn at least every minute',
    event: looked,
    state: { slackWriteAt: -20 * MIN, lastActivityAt: -20 * MIN },
    out: { do: 'look', at: MIN, priority: 'routine' },
  },
  {
    rule: 'a conversation’s turn under a tight budget is 10 s × the stretch',
    event: looked,
    state: { slackWriteAt: -20 * MIN, lastActivityAt: -20 * MIN },
    pace: { stretch: 16 },
    out: { do: 'look', at: 160 * S },
  },
  {
    rule: 'under a tight budget with no hints, a look for an awaited answer reads the messages alone',
    event: looked,
    state: { slackWriteAt: -MIN, lastPolledAt: -30 * S },
    pace: { stretch: 2 },
    out: { do: 'look', at: MIN, kind: 'messages', priority: 'hinted' },
  },
  {
    rule: 'while message hints arrive (one within the hour), looks by age are a net 30 min apart',
    event: looked,
    state: { messageHintedAt: -10 * MIN, lastActivityAt: -5 * MIN },
    out: { do: 'look', at: 30 * MIN },
  },
  {
    rule: 'while a feed watches every ticket, looks by age are the same net',
    event: looked,
    state: { lastActivityAt: -5 * MIN },
    pace: { watched: true },
    out: { do: 'look', at: 30 * MIN },
  },
  {
    rule: 'the fixed strategy looks at every ticket on one timer',
    event: looked,
    state: { lastActivityAt: -2 * S },
    rules: fixed,
    out: { do: 'look', at: 5 * MIN, kind: 'activity', priority: 'routine' },
  },
  // --- A write from Slack -------------------------------------------------------------------
  {
    rule: 'a write from Slack is answered by the AI agent within seconds: messages alone, 2 s later',
    event: { type: 'slack-write', atMs: NOW },
    state: { slackWriteAt: 0 },
    out: { do: 'look', rule: 'first-look', at: 2 * S, kind: 'messages', priority: 'awaited' },
  },
  {
    rule: 'while message hints arrive, the answer’s hint comes first: the first look is 30 s later',
    event: { type: 'slack-write', atMs: NOW },
    state: { slackWriteAt: 0, messageHintedAt: -10 * MIN },
    out: { do: 'look', rule: 'first-look', at: 30 * S },
  },
  {
    rule: 'a watching feed at a stretch of 1 or more also puts the first look 30 s later',
    event: { type: 'slack-write', atMs: NOW },
    state: { slackWriteAt: 0 },
    pace: { watched: true },
    out: { do: 'look', at: 30 * S },
  },
  {
    rule: 'a watching feed with budget to spare keeps the 2 s look',
    event: { type: 'slack-write', atMs: NOW },
    state: { slackWriteAt: 0 },
    pace: { watched: true, stretch: 0.5 },
    out: { do: 'look', at: 2 * S },
  },
  {
    rule: 'a write to a resolved ticket (the message reopens it) reads the activity',
    event: { type: 'slack-write', atMs: NOW },
    state: { slackWriteAt: 0, status: 'resolved' },
    out: { do: 'look', at: 2 * S, kind: 'activity', priority: 'hinted' },
  },
  {
    rule: 'the fixed strategy does not hurry for a write',
    event: { type: 'slack-write', atMs: NOW },
    state: { slackWriteAt: 0 },
    rules: fixed,
    out: { do: 'look', at: 5 * MIN },
  },
  {
    rule: 'a change made from Slack is looked at at once, reading the activity',
    event: { type: 'slack-change' },
    state: { hintedAt: 0 },
    out: { do: 'look', rule: 'slack-change', at: 0, kind: 'activity', priority: 'hinted' },
  },
  {
    rule: 'a write not posted at once is looked for a second later',
    event: { type: 'post-failed' },
    state: { messageHintedAt: 0 },
    out: { do: 'look', rule: 'post-failed', at: S, kind: 'messages', priority: 'awaited' },
  },
  {
    rule: 'a write Slack deferred is looked for when Slack allows',
    event: { type: 'post-failed', retryAt: NOW + 7 * S },
    out: { do: 'look', rule: 'post-failed', at: 7 * S },
  },
  // --- Hints (webhooks, the change feed) ----------------------------------------------------
  {
    rule: 'a hint of a change is looked at 1 s later (a burst shares it), reading the activity',
    event: { type: 'hint', scope: 'change', dueAt: undefined },
    out: { do: 'look', rule: 'hint', at: S, kind: 'activity', priority: 'hinted' },
  },
  {
    rule: 'a message hint reads the messages alone, as what people wait for',
    event: { type: 'hint', scope: 'message', dueAt: undefined },
    out: { do: 'look', rule: 'hint', at: S, kind: 'messages', priority: 'awaited' },
  },
  {
    rule: 'a change the webhook announced reads the activity, as what people wait for',
    event: { type: 'hint', scope: 'announced', dueAt: undefined },
    out: { do: 'look', rule: 'hint', at: S, kind: 'activity', priority: 'awaited' },
  },
  {
    rule: 'hinted looks at one ticket are 5 s apart at least',
    event: { type: 'hint', scope: 'change', dueAt: undefined },
    state: { lastPolledAt: -2 * S },
    out: { do: 'look', rule: 'hint', at: 3 * S },
  },
  {
    rule: 'the first message hint within 1 s of a write is the write’s own: it waits for its look',
    event: { type: 'hint', scope: 'message', dueAt: NOW + 1_500 },
    state: { slackWriteAt: -500 },
    out: { do: 'keep', rule: 'own-write' },
  },
  {
    rule: 'a message hint 1 s or more after a write is the answer’s',
    event: { type: 'hint', scope: 'message', dueAt: NOW + 1_000 },
    state: { slackWriteAt: -S },
    out: { do: 'look', rule: 'hint', at: S },
  },
  {
    rule: 'a message hint is not taken for the write’s own when the write’s look is far',
    event: { type: 'hint', scope: 'message', dueAt: NOW + MIN },
    state: { slackWriteAt: -500 },
    out: { do: 'look', rule: 'hint', at: S },
  },
  {
    rule: 'a thread linked (a re-link, a triage card) is brought in at once',
    event: { type: 'linked' },
    out: { do: 'look', rule: 'linked', at: 0 },
  },
  // --- A claimed look: now, or trusted until later -------------------------------------------
  {
    rule: 'a routine look is made now and waits for the pacer’s room',
    event: claimed,
    out: {
      do: 'look',
      rule: 'look-now',
      at: 0,
      kind: 'activity',
      priority: 'routine',
      gated: true,
      messagesFirst: false,
    },
  },
  {
    rule: 'the first look after a write is one request only the budget holds back',
    event: claimed,
    state: { slackWriteAt: -2 * S },
    out: { at: 0, kind: 'messages', priority: 'awaited', gated: false, messagesFirst: true },
  },
  {
    rule: 'an announced change asks the pacer for room for what follows its read',
    event: claimed,
    state: { hintedAt: -S, announcedAt: -S },
    out: { at: 0, kind: 'activity', priority: 'awaited', gated: true, messagesFirst: false },
  },
  {
    rule: 'a message hinted while a change waits: the message goes first if the change finds no room',
    event: claimed,
    state: { hintedAt: -S, messageHintedAt: -S },
    out: { at: 0, kind: 'activity', priority: 'hinted', gated: true, messagesFirst: true },
  },
  {
    rule: 'the fixed strategy lets every look wait its turn',
    event: claimed,
    state: { messageHintedAt: -S },
    rules: fixed,
    out: { at: 0, kind: 'activity', priority: 'routine', gated: true, messagesFirst: false },
  },
  {
    rule: 'a look a watching feed vouches for waits until the strategy’s next look',
    event: claimed,
    state: { lastActivityAt: -5 * MIN },
    pace: { watched: true, trustMs: 10 * HOUR },
    out: { do: 'look', rule: 'trusted', at: 30 * MIN },
  },
  {
    rule: 'a vouched look is made once the last look is no longer trusted',
    event: claimed,
    state: { lastActivityAt: -5 * MIN },
    pace: { watched: true, trustMs: 20 * MIN },
    out: { do: 'look', rule: 'trusted', at: 19 * MIN },
  },
  {
    rule: 'a look older than the trust is made now',
    event: claimed,
    state: { lastPolledAt: -2 * HOUR },
    pace: { watched: true, trustMs: HOUR },
    out: { do: 'look', rule: 'look-now', at: 0 },
  },
  {
    rule: 'a look something asked for (a hint since the last look) is made now, watched or not',
    event: claimed,
    state: { messageHintedAt: -S },
    pace: { watched: true, trustMs: 10 * HOUR },
    out: { do: 'look', rule: 'look-now', at: 0, kind: 'messages', priority: 'awaited' },
  },
  {
    rule: 'the trust is the pace’s unless the rules set one',
    event: claimed,
    state: { lastActivityAt: -5 * MIN },
    pace: { watched: true, trustMs: 10 * HOUR },
    rules: trusting(20 * MIN),
    out: { do: 'look', rule: 'trusted', at: 19 * MIN },
  },
  // --- The feed found the ticket unchanged -------------------------------------------------
  {
    rule: 'a feed scan moves a look at an unchanged ticket to the strategy’s next',
    event: { type: 'unchanged', dueAt: NOW },
    state: { lastActivityAt: -5 * MIN },
    pace: { trustMs: 10 * HOUR },
    out: { do: 'look', rule: 'trusted', at: 5 * MIN },
  },
  {
    rule: 'a feed scan never moves a look past the trust since the last real one',
    event: { type: 'unchanged', dueAt: NOW },
    state: { lastActivityAt: -5 * HOUR },
    pace: { idleIntervalMs: 6 * HOUR, trustMs: HOUR },
    out: { do: 'look', rule: 'trusted', at: 59 * MIN },
  },
  {
    rule: 'a feed scan never moves the first look after a write from Slack',
    event: { type: 'unchanged', dueAt: NOW },
    state: { slackWriteAt: -10 * S, lastActivityAt: -5 * MIN },
    pace: { trustMs: 10 * HOUR },
    out: { do: 'keep', rule: 'not-moved' },
  },
  {
    rule: 'a feed scan never moves the look at a change left hinted by a messages-first look',
    // The worker read the messages alone and hinted the change again 1 ms after that look: the
    // listing looks unchanged since it, but the activity is still unread.
    event: { type: 'unchanged', dueAt: NOW },
    state: { lastActivityAt: -5 * MIN, hintedAt: -MIN + 1 },
    pace: { trustMs: 10 * HOUR },
    out: { do: 'keep', rule: 'not-moved' },
  },
  {
    rule: 'a feed scan never moves the look at a change the platform announced',
    event: { type: 'unchanged', dueAt: NOW },
    state: { lastActivityAt: -5 * MIN, hintedAt: -10 * S, announcedAt: -10 * S },
    pace: { trustMs: 10 * HOUR },
    out: { do: 'keep', rule: 'not-moved' },
  },
  {
    rule: 'a feed scan never moves the look a message hint asked for',
    event: { type: 'unchanged', dueAt: NOW },
    state: { lastActivityAt: -5 * MIN, messageHintedAt: -10 * S },
    pace: { trustMs: 10 * HOUR },
    out: { do: 'keep', rule: 'not-moved' },
  },
  {
    rule: 'a feed scan never moves a look earlier',
    event: { type: 'unchanged', dueAt: NOW + HOUR },
    state: { lastActivityAt: -5 * MIN },
    pace: { trustMs: 10 * HOUR },
    out: { do: 'keep', rule: 'not-moved' },
  },
  {
    rule: 'a feed scan lets a ticket not looked at within the trust have its look',
    event: { type: 'unchanged', dueAt: NOW },
    state: { lastPolledAt: -2 * HOUR },
    pace: { trustMs: HOUR },
    out: { do: 'keep', rule: 'not-moved' },
  },
  // --- The pacer, the budget, Slack and failures --------------------------------------------
  {
    rule: 'a routine look the pacer turned away waits for room, 30 s at least',
    event: { type: 'no-room', priority: 'routine', roomAt: NOW + 10 * S, random: 0 },
    out: { do: 'look', rule: 'no-room', at: 30 * S },
  },
  {
    rule: 'a routine look waits for room 10 min at most',
    event: { type: 'no-room', priority: 'routine', roomAt: NOW + HOUR, random: 0 },
    out: { do: 'look', rule: 'no-room', at: 10 * MIN },
  },
  {
    rule: 'a look someone waits on waits for room 2 min at most',
    event: { type: 'no-room', priority: 'hinted', roomAt: NOW + HOUR, random: 0 },
    out: { do: 'look', rule: 'no-room', at: 2 * MIN },
  },
  {
    rule: 'an awaited look turned away asks again 5 s later',
    event: { type: 'no-room', priority: 'awaited', roomAt: NOW + S, random: 0 },
    out: { do: 'look', rule: 'no-room', at: 5 * S },
  },
  {
    rule: 'the wait for room gets up to half again of jitter',
    event: { type: 'no-room', priority: 'routine', roomAt: NOW + MIN, random: 1 },
    out: { do: 'look', rule: 'no-room', at: 90 * S },
  },
  {
    rule: 'a look the budget deferred goes when it allows, spread over a second',
    event: { type: 'deferred', retryAt: NOW + 5 * S, slack: false, random: 0.5 },
    out: { do: 'look', rule: 'deferred', at: 5_500 },
  },
  {
    rule: 'a post Slack deferred holds the look: nothing brings it before Slack’s time',
    event: { type: 'deferred', retryAt: NOW + 5 * S, slack: true, random: 0 },
    out: { do: 'look', rule: 'slack-hold', at: 5 * S, notBefore: 5 * S },
  },
  {
    rule: 'a post another replica is sending: the look waits out its claim',
    event: { type: 'busy', postLeaseMs: 30 * S },
    out: { do: 'look', rule: 'busy', at: 30 * S },
  },
  {
    rule: 'a failed look is retried after 5 s, half of it jitter',
    event: { type: 'failed', gone: false, random: 0 },
    state: { backoffStep: 1 },
    out: { do: 'look', rule: 'retry', at: 2_500 },
  },
  {
    rule: 'each failure in a row doubles the wait, up to 5 min',
    event: { type: 'failed', gone: false, random: 1 },
    state: { backoffStep: 12 },
    out: { do: 'look', rule: 'retry', at: 5 * MIN },
  },
  {
    rule: 'a ticket gone for this key is not looked at again',
    event: { type: 'failed', gone: true, random: 0 },
    out: { do: 'stop', rule: 'gone' },
  },
];

describe('look policy', () => {
  it.each(ROWS)('$rule', (row) => {
    const decision = nextLook({
      event: row.event,
      state: record(row.state),
      pace: { ...PACE, ...row.pace },
      now: NOW,
      rules: row.rules ?? adaptive,
    });
    const relative: Record<string, unknown> = { ...decision };
    for (const key of ['at', 'notBefore'] as const) {
      if (typeof relative[key] === 'number') relative[key] = (relative[key] as number) - NOW;
    }
    expect(relative).toMatchObject(row.out);
  });

  it('decides the same for a ticket with no record as for an empty one', () => {
    const input = { event: claimed, pace: PACE, now: NOW, rules: adaptive };
    expect(nextLook({ ...input, state: undefined })).toEqual(
      nextLook({ ...input, state: initialMirrorState() }),
    );
  });
});

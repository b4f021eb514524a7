import { describe, expect, it } from 'vitest';
import {
  AdaptivePlanner,
  FixedPlanner,
  initialMirrorState,
  type MirrorState,
  type Pace,
} from '../../src/mirror/index.ts';

const NOW = 1_767_225_600_000;
const MINUTE = 60_000;
const HOUR = 3_600_000;
const PACE: Pace = { stretch: 1, idleIntervalMs: HOUR };

function state(overrides: Partial<MirrorState> = {}): MirrorState {
  return {
    ...initialMirrorState(),
    lastPolledAt: NOW - MINUTE,
    status: 'open',
    ...overrides,
  };
}

const planner = new AdaptivePlanner();
const waitOf = (s: MirrorState, pace = PACE) => {
  const next = planner.next(s, NOW, pace);
  return next === 'stop' ? 'stop' : next - NOW;
};

describe('adaptive poll planner', () => {
  it('looks for the answer two seconds after a write from Slack', () => {
    expect(planner.afterSlackWrite(NOW)).toBe(NOW + 2_000);
    expect(planner.afterSlackWrite(NOW, state())).toBe(NOW + 2_000);
  });

  it('looks half a minute after a write from Slack while the platform’s message hints arrive, as the answer’s hint will come first', () => {
    expect(planner.afterSlackWrite(NOW, state({ messageHintedAt: NOW - 600_000 }))).toBe(
      NOW + 30_000,
    );
    expect(planner.afterSlackWrite(NOW, state({ messageHintedAt: NOW - 2 * HOUR }))).toBe(
      NOW + 2_000,
    );
  });

  it('asks for the messages alone while a write from Slack waits for its answer', () => {
    const waiting = state({ slackWriteAt: NOW - 2_000, lastAnswerAt: NOW - HOUR });
    expect(planner.kind(waiting, NOW)).toBe('messages');
    expect(planner.kind({ ...waiting, lastAnswerAt: NOW - 500 }, NOW)).toBe('activity');
  });

  it('reads the activity on a first look the platform hinted at, since the hint may be any change', () => {
    const waiting = state({ slackWriteAt: NOW - 1_000, lastAnswerAt: 0, lastPolledAt: 0 });
    expect(planner.kind({ ...waiting, hintedAt: NOW - 500 }, NOW)).toBe('activity');
  });

  it('reads the messages alone on a look a message hint asked for, and the activity when any other hint came too', () => {
    const hinted = state({ messageHintedAt: NOW - 500 });
    expect(planner.kind(hinted, NOW)).toBe('messages');
    expect(planner.kind({ ...hinted, hintedAt: NOW - 400 }, NOW)).toBe('activity');
  });

  it('tells that messages are awaited on the first look after a write and on a look a message hint asked for, and not otherwise', () => {
    const firstLook = state({ slackWriteAt: NOW - 2_000, lastAnswerAt: NOW - HOUR });
    expect(planner.messagesAwaited(firstLook, NOW)).toBe(true);
    expect(planner.messagesAwaited(state({ messageHintedAt: NOW - 500 }), NOW)).toBe(true);
    expect(planner.messagesAwaited({ ...firstLook, lastPolledAt: NOW - 1_000 }, NOW)).toBe(false);
    expect(planner.messagesAwaited(state({ hintedAt: NOW - 500 }), NOW)).toBe(false);
  });

  it('ranks what a person waits for above a hinted change, and a hinted change above a routine look', () => {
    const firstLook = state({ slackWriteAt: NOW - 2_000, lastAnswerAt: NOW - HOUR });
    expect(planner.priority(firstLook, NOW)).toBe('awaited');
    expect(planner.priority(state({ messageHintedAt: NOW - 500 }), NOW)).toBe('awaited');
    expect(planner.priority(state({ hintedAt: NOW - 500 }), NOW)).toBe('hinted');
    expect(planner.priority({ ...firstLook, hintedAt: NOW - 500 }, NOW)).toBe('hinted');
    expect(planner.priority({ ...firstLook, status: 'resolved' }, NOW)).toBe('hinted');
    expect(planner.priority(state({ hintedAt: NOW - 500, messageHintedAt: NOW - 400 }), NOW)).toBe(
      'hinted',
    );
    expect(planner.priority(state(), NOW)).toBe('routine');
    expect(planner.priority(state({ hintedAt: NOW - 2 * MINUTE }), NOW)).toBe('routine');
  });

  it('ranks a look at a change the platform’s webhook announced (a status, priority or assignee) as a hinted message’s, with or without a message', () => {
    const announced = { hintedAt: NOW - 500, announcedAt: NOW - 500 };
    const firstLook = state({ slackWriteAt: NOW - 2_000, lastAnswerAt: NOW - HOUR });
    expect(planner.priority(state(announced), NOW)).toBe('awaited');
    expect(planner.priority({ ...firstLook, ...announced }, NOW)).toBe('awaited');
    expect(planner.priority(state({ ...announced, messageHintedAt: NOW - 400 }), NOW)).toBe(
      'awaited',
    );
    expect(planner.kind(state(announced), NOW)).toBe('activity');
    expect(planner.priority(state({ ...announced, lastPolledAt: NOW - 100 }), NOW)).toBe('routine');
  });

  it('leaves an awaited answer to the platform’s hints while they arrive, looking only every half hour', () => {
    const waiting = { slackWriteAt: NOW - 2_000, lastActivityAt: NOW - 2_000, lastAnswerAt: 0 };
    expect(waitOf(state(waiting))).toBe(10_000);
    expect(waitOf(state({ ...waiting, messageHintedAt: NOW - 2_000 }))).toBe(30 * MINUTE);
    expect(waitOf(state({ ...waiting, messageHintedAt: NOW - 2 * HOUR }))).toBe(10_000);
  });

  it('looks at nothing speculatively while a change feed by updated_after watches every ticket', () => {
    const watched: Pace = { ...PACE, watched: true };
    const waiting = { slackWriteAt: NOW - 2_000, lastActivityAt: NOW - 2_000, lastAnswerAt: 0 };
    expect(waitOf(state(waiting), watched)).toBe(30 * MINUTE);
    expect(planner.afterSlackWrite(NOW, state(), watched)).toBe(NOW + 30_000);
    expect(planner.afterSlackWrite(NOW, state(), { ...watched, stretch: 0.5 })).toBe(NOW + 2_000);
  });

  it('keeps the safety net within the idle interval, and stretches it with the rest', () => {
    const pushed = state({ lastActivityAt: NOW - 5_000, messageHintedAt: NOW - 5_000 });
    expect(waitOf(pushed, { stretch: 1, idleIntervalMs: 10 * MINUTE })).toBe(10 * MINUTE);
    expect(waitOf(pushed, { stretch: 0.5, idleIntervalMs: HOUR })).toBe(15 * MINUTE);
    expect(waitOf(pushed, { stretch: 2, idleIntervalMs: HOUR })).toBe(HOUR);
  });

  it('reads the activity on the first look after a write to a ticket a requester’s message reopens, hint or none', () => {
    const write = { slackWriteAt: NOW - 2_000, lastAnswerAt: NOW - HOUR };
    expect(planner.kind(state({ ...write, status: 'resolved' }), NOW)).toBe('activity');
    expect(planner.kind(state({ ...write, status: 'waiting_on_requester' }), NOW)).toBe('activity');
    const hinted = { ...write, messageHintedAt: NOW - 500 };
    expect(planner.kind(state({ ...hinted, status: 'waiting_on_requester' }), NOW)).toBe(
      'activity',
    );
    expect(planner.kind(state({ ...hinted, status: 'in_progress' }), NOW)).toBe('messages');
  });

  it('reads the messages alone on later looks for an awaited answer while the budget is tight and no hints come', () => {
    const tight: Pace = { stretch: 4, idleIntervalMs: HOUR };
    const looked = state({
      slackWriteAt: NOW - 4 * MINUTE,
      lastPolledAt: NOW - MINUTE,
      lastAnswerAt: NOW - HOUR,
    });
    expect(planner.kind(looked, NOW, tight)).toBe('messages');
    expect(planner.kind(looked, NOW)).toBe('activity');
    expect(planner.kind(looked, NOW, { ...tight, watched: true })).toBe('activity');
    const pushed = { ...looked, messageHintedAt: NOW - 10 * MINUTE };
    expect(planner.kind(pushed, NOW, tight)).toBe('activity');
  });

  it('ranks a later look for an awaited answer below the first look and above a routine one where no hints come', () => {
    const looked = state({
      slackWriteAt: NOW - 4_000,
      lastPolledAt: NOW - 2_000,
      lastAnswerAt: NOW - HOUR,
    });
    expect(planner.priority(looked, NOW)).toBe('hinted');
    expect(planner.priority({ ...looked, lastPolledAt: NOW - 5_000 }, NOW)).toBe('awaited');
    const later = { ...looked, slackWriteAt: NOW - 10 * MINUTE, lastPolledAt: NOW - MINUTE };
    expect(planner.priority(later, NOW)).toBe('hinted');
    expect(planner.priority(later, NOW, { ...PACE, watched: true })).toBe('routine');
    expect(planner.priority({ ...later, slackWriteAt: NOW - 16 * MINUTE }, NOW)).toBe('routine');
  });

  it('looks at a ticket in conversation at least every minute, or every ten seconds times a tight budget’s stretch, however long it has been quiet', () => {
    const talked = state({
      slackWriteAt: NOW - 20 * MINUTE,
      lastActivityAt: NOW - 20 * MINUTE,
      lastAnswerAt: NOW - 19 * MINUTE,
    });
    expect(waitOf(talked)).toBe(MINUTE);
    expect(waitOf(talked, { stretch: 0.5, idleIntervalMs: HOUR })).toBe(MINUTE);
    expect(waitOf(talked, { stretch: 32, idleIntervalMs: HOUR })).toBe(320_000);
    const justAnswered = { ...talked, lastActivityAt: NOW - 15_000, lastAnswerAt: NOW - 15_000 };
    expect(waitOf(justAnswered)).toBe(15_000);
  });

  it('leaves conversations out of the turn where hints cover them, once resolved, and an hour after the last write', () => {
    const talked = {
      slackWriteAt: NOW - 20 * MINUTE,
      lastActivityAt: NOW - 20 * MINUTE,
      lastAnswerAt: NOW - 19 * MINUTE,
    };
    expect(waitOf(state(talked), { ...PACE, watched: true })).toBe(30 * MINUTE);
    expect(waitOf(state({ ...talked, messageHintedAt: NOW - 10 * MINUTE }))).toBe(30 * MINUTE);
    expect(waitOf(state({ ...talked, status: 'resolved', settledAt: NOW - MINUTE }))).toBe(
      30 * MINUTE,
    );
    const earlier = { slackWriteAt: NOW - 61 * MINUTE, lastActivityAt: NOW - 61 * MINUTE };
    expect(waitOf(state(earlier))).toBe(HOUR);
  });

  it('asks for the activity once the write is answered, or has waited longer than the window', () => {
    expect(planner.kind(state(), NOW)).toBe('activity');
    const stale = state({ slackWriteAt: NOW - 20 * MINUTE, lastAnswerAt: NOW - HOUR });
    expect(planner.kind(stale, NOW)).toBe('activity');
  });

  it('polls a ticket more rarely the longer it has been quiet', () => {
    expect(waitOf(state({ lastActivityAt: NOW - 5_000 }))).toBe(10_000);
    expect(waitOf(state({ lastActivityAt: NOW - 2 * MINUTE }))).toBe(2 * MINUTE);
    expect(waitOf(state({ lastActivityAt: NOW - 20 * MINUTE }))).toBe(20 * MINUTE);
  });

  it('never waits longer than the idle interval for an open ticket', () => {
    const quiet = state({ lastActivityAt: NOW - 3 * 86_400_000 });
    expect(waitOf(quiet)).toBe(HOUR);
    expect(waitOf(quiet, { stretch: 1, idleIntervalMs: 4 * HOUR })).toBe(4 * HOUR);
  });

  it('stretches its intervals when the budget is tight and shrinks them when it is idle', () => {
    const s = state({ lastActivityAt: NOW - 10 * MINUTE });
    expect(waitOf(s, { stretch: 3, idleIntervalMs: HOUR })).toBe(30 * MINUTE);
    expect(waitOf(s, { stretch: 0.5, idleIntervalMs: HOUR })).toBe(5 * MINUTE);
  });

  it('spends budget left over on recently active tickets, never on quiet ones', () => {
    const quiet = state({ lastActivityAt: NOW - 3 * 86_400_000 });
    expect(waitOf(quiet, { stretch: 0.25, idleIntervalMs: HOUR })).toBe(HOUR);
    expect(waitOf(quiet, { stretch: 2, idleIntervalMs: HOUR })).toBe(2 * HOUR);
  });

  it('stretches even the shortest interval when the budget is tight, but never the first look', () => {
    const busy = state({ lastActivityAt: NOW - 1_000 });
    expect(waitOf(busy, { stretch: 3, idleIntervalMs: HOUR })).toBe(30_000);
    expect(planner.afterSlackWrite(NOW)).toBe(NOW + 2_000);
  });

  it('counts a write from Slack as activity', () => {
    const wrote = state({
      lastActivityAt: NOW - 3 * HOUR,
      slackWriteAt: NOW - 90 * MINUTE,
      lastAnswerAt: NOW,
    });
    expect(waitOf(wrote, { stretch: 1, idleIntervalMs: 4 * HOUR })).toBe(90 * MINUTE);
  });

  it('looks again and again for an unanswered write, further apart each time up to the conversations’ turn', () => {
    const tight: Pace = { stretch: 32, idleIntervalMs: HOUR };
    const waiting = (ago: number) =>
      waitOf(state({ slackWriteAt: NOW - ago, lastActivityAt: NOW - ago, lastAnswerAt: 0 }), tight);
    expect(waiting(500)).toBe(10_000);
    expect(waiting(2_000)).toBe(32_000);
    expect(waiting(10_000)).toBe(160_000);
    expect(waiting(60_000)).toBe(320_000);
    expect(waitOf(state({ slackWriteAt: NOW - 8 * MINUTE, lastAnswerAt: 0 }))).toBe(MINUTE);
  });

  it('polls a resolved ticket at least half an hour apart, and stops after three days', () => {
    const resolved = state({
      status: 'resolved',
      settledAt: NOW - HOUR,
      lastActivityAt: NOW - 10_000,
    });
    expect(waitOf(resolved)).toBe(30 * MINUTE);
    expect(waitOf({ ...resolved, settledAt: NOW - 3 * 86_400_000 })).toBe('stop');
  });

  it('stops polling a closed ticket', () => {
    expect(waitOf(state({ status: 'closed', lastActivityAt: NOW }))).toBe('stop');
  });

  it('backs off after failures, doubling up to a cap, with jitter', () => {
    const at = (step: number, random: number) =>
      planner.retryAt(state({ backoffStep: step }), NOW, random) - NOW;
    expect(at(1, 0)).toBe(2_500);
    expect(at(1, 1)).toBe(5_000);
    expect(at(3, 1)).toBe(20_000);
    expect(at(20, 1)).toBe(300_000);
  });
});

describe('fixed poll planner', () => {
  const fixed = new FixedPlanner(45 * MINUTE);

  it('polls every ticket on one timer, whatever happens to it', () => {
    expect(fixed.next(state({ lastActivityAt: NOW }), NOW)).toBe(NOW + 45 * MINUTE);
    expect(fixed.afterSlackWrite(NOW)).toBe(NOW + 45 * MINUTE);
    expect(fixed.kind()).toBe('activity');
    expect(fixed.priority()).toBe('routine');
  });

  it('still stops at a closed ticket', () => {
    expect(fixed.next(state({ status: 'closed' }), NOW)).toBe('stop');
  });
});

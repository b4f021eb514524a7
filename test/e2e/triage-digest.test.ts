/**
 * The morning summary end to end: the real app over HTTP against the emulator (its seeded
 * tickets) and the Slack double, on Redis, with the digest's clock injected (the test says
 * when it is 09:00; waits between looks are cut to 50 ms). Each private triage channel gets one
 * summary per day across two replicas and a restart, and after Slack's 429 and 500; a public
 * one gets none.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { sleep } from '../../src/clock.ts';
import { TRIAGE_CATCH_ALL } from '../../src/store/types.ts';
import { defaultIds } from '../../tools/slack-double/index.ts';
import { eventually } from '../support/eventually.ts';
import { ROUTED_DESK, type Stack, startStack } from '../support/stack.ts';

const { agentsPrivate, hrPrivate, itHelp, bot } = defaultIds;
const ERROR = '"level":50';
// Monday 30 November 2026.
const EIGHT = Date.parse('2026-11-30T08:00:00Z');
const NINE = Date.parse('2026-11-30T09:00:00Z');

describe('the triage digest', () => {
  let stack: Stack;
  afterEach(async () => {
    await stack?.close();
  });

  let now = EIGHT;
  const clock = {
    now: () => now,
    // Every wait is cut short: the loop looks at the injected clock every 50 ms.
    sleep: (ms: number, signal?: AbortSignal) =>
      sleep(Math.min(ms, 50), signal, { keepsAlive: false }),
  };

  async function start(channels: { desk: string; channel: string }[]) {
    now = EIGHT;
    stack = await startStack({ triageDigest: { at: '09:00', tz: 'UTC', clock } });
    // The catch-all: #hr-private, with the app invited.
    stack.double.workspace.addMember(hrPrivate, bot);
    for (const { desk, channel } of channels) {
      await stack.app.stores.triageChannels.set(desk, channel);
    }
  }

  const digestsIn = (channel: string) =>
    stack.double.workspace
      .messages(channel)
      .filter((m) => m.metadata?.event_type === 'triage_digest');

  it('posts one summary in each triage channel at 09:00 across two replicas, and none more after a restart', async () => {
    await start([
      { desk: ROUTED_DESK, channel: agentsPrivate },
      { desk: TRIAGE_CATCH_ALL, channel: hrPrivate },
    ]);
    const second = await stack.addReplica();
    await sleep(300);
    expect(digestsIn(agentsPrivate)).toEqual([]);

    now = NINE;
    await eventually(() => digestsIn(agentsPrivate).length === 1, 10_000, 'the IT summary');
    await eventually(() => digestsIn(hrPrivate).length === 1, 10_000, 'the catch-all summary');
    const [summary] = digestsIn(agentsPrivate);
    expect(summary?.metadata?.event_payload).toEqual({ date: '2026-11-30' });
    expect(summary?.text).toMatch(/^Morning summary for Monday 30 November: \d+ open/);
    // The emulator's seeded IT tickets: some open, and the oldest unassigned linked.
    expect(JSON.stringify(summary?.blocks)).toContain('Oldest unassigned');

    await second.stop();
    const third = await stack.addReplica();
    now = NINE + 60 * 60_000;
    await sleep(1_000);
    expect(third).toBeDefined();
    expect(digestsIn(agentsPrivate)).toHaveLength(1);
    expect(digestsIn(hrPrivate)).toHaveLength(1);
  });

  it('posts once after Slack answers 429 with Retry-After and then 500', async () => {
    await start([{ desk: ROUTED_DESK, channel: agentsPrivate }]);
    await stack.addReplica();
    stack.double.failNext('chat.postMessage', 'ratelimited', { retryAfterSec: 1 });
    stack.double.failNext('chat.postMessage', 'internal_error', { status: 500, times: 2 });
    const refused = (count: number) =>
      eventually(
        () => stack.double.callsTo('chat.postMessage').filter((c) => c.injected).length === count,
        10_000,
        `${count} refused posts`,
      );
    now = NINE;
    await refused(1);
    // Past the Retry-After (Slack's hold is real time: one second).
    await sleep(1_100);
    now = NINE + 5_000;
    await refused(3);
    // The 500s leave it for a minute: the clock moves on.
    now = NINE + 2 * 60_000;
    await eventually(() => digestsIn(agentsPrivate).length === 1, 10_000, 'the summary');
    await sleep(500);
    expect(digestsIn(agentsPrivate)).toHaveLength(1);
  });

  it('posts no summary in a public channel, and says so at error level', async () => {
    await start([{ desk: ROUTED_DESK, channel: itHelp }]);
    now = NINE;
    await eventually(
      () =>
        stack.logs.some(
          (line) => line.includes(ERROR) && line.includes('no triage digest posted there today'),
        ),
      10_000,
      'the error',
    );
    expect(digestsIn(itHelp)).toEqual([]);
    // Its figures were never read: no list of tickets went to the platform.
    expect(stack.platformRequests.filter((op) => op === 'listTickets')).toEqual([]);
  });
});

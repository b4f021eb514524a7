/**
 * The change feed end to end: with per-ticket polling as good as off (a look an hour), an
 * agent's reply on the emulator still reaches the Slack thread within seconds, found by the
 * feed (the `updated_after` filter, or a sweep of `updated_at` on a platform without it) and
 * brought by the mirror's ordinary poll.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { FixedPlanner } from '../../src/mirror/index.ts';
import { defaultIds } from '../../tools/slack-double/index.ts';
import { eventually } from '../support/eventually.ts';
import { pastOwnWrite } from '../support/past-own-write.ts';
import { type Stack, type StackOptions, startStack } from '../support/stack.ts';

const { alice } = defaultIds;
const SAM = 'sam.rivera@acme.example';
// Per-ticket polling off, in effect: no look for an hour, not even after a write from Slack.
const HOURLY = new FixedPlanner(3_600_000);
const FAST = { periodMs: 300, minPeriodMs: 100 } as const;

let stack: Stack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

/**
 * Files a ticket from a DM, has an agent reply on the platform (once the mirror has looked at
 * the ticket, when `afterALook`), and waits for the reply in the thread.
 */
async function replyReachesThread(options: StackOptions, afterALook = false): Promise<Stack> {
  stack = await startStack({ mirror: { planner: HOURLY }, ...options });
  const s = stack;
  const dm = s.double.workspace.openIm(alice);
  const sent = await s.driver.userPosts({
    userId: alice,
    channelId: dm,
    text: 'My docking station is dead',
  });
  const ticketId = await eventually(
    () => s.app.stores.links.ticketForThread(dm, sent.ts),
    10_000,
    'the ticket linked to the DM thread',
  );
  if (afterALook) {
    // The sweep's first sight of a ticket the mirror never looked at is a change already.
    await eventually(
      async () => ((await s.app.stores.mirror.state(ticketId))?.lastPolledAt ?? 0) > 0,
      10_000,
      'a first look at the ticket',
    );
  }
  await pastOwnWrite(s, ticketId);
  const reply = s.emulator.model.addAgentReply('acme', ticketId, {
    agentEmail: SAM,
    body: 'A new one is on its way',
  });
  await eventually(
    () =>
      (s.double.workspace.thread(dm, sent.ts) ?? []).find(
        (post) =>
          (post.metadata?.event_payload as { message_id?: unknown } | undefined)?.message_id ===
          reply.id,
      ),
    15_000,
    'the reply in the thread',
  );
  return s;
}

describe('the change feed', () => {
  it('finds an agent’s reply through updated_after and the mirror brings it into the thread', async () => {
    const s = await replyReachesThread({ changeFeed: { mode: 'auto', ...FAST } });
    expect(s.logs.some((line) => line.includes('"way":"filter"'))).toBe(true);
  });

  it('finds an agent’s reply by sweeping updated_at on a platform that ignores updated_after', async () => {
    const s = await replyReachesThread(
      {
        emulator: { capabilities: { updatedAfter: false } },
        changeFeed: { mode: 'auto', sweep: 'always', ...FAST },
      },
      true,
    );
    expect(s.logs.some((line) => line.includes('"way":"sweep"'))).toBe(true);
  });
});

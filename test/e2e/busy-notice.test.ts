/**
 * A write held back by the shared rate budget: the person is told the desk is busy (not down)
 * and roughly when their words will go, and nothing is lost.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultIds } from '../../tools/slack-double/index.ts';
import { eventually } from '../support/eventually.ts';
import { type Stack, startStack } from '../support/stack.ts';

const { alice } = defaultIds;

describe('a direct message past the rate budget', () => {
  let stack: Stack;
  beforeAll(async () => {
    // One request a minute: the first message is filed, the next waits for the window.
    stack = await startStack({ budget: { perMinute: 1, perHour: 1_000 } });
  });
  afterAll(async () => {
    await stack.close();
  });

  it('tells its author the desk is busy and that it will be filed within a minute', async () => {
    const dm = stack.double.workspace.openIm(alice);
    const thread = (ts: string) => stack.double.workspace.thread(dm, ts) ?? [];
    const first = await stack.driver.userPosts({
      userId: alice,
      channelId: dm,
      text: 'Mouse broke',
    });
    await eventually(() => thread(first.ts).find((m) => m.text?.includes('was filed')), 5_000);
    const second = await stack.driver.userPosts({
      userId: alice,
      channelId: dm,
      text: 'Keyboard broke too',
    });
    const notice = await eventually(
      () => thread(second.ts).find((m) => m.text?.includes(':hourglass_flowing_sand:')),
      5_000,
      'the delay notice',
    );
    expect(notice.text).toContain('Many requests are reaching the service desk right now.');
    expect(notice.text).toContain('Your ticket is saved and will be sent within a minute');
    expect((await stack.app.stores.outbox.stats()).depth).toBe(1);
  });
});

import { describe, expect, it } from 'vitest';
import { initialMirrorState } from '../../src/mirror/index.ts';
import { TicketHints } from '../../src/mirror/ticket-hints.ts';
import { createMemoryStores } from '../../src/store/index.ts';

const T0 = 1_767_225_600_000;
const THREAD = { channel: 'C0ITHELP', threadTs: '1.1' };

function setUp() {
  const clock = { now: T0 };
  const stores = createMemoryStores({ now: () => clock.now });
  const hints = new TicketHints({ stores, now: () => clock.now });
  return { clock, stores, hints };
}

describe('ticket hints', () => {
  it('costs nothing for a ticket no thread follows', async () => {
    const { stores, hints } = setUp();
    expect(await hints.hint('IT-1')).toBe('unlinked');
    expect(await stores.schedule.dueAt('IT-1')).toBeUndefined();
  });

  it('has a linked ticket looked at a second later', async () => {
    const { stores, hints } = setUp();
    await stores.links.link('IT-1', THREAD);
    expect(await hints.hint('IT-1')).toBe('scheduled');
    expect(await stores.schedule.dueAt('IT-1')).toBe(T0 + 1_000);
  });

  it('makes one look of a burst of hints', async () => {
    const { clock, stores, hints } = setUp();
    await stores.links.link('IT-1', THREAD);
    for (let i = 0; i < 1_000; i++) {
      await hints.hint('IT-1');
      clock.now += 0.5;
    }
    expect(await stores.schedule.dueAt('IT-1')).toBe(T0 + 1_000);
  });

  it('records a message hint apart from a hint of any other change', async () => {
    const { clock, stores, hints } = setUp();
    await stores.links.link('IT-1', THREAD);
    await hints.hint('IT-1', { messageOnly: true });
    expect(await stores.mirror.state('IT-1')).toMatchObject({ messageHintedAt: T0, hintedAt: 0 });
    clock.now += 10;
    await hints.hint('IT-1');
    expect(await stores.mirror.state('IT-1')).toMatchObject({
      messageHintedAt: T0,
      hintedAt: T0 + 10,
    });
  });

  it('records a change the platform’s webhook announced as announced and as a hinted change', async () => {
    const { stores, hints } = setUp();
    await stores.links.link('IT-1', THREAD);
    await hints.hint('IT-1', { announced: true });
    expect(await stores.mirror.state('IT-1')).toMatchObject({ announcedAt: T0, hintedAt: T0 });
    expect(await stores.schedule.dueAt('IT-1')).toBe(T0 + 1_000);
  });

  it('takes the first message hint just after a write from Slack for the write’s own, and leaves its look where it was', async () => {
    const { clock, stores, hints } = setUp();
    await stores.links.link('IT-1', THREAD);
    await stores.mirror.noteSlackWrite('IT-1', T0 - 300);
    await stores.schedule.pollAt('IT-1', T0 + 30_000);
    await hints.hint('IT-1', { messageOnly: true });
    expect(await stores.schedule.dueAt('IT-1')).toBe(T0 + 30_000);
    expect((await stores.mirror.state('IT-1'))?.messageHintedAt).toBe(T0);
    clock.now += 4_000;
    await hints.hint('IT-1', { messageOnly: true });
    expect(await stores.schedule.dueAt('IT-1')).toBe(T0 + 5_000);
  });

  it('looks soon at the first message hint after a write from Slack when no look at it is near', async () => {
    const { stores, hints } = setUp();
    await stores.links.link('IT-1', THREAD);
    await stores.mirror.noteSlackWrite('IT-1', T0 - 300);
    await stores.schedule.pollAt('IT-1', T0 + 3_600_000);
    await hints.hint('IT-1', { messageOnly: true });
    expect(await stores.schedule.dueAt('IT-1')).toBe(T0 + 1_000);
  });

  it('looks soon at a message hint that comes long after a write from Slack', async () => {
    const { stores, hints } = setUp();
    await stores.links.link('IT-1', THREAD);
    await stores.mirror.noteSlackWrite('IT-1', T0 - 3_000);
    await stores.schedule.pollAt('IT-1', T0 + 30_000);
    await hints.hint('IT-1', { messageOnly: true });
    expect(await stores.schedule.dueAt('IT-1')).toBe(T0 + 1_000);
  });

  it('keeps hinted looks at one ticket five seconds apart', async () => {
    const { stores, hints } = setUp();
    await stores.links.link('IT-1', THREAD);
    await stores.mirror.saveState('IT-1', { ...initialMirrorState(), lastPolledAt: T0 - 1_000 });
    await hints.hint('IT-1');
    expect(await stores.schedule.dueAt('IT-1')).toBe(T0 + 4_000);
  });
});

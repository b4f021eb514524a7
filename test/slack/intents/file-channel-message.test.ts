/** An edit that came once its request channel message's filing had started: when it can go on. */
import { describe, expect, it } from 'vitest';
import { NotFiledYetError } from '../../../src/slack/errors.ts';
import { addHeldEdit } from '../../../src/slack/intents/file-channel-message.ts';
import { messageKey } from '../../../src/slack/outbox/delivery-keys.ts';
import { isTransient } from '../../../src/slack/outbox/transient-errors.ts';
import { createMemoryStores, type ReservedEntry } from '../../../src/store/index.ts';
import { fakeDeps } from '../support/fake-deps.ts';
import { reservedEntry } from '../support/reserved-entry.ts';

const CHANNEL = 'C0LAPTOP';
// Written just now: its held entry may still be on its way.
const TS = `${Math.floor(Date.now() / 1000)}.000100`;
const payload = { channel: CHANNEL, ts: TS, userId: 'U0ALICE', body: 'edited: Laptop sleeps' };

function harness() {
  const stores = createMemoryStores({ now: Date.now });
  const deps = fakeDeps({ stores });
  const run = (ts = TS) => {
    const edit = { ...payload, ts };
    return addHeldEdit
      .runner(deps)
      .run(edit, reservedEntry(addHeldEdit, edit, { deliveryKey: 'ev:E2' }));
  };
  /** The message's filing, queued and taken by a worker. */
  async function filing(): Promise<ReservedEntry> {
    await stores.outbox.enqueue(messageKey(CHANNEL, TS), 'create_ticket', {});
    const taken = await stores.outbox.reserve('w', 60_000);
    if (!taken) throw new Error('the filing was not there to take');
    return taken;
  }
  return { stores, run, filing };
}

describe('an edit waiting for its message’s ticket', () => {
  it('waits, to be tried again, while the message is not filed yet', async () => {
    const h = harness();
    await expect(h.run()).rejects.toBeInstanceOf(NotFiledYetError);
    await h.filing();
    const error = await h.run().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFiledYetError);
    expect(isTransient(error)).toBe(true);
  });

  it('adds nothing once the filing failed for good (its writer was told) or was withdrawn', async () => {
    const failed = harness();
    await failed.stores.outbox.fail(await failed.filing(), 'HTTP 400');
    expect(await failed.run()).toEqual({ ticketId: null });
    const withdrawn = harness();
    await withdrawn.stores.outbox.complete(await withdrawn.filing(), { withdrawn: true });
    expect(await withdrawn.run()).toEqual({ ticketId: null });
  });

  it('waits for nothing when the message is old and was never held (written before auto mode)', async () => {
    const h = harness();
    expect(await h.run('1700000000.000100')).toEqual({ ticketId: null });
  });
});

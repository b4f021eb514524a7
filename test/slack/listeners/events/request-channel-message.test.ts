/** A request channel's messages: which are held for filing, and how a deletion withdraws one. */
import { describe, expect, it } from 'vitest';
import {
  addHeldEdit,
  fileChannelMessage,
  heldMessageKey,
} from '../../../../src/slack/intents/file-channel-message.ts';
import type { CheckedMessageEvent } from '../../../../src/slack/listeners/events/event-shapes.ts';
import {
  holdRequestChannelMessage,
  type TopLevelMessage,
  takeUnfiledEdit,
  withdrawDeletedMessage,
} from '../../../../src/slack/listeners/events/request-channel-message.ts';
import { messageKey } from '../../../../src/slack/outbox/delivery-keys.ts';
import { createMemoryStores, type ReservedEntry } from '../../../../src/store/index.ts';
import { fakeDeps } from '../../support/fake-deps.ts';

const CHANNEL = 'C0LAPTOP';
const TS = '1700000000.000100';

function harness(settings: { modes?: Map<string, 'auto' | 'off'>; holdMs?: number } = {}) {
  let offset = 0;
  const stores = createMemoryStores({ now: () => Date.now() + offset });
  const deps = fakeDeps({
    stores,
    settings: {
      ticketEmoji: 'ticket',
      channelDesks: new Map([[CHANNEL, 'it']]),
      channelModes: settings.modes ?? new Map(),
      dashboardUrl: undefined,
      submitWaitMs: 0,
      ...(settings.holdMs !== undefined ? { autoChannelHoldMs: settings.holdMs } : {}),
    },
  });
  return {
    deps,
    stores,
    /** Moves the stores' clock on, as time passing would. */
    later(ms: number) {
      offset += ms;
    },
    due: () => stores.outbox.reserve('test-worker', 60_000),
  };
}

const message = (overrides: Partial<TopLevelMessage> = {}): TopLevelMessage => ({
  channel: CHANNEL,
  channelType: 'channel',
  ts: TS,
  user: 'U0ALICE',
  ticket: { title: 'Laptop will not wake', description: 'Laptop will not wake' },
  ...overrides,
});

const deletion = (previous: Record<string, unknown>): CheckedMessageEvent =>
  ({
    type: 'message',
    subtype: 'message_deleted',
    channel: CHANNEL,
    channel_type: 'channel',
    ts: '1700000009.000100',
    previous_message: { ts: TS, user: 'U0ALICE', text: 'Oops', ...previous },
  }) as CheckedMessageEvent;

describe('request channel messages', () => {
  it('holds an auto channel’s message for 3 s, then it is due, filed on the channel’s desk with delays told privately', async () => {
    const h = harness();
    await h.stores.channelModes.set(CHANNEL, 'auto');
    expect(await holdRequestChannelMessage(h.deps, message())).toBe(true);
    expect(await h.due()).toBeUndefined();
    h.later(3_000);
    const entry = (await h.due()) as ReservedEntry;
    expect(entry.deliveryKey).toBe(heldMessageKey(CHANNEL, TS));
    expect(entry.kind).toBe(fileChannelMessage.kind);
    expect(entry.payload).toMatchObject({
      filing: {
        actorUserId: 'U0ALICE',
        ticket: { title: 'Laptop will not wake', desk_id: 'it' },
        reply: { kind: 'thread', channel: CHANNEL, threadTs: TS },
        tellDelayPrivately: true,
      },
    });
  });

  it('holds as long as the settings say', async () => {
    const h = harness({ holdMs: 10_000 });
    await h.stores.channelModes.set(CHANNEL, 'auto');
    await holdRequestChannelMessage(h.deps, message());
    h.later(9_000);
    expect(await h.due()).toBeUndefined();
    h.later(1_000);
    expect(await h.due()).toBeDefined();
  });

  it('holds one entry for one message, however often it comes', async () => {
    const h = harness();
    await h.stores.channelModes.set(CHANNEL, 'auto');
    await holdRequestChannelMessage(h.deps, message());
    await holdRequestChannelMessage(h.deps, message());
    expect((await h.stores.outbox.stats()).depth).toBe(1);
  });

  it('files nothing in a channel no one set to auto', async () => {
    const h = harness();
    expect(await holdRequestChannelMessage(h.deps, message())).toBe(false);
    expect((await h.stores.outbox.stats()).depth).toBe(0);
  });

  it('takes CHANNEL_MODES as the default, and an agent’s off wins over it', async () => {
    const h = harness({ modes: new Map([[CHANNEL, 'auto']]) });
    expect(await holdRequestChannelMessage(h.deps, message())).toBe(true);
    await h.stores.channelModes.set(CHANNEL, 'off');
    expect(await holdRequestChannelMessage(h.deps, message({ ts: '1700000001.000100' }))).toBe(
      false,
    );
  });

  it('never takes a group direct message for a request channel', async () => {
    const h = harness({ modes: new Map([[CHANNEL, 'auto']]) });
    expect(await holdRequestChannelMessage(h.deps, message({ channelType: 'mpim' }))).toBe(false);
  });

  it('a message deleted within the hold is withdrawn: its held entry queues no ticket', async () => {
    const h = harness();
    await h.stores.channelModes.set(CHANNEL, 'auto');
    await holdRequestChannelMessage(h.deps, message());
    await withdrawDeletedMessage(h.deps, deletion({}));
    h.later(3_000);
    // The withdrawal is due at once; the held entry after the hold.
    const withdrawal = (await h.due()) as ReservedEntry;
    expect(withdrawal.deliveryKey).toBe(messageKey(CHANNEL, TS));
    const held = (await h.due()) as ReservedEntry;
    const runner = fileChannelMessage.runner(h.deps);
    const payload = fileChannelMessage.schema.parse(held.payload);
    expect(await runner.run(payload, held)).toEqual({ queued: false });
    expect(await h.due()).toBeUndefined();
  });

  it('a message deleted after its hold stays filed: its ticket is queued already', async () => {
    const h = harness();
    await h.stores.channelModes.set(CHANNEL, 'auto');
    await holdRequestChannelMessage(h.deps, message());
    h.later(3_000);
    const held = (await h.due()) as ReservedEntry;
    const runner = fileChannelMessage.runner(h.deps);
    expect(await runner.run(fileChannelMessage.schema.parse(held.payload), held)).toEqual({
      queued: true,
    });
    await withdrawDeletedMessage(h.deps, deletion({}));
    const filing = (await h.due()) as ReservedEntry;
    expect(filing.kind).toBe('create_ticket');
    expect(await h.due()).toBeUndefined();
  });

  it('a deleted reply or bot post withdraws nothing', async () => {
    const h = harness();
    await h.stores.channelModes.set(CHANNEL, 'auto');
    await withdrawDeletedMessage(h.deps, deletion({ ts: '1700000002.000100', thread_ts: TS }));
    await withdrawDeletedMessage(h.deps, deletion({ bot_id: 'B0DEPLOY' }));
    expect((await h.stores.outbox.stats()).depth).toBe(0);
  });

  const edit = (text: string, editedTs: string): CheckedMessageEvent =>
    ({
      type: 'message',
      subtype: 'message_changed',
      channel: CHANNEL,
      channel_type: 'channel',
      ts: editedTs,
      message: { ts: TS, user: 'U0ALICE', text, edited: { user: 'U0ALICE', ts: editedTs } },
      previous_message: { ts: TS, user: 'U0ALICE', text: 'Laptop will not wake' },
    }) as CheckedMessageEvent;

  it('an edit within the hold changes what is filed, and an older edit arriving late does not', async () => {
    const h = harness();
    await h.stores.channelModes.set(CHANNEL, 'auto');
    await holdRequestChannelMessage(h.deps, message());
    const newer = edit('Laptop will not wake from sleep', '1700000002.000100');
    const older = edit('Laptop will not wake at all', '1700000001.000100');
    expect(await takeUnfiledEdit(h.deps, newer, 'ev:2')).toBe(true);
    expect(await takeUnfiledEdit(h.deps, older, 'ev:1')).toBe(true);
    h.later(3_000);
    const held = (await h.due()) as ReservedEntry;
    expect(held.payload).toMatchObject({
      filing: { ticket: { title: 'Laptop will not wake from sleep' } },
    });
    expect(await h.due()).toBeUndefined();
  });

  it('an edit once a worker took the held message is queued to go on the ticket instead', async () => {
    const h = harness();
    await h.stores.channelModes.set(CHANNEL, 'auto');
    await holdRequestChannelMessage(h.deps, message());
    h.later(3_000);
    const held = (await h.due()) as ReservedEntry;
    expect(await takeUnfiledEdit(h.deps, edit('Laptop sleeps', '1700000002.000100'), 'ev:2')).toBe(
      true,
    );
    const later = (await h.due()) as ReservedEntry;
    expect(later).toMatchObject({
      deliveryKey: 'ev:2',
      kind: addHeldEdit.kind,
      payload: { channel: CHANNEL, ts: TS, userId: 'U0ALICE', body: 'edited: Laptop sleeps' },
    });
    expect(held.payload).toMatchObject({ filing: { ticket: { title: 'Laptop will not wake' } } });
  });

  it('adds nothing when Slack delivers an edit filed with its message again after the filing started', async () => {
    const h = harness();
    await h.stores.channelModes.set(CHANNEL, 'auto');
    await holdRequestChannelMessage(h.deps, message());
    const edited = edit('Laptop sleeps', '1700000002.000100');
    await takeUnfiledEdit(h.deps, edited, 'ev:2');
    h.later(3_000);
    const held = (await h.due()) as ReservedEntry;
    expect(await takeUnfiledEdit(h.deps, edited, 'ev:2')).toBe(true);
    expect(held.payload).toMatchObject({ filing: { ticket: { title: 'Laptop sleeps' } } });
    expect(await h.due()).toBeUndefined();
  });

  it('leaves an edit in a channel that is not a request channel, or of a filed message, to the thread', async () => {
    const h = harness();
    expect(await takeUnfiledEdit(h.deps, edit('Laptop sleeps', '1700000002.000100'), 'ev:2')).toBe(
      false,
    );
    await h.stores.channelModes.set(CHANNEL, 'auto');
    await h.stores.links.link('IT-7', { channel: CHANNEL, threadTs: TS });
    expect(await takeUnfiledEdit(h.deps, edit('Laptop sleeps', '1700000002.000100'), 'ev:2')).toBe(
      false,
    );
    expect((await h.stores.outbox.stats()).depth).toBe(0);
  });

  it('leaves an edit of an old message that was never held to the thread, queuing nothing', async () => {
    const h = harness();
    await h.stores.channelModes.set(CHANNEL, 'auto');
    expect(await takeUnfiledEdit(h.deps, edit('Laptop sleeps', '1700000002.000100'), 'ev:2')).toBe(
      false,
    );
    expect((await h.stores.outbox.stats()).depth).toBe(0);
  });

  describe('a direct message to the app', () => {
    const DM = 'D0ALICE';
    const dmEdit = (text: string): CheckedMessageEvent =>
      ({
        type: 'message',
        subtype: 'message_changed',
        channel: DM,
        channel_type: 'im',
        ts: '1700000002.000100',
        message: { ts: TS, user: 'U0ALICE', text, edited: { ts: '1700000002.000100' } },
        previous_message: { ts: TS, user: 'U0ALICE', text: 'Moniter flickers' },
      }) as CheckedMessageEvent;
    const filingKey = `thread-msg:${DM}:${TS}`;

    it('is filed with an edit made before a worker took its filing', async () => {
      const h = harness();
      await h.stores.outbox.enqueue(filingKey, 'create_ticket', { old: true });
      expect(await takeUnfiledEdit(h.deps, dmEdit('Monitor flickers'), 'ev:2')).toBe(true);
      const filing = (await h.due()) as ReservedEntry;
      expect(filing.payload).toMatchObject({
        ticket: { title: 'Monitor flickers' },
        reply: { kind: 'thread', channel: DM, threadTs: TS },
      });
    });

    it('queues an edit made once a worker took its filing, to go on the ticket', async () => {
      const h = harness();
      await h.stores.outbox.enqueue(filingKey, 'create_ticket', { old: true });
      await h.due();
      await takeUnfiledEdit(h.deps, dmEdit('Monitor flickers'), 'ev:2');
      expect(await h.due()).toMatchObject({
        kind: addHeldEdit.kind,
        payload: { channel: DM, ts: TS, body: 'edited: Monitor flickers', filingKey },
      });
    });

    it('queues nothing while its question after a resolution is out: the buttons read it as it is', async () => {
      const h = harness();
      expect(await takeUnfiledEdit(h.deps, dmEdit('Monitor flickers'), 'ev:2')).toBe(true);
      expect((await h.stores.outbox.stats()).depth).toBe(0);
    });
  });
});

/** Replies and edits in triage threads are queued as internal notes, never as public replies. */
import { describe, expect, it } from 'vitest';
import { addTriageNote } from '../../../../src/slack/intents/add-triage-note.ts';
import {
  takeTriageEdit,
  takeTriageReply,
} from '../../../../src/slack/listeners/events/triage-thread-message.ts';
import { TriageThreadFinder } from '../../../../src/slack/threads/triage-threads.ts';
import { createMemoryStores } from '../../../../src/store/index.ts';
import { fakeClient, silentLogger } from '../../support/fake-deps.ts';

const APP = 'U0BOT';
const TRIAGE = 'G0AGENTS';
const CARD_TS = '100.1';

async function setup() {
  const stores = createMemoryStores();
  await stores.triageChannels.set('it', TRIAGE);
  // Only the store may be asked before the ack: any Slack call fails the test.
  const client = fakeClient({
    conversations: { replies: () => Promise.reject(new Error('no Slack here')) },
  });
  const triageThreads = new TriageThreadFinder({ client, stores });
  const deps = { stores, triageThreads, logger: silentLogger() };
  return { stores, deps };
}

const reply = (over: Record<string, unknown> = {}) => ({
  userId: 'U0AGENT',
  body: 'Probably the VPN',
  channel: TRIAGE,
  threadTs: CARD_TS,
  ts: '100.2',
  parentUserId: APP,
  ...over,
});

/** The one entry queued, if any. */
const queued = (stores: ReturnType<typeof createMemoryStores>) =>
  stores.outbox.reserve('w', 60_000);

describe('a reply in a triage channel', () => {
  it('in the ticket’s triage thread is queued as a triage note with its ticket', async () => {
    const { stores, deps } = await setup();
    await stores.links.link('IT-7', { channel: TRIAGE, threadTs: CARD_TS, triage: true });
    expect(await takeTriageReply(deps, reply(), 'event:1', APP)).toBe(true);
    const entry = await queued(stores);
    expect(entry).toMatchObject({ kind: addTriageNote.kind, payload: { ticketId: 'IT-7' } });
  });

  it('under the app’s post in a thread the links do not know is queued for its card to be read', async () => {
    const { stores, deps } = await setup();
    expect(await takeTriageReply(deps, reply(), 'event:2', APP)).toBe(true);
    const entry = await queued(stores);
    expect(entry).toMatchObject({ kind: addTriageNote.kind, payload: { appUserId: APP } });
    expect(entry?.payload).not.toHaveProperty('ticketId');
  });

  it('in a ticket’s ordinary thread is left to the ordinary handling', async () => {
    const { stores, deps } = await setup();
    await stores.links.link('IT-7', { channel: TRIAGE, threadTs: CARD_TS });
    expect(await takeTriageReply(deps, reply(), 'event:3', APP)).toBe(false);
  });

  it('in a thread a person started is left alone', async () => {
    const { deps } = await setup();
    expect(await takeTriageReply(deps, reply({ parentUserId: 'U0SOMEONE' }), 'e', APP)).toBe(false);
  });

  it('in a direct message is left to the ordinary handling', async () => {
    const { deps } = await setup();
    expect(await takeTriageReply(deps, reply({ channel: 'D0ALICE' }), 'e', APP)).toBe(false);
  });

  it('under the app’s post in a channel the store no longer lists is queued for its card to be read', async () => {
    const { stores, deps } = await setup();
    expect(await takeTriageReply(deps, reply({ channel: 'G0FORGOTTEN' }), 'e', APP)).toBe(true);
    const entry = await queued(stores);
    expect(entry).toMatchObject({ kind: addTriageNote.kind, payload: { appUserId: APP } });
  });
});

describe('an edit in a triage thread', () => {
  const edit = (text: string, before: string) => ({
    channel: TRIAGE,
    message: { user: 'U0AGENT', ts: '100.2', thread_ts: CARD_TS, text },
    previous_message: { user: 'U0AGENT', ts: '100.2', thread_ts: CARD_TS, text: before },
  });

  it('is queued as an "edited:" triage note', async () => {
    const { stores, deps } = await setup();
    await stores.links.link('IT-7', { channel: TRIAGE, threadTs: CARD_TS, triage: true });
    expect(await takeTriageEdit(deps, edit('VPN it is', 'VPN?'), 'event:4', APP)).toBe(true);
    const entry = await queued(stores);
    expect(entry).toMatchObject({
      kind: addTriageNote.kind,
      payload: { ticketId: 'IT-7', body: 'edited: VPN it is', userId: 'U0AGENT' },
    });
  });

  it('that changes no words (an unfurl) is taken and adds nothing', async () => {
    const { stores, deps } = await setup();
    await stores.links.link('IT-7', { channel: TRIAGE, threadTs: CARD_TS, triage: true });
    expect(await takeTriageEdit(deps, edit('same', 'same'), 'event:5', APP)).toBe(true);
    expect(await queued(stores)).toBeUndefined();
  });

  it('of the card itself is not a reply', async () => {
    const { deps } = await setup();
    const card = {
      channel: TRIAGE,
      message: { user: APP, ts: CARD_TS, thread_ts: CARD_TS, text: 'card' },
    };
    expect(await takeTriageEdit(deps, card, 'event:6', APP)).toBe(false);
  });
});

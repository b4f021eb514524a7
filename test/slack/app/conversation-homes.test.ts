import pino from 'pino';
import { describe, expect, it } from 'vitest';
import {
  ConversationHomeBook,
  channelsOfRecords,
  conversationAndUserOf,
  recordHomes,
} from '../../../src/slack/app/conversation-homes.ts';
import { MemoryConversationHomes } from '../../../src/store/memory-homes.ts';
import { createMemoryStores } from '../../../src/store/memory-stores.ts';
import type { ConversationHomes } from '../../../src/store/types.ts';

// The memory store, counting the writes that reach it.
function countingHomes() {
  const store = new MemoryConversationHomes();
  const writes: string[] = [];
  const homes: ConversationHomes = {
    note: async (id, workspace) => {
      writes.push(`${id}=${workspace}`);
      await store.note(id, workspace);
    },
    adopt: (ids, workspace) => store.adopt(ids, workspace),
    homeOf: (id) => store.homeOf(id),
    forget: (workspace) => store.forget(workspace),
  };
  return { store, homes, writes };
}

const silent = pino({ level: 'silent' });

// Runs the recorder over one request as Bolt would, and says whether the request went on.
async function runRecorder(
  book: ConversationHomeBook,
  body: unknown,
  context: Record<string, unknown>,
): Promise<boolean> {
  let wentOn = false;
  const middleware = recordHomes(book, silent);
  await (middleware as unknown as (args: unknown) => Promise<void>)({
    body,
    context,
    next: async () => {
      wentOn = true;
    },
  });
  return wentOn;
}

describe('the homes of conversations and people', () => {
  it('writes a home once while it stays the same, and again when it changes', async () => {
    const { homes, writes } = countingHomes();
    const book = new ConversationHomeBook({ homes });
    await book.note('C0ITHELP', 'T0001');
    await book.note('C0ITHELP', 'T0001');
    await book.note('U0AGENT', 'T0001');
    await book.note('U0AGENT', 'T0002');
    expect(writes).toEqual(['C0ITHELP=T0001', 'U0AGENT=T0001', 'U0AGENT=T0002']);
    expect(await book.homeOf('U0AGENT')).toBe('T0002');
  });

  it('sees a home another replica noted once its short memory of "unknown" has passed', async () => {
    let now = 1_000_000;
    const { homes, store } = countingHomes();
    const book = new ConversationHomeBook({ homes, now: () => now });
    expect(await book.homeOf('G0EUTRIAGE')).toBeUndefined();
    await store.note('G0EUTRIAGE', 'T0002');
    now += 5_000;
    expect(await book.homeOf('G0EUTRIAGE')).toBe('T0002');
  });

  it('notes the channel and the person of an event with the team it came from', async () => {
    const { homes, store } = countingHomes();
    const book = new ConversationHomeBook({ homes });
    const wentOn = await runRecorder(
      book,
      { event: { type: 'message', channel: 'C0EUHELP', user: 'U0ELSA' } },
      { teamId: 'T0002', enterpriseId: 'E0001', isEnterpriseInstall: false, userId: 'U0ELSA' },
    );
    expect(wentOn).toBe(true);
    expect(await store.homeOf('C0EUHELP')).toBe('T0002');
    expect(await store.homeOf('U0ELSA')).toBe('T0002');
  });

  it('notes an org-wide install’s requests under the organization', async () => {
    const { homes, store } = countingHomes();
    const book = new ConversationHomeBook({ homes });
    await runRecorder(
      book,
      { command: '/ticket', channel_id: 'G0EUTRIAGE', user_id: 'U0AGENT' },
      { teamId: 'T0002', enterpriseId: 'E0001', isEnterpriseInstall: true },
    );
    expect(await store.homeOf('G0EUTRIAGE')).toBe('E0001');
    expect(await store.homeOf('U0AGENT')).toBe('E0001');
  });

  it('lets the request go on when the home cannot be written', async () => {
    const book = new ConversationHomeBook({
      homes: {
        note: async () => {
          throw new Error('Redis is away');
        },
        homeOf: async () => undefined,
        adopt: async () => 0,
        forget: async () => [],
      },
    });
    const wentOn = await runRecorder(
      book,
      { event: { type: 'message', channel: 'C0ITHELP', user: 'U0ALICE' } },
      { teamId: 'T0001' },
    );
    expect(wentOn).toBe(true);
  });

  it('reads the conversation and the person of events, commands and interactions', () => {
    expect(
      conversationAndUserOf({
        event: { type: 'reaction_added', user: 'U1', item: { channel: 'C1' } },
      }),
    ).toEqual({ channel: 'C1', user: 'U1' });
    expect(
      conversationAndUserOf({ event: { type: 'channel_created', channel: { id: 'C2' } } }),
    ).toEqual({
      channel: 'C2',
    });
    expect(conversationAndUserOf({ channel_id: 'C3', user_id: 'U3' })).toEqual({
      channel: 'C3',
      user: 'U3',
    });
    expect(
      conversationAndUserOf({ type: 'block_actions', channel: { id: 'C4' }, user: { id: 'U4' } }),
    ).toEqual({ channel: 'C4', user: 'U4' });
    expect(conversationAndUserOf({ type: 'view_submission', user: { id: 'U5' } })).toEqual({
      user: 'U5',
    });
  });

  it('lists every channel today’s records name, and not the triage channels of configuration', async () => {
    const stores = createMemoryStores({ triageDefaults: new Map([['it', 'G0DEFAULT']]) });
    await stores.links.link('IT-1', { channel: 'C0ITHELP', threadTs: '1.1' });
    await stores.triageChannels.set('hr', 'G0HRTRIAGE');
    await stores.channelModes.set('C0AUTO', 'auto');
    expect(await channelsOfRecords(stores)).toEqual(['C0AUTO', 'C0ITHELP', 'G0HRTRIAGE']);
  });
});

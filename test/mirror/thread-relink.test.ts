import { describe, expect, it } from 'vitest';
import {
  initialMirrorState,
  MirrorComponent,
  type MirrorComponentOptions,
} from '../../src/mirror/index.ts';
import { createMemoryStores } from '../../src/store/index.ts';

const NOW = 1_700_000_000_000;
const THREAD = { channel: 'C1', threadTs: '100.1' };
const TICKET = {
  id: 'IT-7',
  title: 'Printer jams',
  status: 'resolved',
  priority: 'medium',
  created_at: '2023-11-14T00:00:00Z',
  updated_at: '2023-11-14T20:00:00Z',
  requester_email: 'alice@acme.example',
};

/** A platform holding 12 messages and 30 activity entries; with `totals: false` it leaves totals out. */
function platform(options: { totals?: boolean } = {}) {
  const calls: string[] = [];
  const total = (n: number) => (options.totals === false ? null : n);
  const items = (n: number) => Array.from({ length: n }, (_, i) => ({ id: String(i) }));
  const serviceDesk = {
    async getTicket() {
      calls.push('getTicket');
      return TICKET;
    },
    async listMessages(_id: string, query: { page_size?: number }) {
      calls.push('listMessages');
      return { items: items(Math.min(query.page_size ?? 100, 12)), total_count: total(12) };
    },
    async listActivity(_id: string, query: { limit?: number }) {
      calls.push('listActivity');
      return { items: items(Math.min(query.limit ?? 100, 30)), total_count: total(30) };
    },
    async *iterateMessages() {
      calls.push('iterateMessages');
      yield* items(12);
    },
    async *iterateActivity() {
      calls.push('iterateActivity');
      yield* items(30);
    },
  };
  return { serviceDesk, calls };
}

const silent = { debug() {}, info() {}, warn() {}, error() {} };

function mirrorWith(serviceDesk: unknown) {
  const stores = createMemoryStores({ now: () => NOW });
  const mirror = new MirrorComponent({
    platform: serviceDesk as MirrorComponentOptions['platform'],
    stores,
    logger: silent,
    paced: false,
    now: () => NOW,
  });
  return { mirror, stores };
}

describe('linking a thread again after Redis came back empty', () => {
  it('links the thread and puts its ticket on the poll schedule at once', async () => {
    const { mirror, stores } = mirrorWith(platform().serviceDesk);
    await mirror.relinkThread('IT-7', THREAD);
    expect(await stores.links.ticketForThread('C1', '100.1')).toBe('IT-7');
    expect(await stores.schedule.dueAt('IT-7')).toBe(NOW);
  });

  it('has the mirror resume an unread ticket after what the platform holds now', async () => {
    const { mirror, stores } = mirrorWith(platform().serviceDesk);
    await mirror.relinkThread('IT-7', THREAD);
    expect(await stores.mirror.state('IT-7')).toMatchObject({
      messageCursor: 12,
      messagesAnnounced: 12,
      activityCursor: 30,
      lastPolledAt: NOW,
      status: 'resolved',
      settledAt: Date.parse('2023-11-14T20:00:00Z'),
      requesterEmail: 'alice@acme.example',
    });
  });

  it('answers the ticket it read, so replies learn its status without another request', async () => {
    const { mirror } = mirrorWith(platform().serviceDesk);
    expect((await mirror.relinkThread('IT-7', THREAD))?.status).toBe('resolved');
  });

  it('counts the platform’s items when it gives no totals', async () => {
    const { serviceDesk, calls } = platform({ totals: false });
    const { mirror, stores } = mirrorWith(serviceDesk);
    await mirror.relinkThread('IT-7', THREAD);
    expect(await stores.mirror.state('IT-7')).toMatchObject({
      messageCursor: 12,
      activityCursor: 30,
    });
    expect(calls).toContain('iterateMessages');
  });

  it('resumes a ticket whose only record is a write from Slack, which the mirror never read', async () => {
    const { mirror, stores } = mirrorWith(platform().serviceDesk);
    await stores.mirror.noteSlackWrite('IT-7', NOW - 5_000);
    await mirror.relinkThread('IT-7', THREAD);
    expect(await stores.mirror.state('IT-7')).toMatchObject({
      messageCursor: 12,
      slackWriteAt: NOW - 5_000,
    });
  });

  it('leaves the record of a ticket the mirror has read as it is, and asks the platform nothing', async () => {
    const { serviceDesk, calls } = platform();
    const { mirror, stores } = mirrorWith(serviceDesk);
    await stores.mirror.saveState('IT-7', {
      ...initialMirrorState(),
      activityCursor: 3,
      messageCursor: 2,
      messagesAnnounced: 2,
      lastPolledAt: NOW - 1_000,
      status: 'open',
    });
    await mirror.relinkThread('IT-7', THREAD);
    expect(await stores.mirror.state('IT-7')).toMatchObject({
      messageCursor: 2,
      activityCursor: 3,
    });
    expect(calls).toEqual([]);
    expect(await stores.links.ticketForThread('C1', '100.1')).toBe('IT-7');
  });
});

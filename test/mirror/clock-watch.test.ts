import { describe, expect, it } from 'vitest';
import { ClockWatch, withFirstResponse } from '../../src/mirror/clock-watch.ts';
import { keepTicket } from '../../src/mirror/kept-ticket.ts';
import type { ClockWarning, MirrorPoster, PostOutcome } from '../../src/mirror/types.ts';
import { parseServiceTargets, type Ticket } from '../../src/servicedesk/index.ts';
import { createMemoryStores } from '../../src/store/index.ts';
import { emptyMirrorRecord } from '../../src/store/mirror-record.ts';
import type { Stores, Thread } from '../../src/store/types.ts';
import { ticketWith } from '../support/ticket-fixture.ts';

const MIN = 60_000;
const START = Date.parse('2026-11-27T09:00:00.000Z');
const CARD: Thread = { channel: 'C0TRIAGE', threadTs: '1700000000.000100', triage: true };
// First response in 10 minutes, resolution in an hour: warnings at 8 and 48 minutes.
const { targets } = parseServiceTargets('it:medium=10m/1h');
const silent = { debug() {}, info() {}, warn() {}, error() {} };

interface Posted {
  where: 'thread' | 'channel';
  itemId: string;
  ticketId: string;
}

/** A poster that keeps what it posted, as Slack would, and can fail a post after it landed. */
class RecordingPoster implements MirrorPoster {
  readonly posted: Posted[] = [];
  readonly refreshed: Ticket[] = [];
  /** Fails the next warning line after Slack took it (a crash before it was recorded). */
  failAfterPost = false;
  async postMessage(): Promise<PostOutcome> {
    return 'posted';
  }
  async postChange(): Promise<PostOutcome> {
    return 'posted';
  }
  async notifyRequester(): Promise<PostOutcome> {
    return 'posted';
  }
  async findPosted(_thread: Thread, ticketId: string, itemId: string): Promise<boolean> {
    return this.posted.some((one) => one.ticketId === ticketId && one.itemId === itemId);
  }
  async refreshCard(_thread: Thread, ticket: Ticket): Promise<void> {
    this.refreshed.push(ticket);
  }
  async postClockWarning(_thread: Thread, warning: ClockWarning): Promise<PostOutcome> {
    this.posted.push({ where: 'thread', itemId: warning.itemId, ticketId: warning.ticket.id });
    if (this.failAfterPost) {
      this.failAfterPost = false;
      throw new Error('the process died after Slack took the post');
    }
    return 'posted';
  }
  async postBreachNotice(_thread: Thread, warning: ClockWarning): Promise<PostOutcome> {
    this.posted.push({ where: 'channel', itemId: warning.itemId, ticketId: warning.ticket.id });
    return 'posted';
  }
  async findBreachNotice(_thread: Thread, warning: ClockWarning): Promise<boolean> {
    return this.posted.some((one) => one.where === 'channel' && one.itemId === warning.itemId);
  }
}

function setup(options: { stores?: Stores; linked?: boolean } = {}) {
  let now = START;
  const stores = options.stores ?? createMemoryStores({ now: () => now });
  const poster = new RecordingPoster();
  const watch = new ClockWatch({
    stores,
    logger: silent,
    targets,
    warnAt: 0.8,
    retryMs: MIN,
    now: () => now,
  });
  watch.attach(poster);
  return {
    stores,
    poster,
    watch,
    at(offsetMs: number) {
      now = START + offsetMs;
    },
  };
}

const ticket = (overrides: Partial<Ticket> = {}): Ticket =>
  ticketWith({
    id: 'IT-12',
    title: 'VPN drops',
    created_at: new Date(START).toISOString(),
    updated_at: new Date(START).toISOString(),
    ...overrides,
  });

async function carded(stores: Stores, watch: ClockWatch, card: Ticket = ticket()) {
  await stores.links.link(card.id, CARD);
  await watch.cardPosted(card);
}

describe('ClockWatch', () => {
  it('posts the first-response warning at 80% of its target and refreshes the card', async () => {
    const { stores, poster, watch, at } = setup();
    at(MIN);
    await carded(stores, watch);
    await watch.runOnce();
    at(8 * MIN - 1);
    await watch.runOnce();
    expect(poster.posted).toEqual([]);
    at(8 * MIN);
    await watch.runOnce();
    expect(poster.posted).toEqual([
      { where: 'thread', itemId: 'sla:first_response:warning', ticketId: 'IT-12' },
    ]);
    expect(poster.refreshed).toHaveLength(1);
    expect(await stores.clockSchedule.dueAt('IT-12')).toBe(START + 10 * MIN);
  });

  it('posts the breach in the thread and at the channel top once, at the due time', async () => {
    const { stores, poster, watch, at } = setup();
    await carded(stores, watch);
    for (const offset of [MIN, 8 * MIN, 10 * MIN, 10 * MIN + 5_000, 11 * MIN]) {
      at(offset);
      await watch.runOnce();
      // A look asked again (a read of the ticket) finds everything posted.
      await watch.ticketChanged('IT-12');
      await watch.runOnce();
    }
    expect(poster.posted.map((one) => `${one.where} ${one.itemId}`)).toEqual([
      'thread sla:first_response:warning',
      'thread sla:first_response:breach',
      'channel sla:first_response:breach',
    ]);
  });

  it('says only the breach of a clock first looked at past its due time', async () => {
    const { stores, poster, watch, at } = setup();
    at(12 * MIN);
    await carded(stores, watch);
    await watch.runOnce();
    expect(poster.posted.map((one) => `${one.where} ${one.itemId}`)).toEqual([
      'thread sla:first_response:breach',
      'channel sla:first_response:breach',
    ]);
  });

  it('posts nothing once the mirror saw a first response', async () => {
    const { stores, poster, watch, at } = setup();
    await carded(stores, watch);
    at(5 * MIN);
    const record = (await stores.mirror.state('IT-12')) ?? emptyMirrorRecord();
    await stores.mirror.saveState('IT-12', { ...record, firstResponseAt: START + 5 * MIN });
    for (const offset of [8 * MIN, 10 * MIN, 20 * MIN]) {
      at(offset);
      await watch.runOnce();
    }
    expect(poster.posted).toEqual([]);
  });

  it('posts nothing for a resolved ticket', async () => {
    const { stores, poster, watch, at } = setup();
    await carded(stores, watch, ticket({ status: 'resolved' }));
    for (const offset of [0, 8 * MIN, 10 * MIN, 2 * 60 * MIN]) {
      at(offset);
      await watch.runOnce();
    }
    expect(poster.posted).toEqual([]);
    expect(await stores.clockSchedule.size()).toBe(0);
  });

  it('posts nothing while the ticket waits on its requester', async () => {
    const { stores, poster, watch, at } = setup();
    await carded(stores, watch);
    // The mirror draws the status change into the kept ticket at 7 minutes.
    at(7 * MIN);
    await stores.mirror.keepTicket(
      'IT-12',
      keepTicket(ticket({ status: 'waiting_on_requester' }), START + 7 * MIN),
    );
    await watch.ticketChanged('IT-12');
    for (const offset of [7 * MIN, 8 * MIN, 10 * MIN, 30 * MIN]) {
      at(offset);
      await watch.runOnce();
    }
    expect(poster.posted).toEqual([]);
  });

  it('follows a due time the platform moved: no warning at the old point, one at the new', async () => {
    const { stores, poster, watch, at } = setup();
    const due = (ms: number) => new Date(START + ms).toISOString();
    await carded(stores, watch, ticket({ first_response_due_at: due(10 * MIN) }));
    at(MIN);
    await watch.runOnce();
    expect(await stores.clockSchedule.dueAt('IT-12')).toBe(START + 8 * MIN);
    // The priority went down: the platform moved the due time to 20 minutes; the mirror read it.
    at(2 * MIN);
    await stores.mirror.keepTicket(
      'IT-12',
      keepTicket(ticket({ priority: 'low', first_response_due_at: due(20 * MIN) }), START),
    );
    await watch.ticketChanged('IT-12');
    await watch.runOnce();
    expect(await stores.clockSchedule.dueAt('IT-12')).toBe(START + 16 * MIN);
    at(8 * MIN);
    await watch.runOnce();
    expect(poster.posted).toEqual([]);
    at(16 * MIN);
    await watch.runOnce();
    expect(poster.posted.map((one) => one.itemId)).toEqual(['sla:first_response:warning']);
  });

  it('takes a due time the platform moved from the change feed’s listing, with no request', async () => {
    const { stores, poster, watch, at } = setup();
    const due = (ms: number) => new Date(START + ms).toISOString();
    await carded(stores, watch, ticket({ first_response_due_at: due(10 * MIN) }));
    await watch.runOnce();
    // The ticket moved to a desk with a longer target: only updated_at tells, and the listing.
    at(3 * MIN);
    watch.listed([
      ticket({ first_response_due_at: due(30 * MIN), updated_at: due(3 * MIN), desk_id: 'hr' }),
      ticketWith({ id: 'IT-99', title: 'not followed' }),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 10));
    await watch.runOnce();
    expect(await stores.clockSchedule.dueAt('IT-12')).toBe(START + 24 * MIN);
    expect(await stores.mirror.state('IT-99')).toBeUndefined();
    at(10 * MIN);
    await watch.runOnce();
    expect(poster.posted).toEqual([]);
  });

  it('takes the platform’s first_responded_at as the end of the first-response clock', async () => {
    const { stores, poster, watch, at } = setup();
    await carded(
      stores,
      watch,
      ticket({
        first_response_due_at: new Date(START + 10 * MIN).toISOString(),
        resolution_due_at: null,
        first_responded_at: new Date(START + 2 * MIN).toISOString(),
      }),
    );
    for (const offset of [0, 8 * MIN, 10 * MIN]) {
      at(offset);
      await watch.runOnce();
    }
    expect(poster.posted).toEqual([]);
  });

  it('posts once when two replicas watch the same store', async () => {
    let now = START;
    const stores = createMemoryStores({ now: () => now });
    const poster = new RecordingPoster();
    const replicas = [0, 1].map(() => {
      const watch = new ClockWatch({
        stores,
        logger: silent,
        targets,
        warnAt: 0.8,
        now: () => now,
      });
      watch.attach(poster);
      return watch;
    });
    await stores.links.link('IT-12', CARD);
    await Promise.all(replicas.map((watch) => watch.cardPosted(ticket())));
    for (const offset of [8 * MIN, 10 * MIN]) {
      now = START + offset;
      await Promise.all(replicas.map((watch) => watch.runOnce()));
      await Promise.all(replicas.map((watch) => watch.ticketChanged('IT-12')));
      await Promise.all(replicas.map((watch) => watch.runOnce()));
    }
    expect(poster.posted.map((one) => `${one.where} ${one.itemId}`)).toEqual([
      'thread sla:first_response:warning',
      'thread sla:first_response:breach',
      'channel sla:first_response:breach',
    ]);
  });

  it('finds a warning that reached Slack before the process failed, and does not post it again', async () => {
    const { stores, poster, watch, at } = setup();
    await carded(stores, watch);
    at(8 * MIN);
    poster.failAfterPost = true;
    await watch.runOnce();
    at(9 * MIN);
    await watch.runOnce();
    expect(poster.posted.map((one) => one.itemId)).toEqual(['sla:first_response:warning']);
  });

  it('posts nothing for a ticket with no triage card, and stops watching it', async () => {
    const { stores, poster, watch, at } = setup();
    await stores.links.link('IT-12', { channel: 'D0ALICE', threadTs: '1700000000.000200' });
    await watch.cardPosted(ticket());
    at(12 * MIN);
    await watch.runOnce();
    expect(poster.posted).toEqual([]);
    expect(await stores.clockSchedule.size()).toBe(0);
  });

  it('hands the Slack side the first response the mirror saw, unless the platform gave one', () => {
    const mirrored = withFirstResponse(ticket(), START + 3 * MIN);
    expect(mirrored.first_responded_at).toBe(new Date(START + 3 * MIN).toISOString());
    const platform = ticket({ first_responded_at: new Date(START).toISOString() });
    expect(withFirstResponse(platform, START + 3 * MIN)).toBe(platform);
  });
});

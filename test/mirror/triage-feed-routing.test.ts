/**
 * The triage feed's routing beyond a desk's own channel: a subdesk's ticket to its parent's
 * channel (the platform's desks read once a while, in the background), and a catch-all card
 * moved to its desk's channel once the ticket is put on one, whichever replica hears of it.
 */
import { describe, expect, it } from 'vitest';
import {
  AdaptivePlanner,
  MirrorComponent,
  type MirrorComponentOptions,
  type TriageFeed,
} from '../../src/mirror/index.ts';
import type { Desk, Envelope, Ticket } from '../../src/servicedesk/index.ts';
import { createMemoryStores } from '../../src/store/index.ts';
import { type Stores, type Thread, TRIAGE_CATCH_ALL } from '../../src/store/types.ts';
import { emptyModel, ModelPlatform, RecordingPoster, TENANT } from './support.ts';

const T0 = 1_767_225_600_000;
const IT_TRIAGE = 'C0AGENTS';
const CATCH_ALL = 'C0ALL';
const silent = { debug() {}, info() {}, warn() {}, error() {} };

/** The model's platform, with its desks (the parents of subdesks). */
class DeskPlatform extends ModelPlatform {
  desksRead = 0;
  readonly #desks: Desk[];
  constructor(...args: ConstructorParameters<typeof ModelPlatform>) {
    super(...args);
    this.#desks = args[0].listDesks(TENANT).items;
  }
  /** Errors the next reads of the desks throw, in order. */
  readonly desksFail: Error[] = [];
  listDesks = async (): Promise<Envelope<Desk>> => {
    this.desksRead += 1;
    const failure = this.desksFail.shift();
    if (failure) throw failure;
    return { items: this.#desks, total_count: this.#desks.length };
  };
}

/** Records cards posted and pointers made. */
class TriagePoster extends RecordingPoster {
  readonly cards: { channel: string; ticketId: string }[] = [];
  readonly pointers: { from: Thread; to: Thread }[] = [];

  async postTriageCard(channel: string, ticket: Ticket): Promise<{ ts: string }> {
    this.cards.push({ channel, ticketId: ticket.id });
    return { ts: `1767225700.${String(this.cards.length).padStart(6, '0')}` };
  }

  async pointTriageCard(from: Thread, to: Thread): Promise<void> {
    this.pointers.push({ from, to });
  }
}

function replica(model: ReturnType<typeof emptyModel>, stores: Stores, now: () => number) {
  const platform = new DeskPlatform(model);
  const poster = new TriagePoster();
  const mirror = new MirrorComponent({
    platform: platform as unknown as MirrorComponentOptions['platform'],
    stores,
    logger: silent,
    planner: new AdaptivePlanner(),
    paced: false,
    now,
    random: () => 0.5,
    triage: { pushed: true },
  });
  mirror.attach(poster);
  return { platform, poster, triage: mirror.triage as TriageFeed };
}

function setUp() {
  const clock = { now: T0 };
  const now = () => clock.now;
  const model = emptyModel(now);
  const stores = createMemoryStores({ now });
  return { clock, model, stores, one: replica(model, stores, now), now };
}

describe('triage feed routing', () => {
  it('posts a subdesk’s ticket in its parent desk’s channel, reading the desks once for many tickets', async () => {
    const t = setUp();
    await t.stores.triageChannels.set('it', IT_TRIAGE);
    await t.one.triage.runOnce();
    t.clock.now += 1_000;
    const ids = ['New laptop', 'Extra monitor'].map(
      (title) =>
        t.model.createTicket(TENANT, { title, desk_id: 'it-hardware', channel: 'portal' }).id,
    );
    for (const id of ids) t.one.triage.created(id);
    await t.one.triage.runOnce();
    expect(t.one.poster.cards).toEqual(ids.map((ticketId) => ({ channel: IT_TRIAGE, ticketId })));
    expect(t.one.platform.desksRead).toBe(1);
  });

  it('posts a subdesk’s ticket in its parent’s channel once the desks can be read after the platform failed', async () => {
    const t = setUp();
    await t.stores.triageChannels.set('it', IT_TRIAGE);
    await t.one.triage.runOnce();
    t.clock.now += 1_000;
    const ticket = t.model.createTicket(TENANT, {
      title: 'Headset',
      desk_id: 'it-hardware',
      channel: 'portal',
    });
    t.one.platform.desksFail.push(new Error('503 from the platform'));
    t.one.triage.created(ticket.id);
    await t.one.triage.runOnce();
    expect(t.one.poster.cards).toEqual([]);
    t.clock.now += 5_000;
    await t.one.triage.runOnce();
    expect(t.one.poster.cards).toEqual([{ channel: IT_TRIAGE, ticketId: ticket.id }]);
    expect(t.one.platform.desksRead).toBe(2);
  });

  it('reads no desks for a ticket whose desk has its own channel', async () => {
    const t = setUp();
    await t.stores.triageChannels.set('it', IT_TRIAGE);
    await t.one.triage.runOnce();
    t.clock.now += 1_000;
    const ticket = t.model.createTicket(TENANT, { title: 'VPN', desk_id: 'it', channel: 'portal' });
    t.one.triage.created(ticket.id);
    await t.one.triage.runOnce();
    expect(t.one.poster.cards).toEqual([{ channel: IT_TRIAGE, ticketId: ticket.id }]);
    expect(t.one.platform.desksRead).toBe(0);
  });

  it('moves a catch-all card to the desk’s channel when the ticket.updated hook reaches another replica', async () => {
    const t = setUp();
    const two = replica(t.model, t.stores, t.now);
    await t.stores.triageChannels.set('it', IT_TRIAGE);
    await t.stores.triageChannels.set(TRIAGE_CATCH_ALL, CATCH_ALL);
    await t.one.triage.runOnce();
    await two.triage.runOnce();
    t.clock.now += 1_000;
    const ticket = t.model.createTicket(TENANT, { title: 'Help', channel: 'slack' });
    t.one.triage.created(ticket.id);
    await t.one.triage.runOnce();
    expect(t.one.poster.cards).toEqual([{ channel: CATCH_ALL, ticketId: ticket.id }]);
    t.model.setDesk(TENANT, ticket.id, 'it');
    two.triage.updated(ticket.id);
    await two.triage.runOnce();
    await two.triage.runOnce();
    expect(two.poster.cards).toEqual([{ channel: IT_TRIAGE, ticketId: ticket.id }]);
    expect(two.poster.pointers.map(({ from, to }) => [from.channel, to.channel])).toEqual([
      [CATCH_ALL, IT_TRIAGE],
    ]);
    const triage = (await t.stores.links.threadsForTicket(ticket.id)).filter((one) => one.triage);
    expect(triage.map((thread) => thread.channel)).toEqual([IT_TRIAGE]);
    // Heard again on the first replica: nothing more.
    t.one.triage.updated(ticket.id);
    await t.one.triage.runOnce();
    await t.one.triage.runOnce();
    expect(t.one.poster.cards).toHaveLength(1);
    expect(t.one.poster.pointers).toHaveLength(0);
  });

  it('cards in the desk’s channel a ticket whose ticket.updated hook came while it waited as listed before its desk', async () => {
    const t = setUp();
    await t.stores.triageChannels.set('it', IT_TRIAGE);
    await t.stores.triageChannels.set(TRIAGE_CATCH_ALL, CATCH_ALL);
    await t.one.triage.runOnce();
    t.clock.now += 1_000;
    const ticket = t.model.createTicket(TENANT, { title: 'Help', channel: 'slack' });
    t.one.triage.listed([ticket]);
    t.model.setDesk(TENANT, ticket.id, 'it');
    t.one.triage.updated(ticket.id);
    await t.one.triage.runOnce();
    await t.one.triage.runOnce();
    expect(t.one.poster.cards).toEqual([{ channel: IT_TRIAGE, ticketId: ticket.id }]);
  });

  it('moves the catch-all card of a ticket filed an hour ago when a listing shows it on a desk, reading nothing', async () => {
    const t = setUp();
    await t.stores.triageChannels.set('it', IT_TRIAGE);
    await t.stores.triageChannels.set(TRIAGE_CATCH_ALL, CATCH_ALL);
    await t.one.triage.runOnce();
    t.clock.now += 1_000;
    const ticket = t.model.createTicket(TENANT, { title: 'Help', channel: 'email' });
    t.one.triage.created(ticket.id);
    await t.one.triage.runOnce();
    t.clock.now += 3_600_000;
    t.model.setDesk(TENANT, ticket.id, 'it');
    t.one.platform.calls.length = 0;
    t.one.triage.listed([t.model.getTicket(TENANT, ticket.id)]);
    await t.one.triage.runOnce();
    expect(t.one.poster.cards.map((card) => card.channel)).toEqual([CATCH_ALL, IT_TRIAGE]);
    expect(t.one.poster.pointers).toHaveLength(1);
    expect(t.one.platform.count('getTicket')).toBe(0);
  });

  it('reads no ticket for a ticket.updated hook of a ticket with no card in the catch-all', async () => {
    const t = setUp();
    await t.stores.triageChannels.set('it', IT_TRIAGE);
    await t.stores.triageChannels.set(TRIAGE_CATCH_ALL, CATCH_ALL);
    await t.one.triage.runOnce();
    t.clock.now += 1_000;
    const ticket = t.model.createTicket(TENANT, { title: 'VPN', desk_id: 'it', channel: 'portal' });
    t.one.platform.calls.length = 0;
    t.one.triage.updated(ticket.id);
    await t.one.triage.runOnce();
    expect(t.one.platform.count('getTicket')).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';
import {
  AdaptivePlanner,
  MirrorComponent,
  type MirrorComponentOptions,
  type MirrorWorker,
  PostDeferredError,
  type TriageCardPosted,
  type TriageFeed,
  triageCardKey,
} from '../../src/mirror/index.ts';
import type { Ticket } from '../../src/servicedesk/index.ts';
import { createMemoryStores } from '../../src/store/index.ts';
import { TRIAGE_CATCH_ALL } from '../../src/store/types.ts';
import { emptyModel, ModelPlatform, RecordingPoster, SAM, TENANT } from './support.ts';

const T0 = 1_767_225_600_000;
const TRIAGE = 'C0AGENTS';
const HELP = { channel: 'C0HELP', threadTs: '1767225600.000100' };
const silent = { debug() {}, info() {}, warn() {}, error() {} };

/** The recording poster with triage cards: each card a new ts, or the channel gone. */
class TriagePoster extends RecordingPoster {
  readonly cards: { channel: string; ticketId: string; ts: string }[] = [];
  readonly found = new Map<string, string>();
  goneChannels = new Set<string>();
  cardError: Error | undefined;
  searches = 0;

  async postTriageCard(channel: string, ticket: Ticket): Promise<{ ts: string } | 'gone'> {
    const planned = this.cardError;
    if (planned) {
      this.cardError = undefined;
      throw planned;
    }
    if (this.goneChannels.has(channel)) return 'gone';
    const ts = `1767225700.${String(this.cards.length + 1).padStart(6, '0')}`;
    this.cards.push({ channel, ticketId: ticket.id, ts });
    return { ts };
  }

  async findTriageCard(_channel: string, ticket: Ticket): Promise<string | undefined> {
    this.searches += 1;
    return this.found.get(ticket.id);
  }
}

function setUp(options: { pushed?: boolean; feed?: 'filter' } = {}) {
  const clock = { now: T0 };
  const now = () => clock.now;
  const model = emptyModel(now, { updatedAfter: options.feed === 'filter' });
  const stores = createMemoryStores({ now });
  const platform = new ModelPlatform(model);
  const poster = new TriagePoster();
  const cards: TriageCardPosted[] = [];
  const warnings: string[] = [];
  const gone: string[] = [];
  const mirror = new MirrorComponent({
    platform: platform as unknown as MirrorComponentOptions['platform'],
    stores,
    logger: { ...silent, warn: (_obj: object, msg?: string) => void warnings.push(msg ?? '') },
    planner: new AdaptivePlanner(),
    paced: false,
    now,
    random: () => 0.5,
    ...(options.feed ? { feedMode: options.feed } : {}),
    triage: {
      pushed: options.pushed ?? false,
      onCard: (card) => void cards.push(card),
      onChannelGone: (channel) => void gone.push(channel),
    },
  });
  const worker = mirror.attach(poster) as MirrorWorker;
  const triage = mirror.triage as TriageFeed;
  const file = (desk = 'it', title = 'Printer on fire') =>
    model.createTicket(TENANT, {
      title,
      desk_id: desk,
      requester_email: 'alice@acme.example',
      channel: 'portal',
    });
  const advance = (ms: number) => {
    clock.now += ms;
  };
  return {
    clock,
    model,
    stores,
    platform,
    poster,
    cards,
    warnings,
    gone,
    mirror,
    worker,
    triage,
    file,
    advance,
  };
}

describe('triage feed', () => {
  it('posts one card for a ticket announced by ticket.created, and links its thread as the triage thread', async () => {
    const t = setUp({ pushed: true });
    await t.stores.triageChannels.set('it', TRIAGE);
    await t.triage.runOnce();
    t.advance(1_000);
    const ticket = t.file();
    t.triage.created(ticket.id);
    t.triage.created(ticket.id);
    await t.triage.runOnce();
    await t.triage.runOnce();
    expect(t.poster.cards).toEqual([
      { channel: TRIAGE, ticketId: ticket.id, ts: '1767225700.000001' },
    ]);
    expect(await t.stores.links.threadsForTicket(ticket.id)).toEqual([
      { channel: TRIAGE, threadTs: '1767225700.000001', triage: true },
    ]);
    expect(await t.stores.schedule.dueAt(ticket.id)).toBe(t.clock.now);
    expect(t.cards).toEqual([
      { ticketId: ticket.id, channel: TRIAGE, createdAt: T0 + 1_000, postedAt: T0 + 1_000 },
    ]);
  });

  it('cards a ticket filed from Slack without reading it, though its ticket.created hook follows', async () => {
    const t = setUp({ pushed: true });
    await t.stores.triageChannels.set('it', TRIAGE);
    await t.triage.runOnce();
    t.advance(1_000);
    const ticket = t.file();
    t.platform.calls.length = 0;
    t.mirror.ticketFiled(ticket);
    t.triage.created(ticket.id);
    await t.triage.runOnce();
    expect(t.poster.cards.map((card) => card.ticketId)).toEqual([ticket.id]);
    expect(t.platform.calls.filter((c) => c.operation === 'getTicket')).toEqual([]);
  });

  it('cards a new ticket with no desk once a ticket.updated hook finds it routed to a triaged desk', async () => {
    const t = setUp({ pushed: true });
    await t.stores.triageChannels.set('it', TRIAGE);
    await t.triage.runOnce();
    t.advance(1_000);
    const ticket = t.model.createTicket(TENANT, {
      title: 'Laptop will not wake',
      requester_email: 'alice@acme.example',
      channel: 'slack',
    });
    t.triage.created(ticket.id);
    await t.triage.runOnce();
    expect(t.poster.cards).toEqual([]);
    // The AI agent routes it to IT a moment later; the platform's ticket.updated hook follows.
    t.model.setDesk(TENANT, ticket.id, 'it');
    t.triage.updated(ticket.id);
    await t.triage.runOnce();
    expect(t.poster.cards.map((card) => card.ticketId)).toEqual([ticket.id]);
    // Any other ticket's change costs nothing.
    t.platform.calls.length = 0;
    t.triage.updated('IT-999');
    await t.triage.runOnce();
    expect(t.platform.count('getTicket')).toBe(0);
  });

  it('gives no card to a ticket created before the channel became the desk’s triage channel', async () => {
    const t = setUp({ pushed: true });
    const before = t.file();
    t.advance(1_000);
    await t.stores.triageChannels.set('it', TRIAGE);
    t.triage.created(before.id);
    await t.triage.runOnce();
    expect(t.poster.cards).toEqual([]);
  });

  it('gives a ticket filed a moment after /ticket triage moved its desk its card in the new channel', async () => {
    const t = setUp({ pushed: true });
    await t.stores.triageChannels.set('it', TRIAGE);
    await t.triage.runOnce();
    // Moved from Slack half a second later: within the time the feed keeps its channel list.
    t.advance(500);
    await t.stores.triageChannels.set('it', 'C0NEWTRIAGE');
    await t.mirror.triageChannelSet('it', 'C0NEWTRIAGE');
    const ticket = t.file();
    t.triage.created(ticket.id);
    await t.triage.runOnce();
    expect(t.poster.cards.map((card) => card.channel)).toEqual(['C0NEWTRIAGE']);
  });

  it('gives a card to a ticket filed in the same millisecond /ticket triage set the channel, before the feed read it', async () => {
    const t = setUp({ pushed: true });
    await t.stores.triageChannels.set('it', TRIAGE);
    await t.mirror.triageChannelSet('it', TRIAGE);
    const ticket = t.file();
    t.advance(5_000);
    t.triage.created(ticket.id);
    await t.triage.runOnce();
    expect(t.poster.cards.map((card) => card.ticketId)).toEqual([ticket.id]);
  });

  it('sends a desk without its own channel to the catch-all, and a ticket nowhere without one', async () => {
    const t = setUp({ pushed: true });
    await t.stores.triageChannels.set('it', TRIAGE);
    await t.triage.runOnce();
    const hr = t.file('hr', 'Payslip');
    t.triage.created(hr.id);
    await t.triage.runOnce();
    expect(t.poster.cards).toEqual([]);
    const t2 = setUp({ pushed: true });
    await t2.stores.triageChannels.set(TRIAGE_CATCH_ALL, 'C0ALL');
    await t2.triage.runOnce();
    t2.advance(1);
    const other = t2.file('hr', 'Payslip');
    t2.triage.created(other.id);
    await t2.triage.runOnce();
    expect(t2.poster.cards.map((card) => card.channel)).toEqual(['C0ALL']);
  });

  it('looks in the channel before posting again a card whose claim lapsed unfinished, and links the card it finds', async () => {
    const t = setUp({ pushed: true });
    await t.stores.triageChannels.set('it', TRIAGE);
    await t.triage.runOnce();
    t.advance(1);
    const ticket = t.file();
    // A replica claimed the card and died before recording it.
    await t.stores.mirror.claimPost(ticket.id, triageCardKey(TRIAGE), 30_000);
    t.advance(31_000);
    t.poster.found.set(ticket.id, '1767225650.000009');
    t.triage.created(ticket.id);
    await t.triage.runOnce();
    expect(t.poster.searches).toBe(1);
    expect(t.poster.cards).toEqual([]);
    expect(await t.stores.links.threadsForTicket(ticket.id)).toEqual([
      { channel: TRIAGE, threadTs: '1767225650.000009', triage: true },
    ]);
  });

  it('waits while another replica holds the card’s claim, then finds it made', async () => {
    const t = setUp({ pushed: true });
    await t.stores.triageChannels.set('it', TRIAGE);
    await t.triage.runOnce();
    t.advance(1);
    const ticket = t.file();
    const other = await t.stores.mirror.claimPost(ticket.id, triageCardKey(TRIAGE), 30_000);
    t.triage.created(ticket.id);
    await t.triage.runOnce();
    if (other.state !== 'claimed') throw new Error('claim expected');
    await t.stores.mirror.completePost(ticket.id, triageCardKey(TRIAGE), other.token);
    t.advance(31_000);
    await t.triage.runOnce();
    expect(t.poster.cards).toEqual([]);
    expect(t.poster.searches).toBe(0);
  });

  it('posts the card once Slack allows after a 429, and only once', async () => {
    const t = setUp({ pushed: true });
    await t.stores.triageChannels.set('it', TRIAGE);
    await t.triage.runOnce();
    t.advance(1);
    const ticket = t.file();
    t.poster.cardError = new PostDeferredError(t.clock.now + 10_000);
    t.triage.created(ticket.id);
    await t.triage.runOnce();
    expect(t.poster.cards).toEqual([]);
    t.advance(5_000);
    await t.triage.runOnce();
    expect(t.poster.cards).toEqual([]);
    t.advance(6_500);
    await t.triage.runOnce();
    t.triage.created(ticket.id);
    await t.triage.runOnce();
    expect(t.poster.cards.map((card) => card.ticketId)).toEqual([ticket.id]);
  });

  it('posts the card again after a Slack failure, once', async () => {
    const t = setUp({ pushed: true });
    await t.stores.triageChannels.set('it', TRIAGE);
    await t.triage.runOnce();
    t.advance(1);
    const ticket = t.file();
    t.poster.cardError = Object.assign(new Error('An API error occurred: internal_error'), {
      data: { error: 'internal_error' },
    });
    t.triage.created(ticket.id);
    await t.triage.runOnce();
    t.advance(5_000);
    await t.triage.runOnce();
    expect(t.poster.cards.map((card) => card.ticketId)).toEqual([ticket.id]);
    expect(t.warnings).toContain('triage card failed; will retry');
  });

  it('reports a channel the app was removed from once, and asks Slack no more for a while', async () => {
    const t = setUp({ pushed: true });
    await t.stores.triageChannels.set('it', TRIAGE);
    await t.triage.runOnce();
    t.advance(1);
    t.poster.goneChannels.add(TRIAGE);
    const first = t.file();
    const second = t.file('it', 'Second');
    const attempts = () => t.poster.cards.length + t.gone.length;
    t.triage.created(first.id);
    t.triage.created(second.id);
    for (let step = 0; step < 5; step++) {
      await t.triage.runOnce();
      t.advance(1_000);
    }
    expect(t.gone).toEqual([TRIAGE]);
    expect(attempts()).toBe(1);
    expect(await t.stores.links.threadsForTicket(first.id)).toEqual([]);
  });

  it('posts one card when two replicas hear of the same ticket at once', async () => {
    const t = setUp({ pushed: true });
    const second = new MirrorComponent({
      platform: t.platform as unknown as MirrorComponentOptions['platform'],
      stores: t.stores,
      logger: silent,
      paced: false,
      now: () => t.clock.now,
      random: () => 0.5,
      triage: { pushed: true },
    });
    second.attach(t.poster);
    const other = second.triage as TriageFeed;
    await t.stores.triageChannels.set('it', TRIAGE);
    await Promise.all([t.triage.runOnce(), other.runOnce()]);
    t.advance(1);
    const ticket = t.file();
    t.triage.created(ticket.id);
    other.created(ticket.id);
    await Promise.all([t.triage.runOnce(), other.runOnce()]);
    t.advance(31_000);
    await Promise.all([t.triage.runOnce(), other.runOnce()]);
    expect(t.poster.cards.map((card) => card.ticketId)).toEqual([ticket.id]);
    expect(await t.stores.links.threadsForTicket(ticket.id)).toHaveLength(1);
  });

  it('posts no second card for a ticket carded before the store came back empty', async () => {
    const t = setUp({ pushed: true });
    await t.stores.triageChannels.set('it', TRIAGE);
    await t.triage.runOnce();
    t.advance(1);
    const ticket = t.file();
    t.triage.created(ticket.id);
    await t.triage.runOnce();
    t.advance(60_000);
    // Redis emptied: a new feed on empty stores hears of the ticket again (a late hook).
    const emptied = createMemoryStores({ now: () => t.clock.now });
    const again = new MirrorComponent({
      platform: t.platform as unknown as MirrorComponentOptions['platform'],
      stores: emptied,
      logger: silent,
      paced: false,
      now: () => t.clock.now,
      triage: { pushed: true },
    });
    again.attach(t.poster);
    await emptied.triageChannels.set('it', TRIAGE);
    const feed = again.triage as TriageFeed;
    await feed.runOnce();
    feed.created(ticket.id);
    await feed.runOnce();
    expect(t.poster.cards.map((card) => card.ticketId)).toEqual([ticket.id]);
  });

  it('links a triage thread found again from its card as the triage thread (the heal after Redis was emptied)', async () => {
    const t = setUp();
    const ticket = t.file();
    const thread = { channel: TRIAGE, threadTs: '1767225700.000042', triage: true };
    await t.mirror.relinkThread(ticket.id, thread);
    expect(await t.stores.links.threadsForTicket(ticket.id)).toEqual([thread]);
  });

  it('lists the triage desks’ new tickets by created_after with one request a period without webhooks or feed', async () => {
    const t = setUp();
    await t.stores.triageChannels.set('it', TRIAGE);
    await t.stores.triageChannels.set('hr', 'C0HR');
    await t.triage.runOnce();
    expect(t.platform.count('listTickets')).toBe(1);
    t.advance(1_000);
    const it1 = t.file('it', 'VPN down');
    const hr1 = t.file('hr', 'Payslip');
    await t.triage.runOnce();
    expect(t.poster.cards).toEqual([]);
    t.advance(179_000);
    await t.triage.runOnce();
    expect(t.platform.count('listTickets')).toBe(2);
    expect(t.platform.count('getTicket')).toBe(0);
    expect(t.poster.cards.map((card) => [card.ticketId, card.channel]).sort()).toEqual(
      [
        [it1.id, TRIAGE],
        [hr1.id, 'C0HR'],
      ].sort(),
    );
    t.advance(180_000);
    await t.triage.runOnce();
    expect(t.platform.count('listTickets')).toBe(3);
    expect(t.poster.cards).toHaveLength(2);
  });

  it('makes no created_after scan on a replica while another replica’s feed lists by updated_after', async () => {
    const t = setUp({ feed: 'filter' });
    await t.stores.triageChannels.set('it', TRIAGE);
    await t.mirror.feed?.scanOnce();
    const second = new MirrorComponent({
      platform: t.platform as unknown as MirrorComponentOptions['platform'],
      stores: t.stores,
      logger: silent,
      paced: false,
      feedMode: 'filter',
      now: () => t.clock.now,
      triage: {},
    });
    second.attach(t.poster);
    const listings = t.platform.count('listTickets');
    await (second.triage as TriageFeed).runOnce();
    expect(t.platform.count('listTickets')).toBe(listings);
  });

  it('takes new tickets from the change feed’s updated_after listing, with no request of its own', async () => {
    const t = setUp({ feed: 'filter' });
    await t.stores.triageChannels.set('it', TRIAGE);
    await t.triage.runOnce();
    t.advance(1_000);
    const ticket = t.file();
    t.advance(1_000);
    await t.mirror.feed?.scanOnce();
    const listings = t.platform.count('listTickets');
    await t.triage.runOnce();
    expect(t.platform.count('listTickets')).toBe(listings);
    expect(t.platform.count('getTicket')).toBe(0);
    expect(t.poster.cards.map((card) => card.ticketId)).toEqual([ticket.id]);
  });
});

describe('the worker and a triage thread', () => {
  async function linked() {
    const t = setUp({ pushed: true });
    await t.stores.triageChannels.set('it', TRIAGE);
    await t.triage.runOnce();
    t.advance(1);
    const ticket = t.file();
    await t.stores.links.link(ticket.id, HELP);
    t.advance(1);
    t.triage.created(ticket.id);
    await t.triage.runOnce();
    const triageThread = { channel: TRIAGE, threadTs: '1767225700.000001', triage: true };
    return { ...t, ticket, triageThread };
  }

  async function pollAll(t: Awaited<ReturnType<typeof linked>>) {
    for (let round = 0; round < 10; round++) {
      const due = await t.stores.schedule.nextDueAt();
      if (due === undefined || due > t.clock.now + 60_000) return;
      t.clock.now = Math.max(t.clock.now, due);
      await t.worker.runOnce();
    }
  }

  it('posts an internal note into the triage thread only, and public messages into both', async () => {
    const t = await linked();
    t.model.addAgentReply(TENANT, t.ticket.id, {
      agentEmail: SAM,
      body: 'Looks like the fuser',
      internal: true,
    });
    t.model.addAgentReply(TENANT, t.ticket.id, { agentEmail: SAM, body: 'On my way' });
    await pollAll(t);
    const posts = t.poster.posts.flatMap((post) =>
      post.kind === 'message' ? [`${post.thread.channel}:${post.message.body}`] : [],
    );
    expect(posts).toEqual([
      'C0AGENTS:Looks like the fuser',
      'C0HELP:On my way',
      'C0AGENTS:On my way',
    ]);
  });

  it('posts a message written from the requester’s Slack thread into the triage thread, not back into theirs', async () => {
    const t = await linked();
    const reply = t.model.addMessage(TENANT, t.ticket.id, {
      body: 'It is still smoking',
      author_email: 'alice@acme.example',
    });
    await t.mirror.rememberOwnMessageId(t.ticket.id, reply.id);
    await pollAll(t);
    const posts = t.poster.posts.flatMap((post) =>
      post.kind === 'message' ? [`${post.thread.channel}:${post.message.body}`] : [],
    );
    expect(posts).toEqual(['C0AGENTS:It is still smoking']);
  });

  it('does not echo into the triage thread a note written there', async () => {
    const t = await linked();
    const note = t.model.addAgentReply(TENANT, t.ticket.id, {
      agentEmail: SAM,
      body: 'Taking it',
      internal: true,
    });
    await t.mirror.rememberTriageMessageId(t.ticket.id, note.id);
    await pollAll(t);
    expect(t.poster.bodies()).toEqual([]);
  });

  it('brings into a triage thread carded late the messages mirrored before it, once', async () => {
    const t = setUp();
    await t.stores.triageChannels.set('it', TRIAGE);
    await t.triage.runOnce();
    t.advance(1);
    const ticket = t.file();
    await t.stores.links.link(ticket.id, HELP);
    await t.mirror.slackWrote(ticket.id);
    t.model.addAiMessage(TENANT, ticket.id, 'Unplug it first', []);
    t.advance(2_000);
    await t.worker.runOnce();
    expect(t.poster.bodies()).toEqual(['Unplug it first']);
    t.advance(1);
    t.triage.created(ticket.id);
    await t.triage.runOnce();
    t.model.addAgentReply(TENANT, ticket.id, { agentEmail: SAM, body: 'Coming over' });
    for (let round = 0; round < 5; round++) {
      t.advance(60_000);
      await t.mirror.hints.hint(ticket.id, { messageOnly: true });
      t.advance(5_000);
      await t.worker.runOnce();
    }
    const posts = t.poster.posts.flatMap((post) =>
      post.kind === 'message' ? [`${post.thread.channel}:${post.message.body}`] : [],
    );
    expect(posts).toEqual([
      'C0HELP:Unplug it first',
      'C0AGENTS:Unplug it first',
      'C0HELP:Coming over',
      'C0AGENTS:Coming over',
    ]);
  });

  it('posts status changes into the triage thread and refreshes its card with the others', async () => {
    const t = await linked();
    t.model.updateTicket(TENANT, t.ticket.id, { priority: 'high' }, SAM);
    await pollAll(t);
    const changes = t.poster.posts.flatMap((post) =>
      post.kind === 'change' && post.activity.type === 'priority_changed'
        ? [post.thread.channel]
        : [],
    );
    expect(changes).toEqual(['C0HELP', 'C0AGENTS']);
    expect(t.poster.refreshes.map((refresh) => refresh.thread)).toEqual([HELP, t.triageThread]);
  });
});

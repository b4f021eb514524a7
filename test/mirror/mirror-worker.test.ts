import { describe, expect, it } from 'vitest';
import {
  AdaptivePlanner,
  BudgetDeferredError,
  BudgetPacer,
  FixedPlanner,
  MirrorComponent,
  type MirrorComponentOptions,
  MirrorWorker,
  ownMessageIdMark,
  ownMessageTextMark,
  type PollPlanner,
  PostDeferredError,
  type PostedItem,
  RELAXED_PACE,
  TicketHints,
} from '../../src/mirror/index.ts';
import { ownMarks, reopenToldInMark } from '../../src/mirror/own-marks.ts';
import { createMemoryStores } from '../../src/store/index.ts';
import { emptyModel, ModelPlatform, RecordingPoster, SAM, serverError, TENANT } from './support.ts';

const T0 = 1_767_225_600_000;
const THREAD = { channel: 'C0HELP', threadTs: '1767225600.000100' };
const OTHER = { channel: 'D0ALICE', threadTs: '1767225601.000200' };
const silent = { debug() {}, info() {}, warn() {}, error() {} };
const HOUR = 3_600_000;

function setUp(capabilities: Parameters<typeof emptyModel>[1] = {}) {
  const clock = { now: T0 };
  const now = () => clock.now;
  const model = emptyModel(now, capabilities);
  const stores = createMemoryStores({ now });
  const platform = new ModelPlatform(model);
  const poster = new RecordingPoster();
  const posted: PostedItem[] = [];
  const warnings: string[] = [];
  // The worker as the mirror builds it: writes from Slack reach it through the mirror.
  const mirror = new MirrorComponent({
    platform: platform as unknown as MirrorComponentOptions['platform'],
    stores,
    logger: { ...silent, warn: (_obj: object, msg?: string) => void warnings.push(msg ?? '') },
    planner: new AdaptivePlanner(),
    paced: false,
    now,
    random: () => 0.5,
    worker: { onPosted: (item) => void posted.push(item) },
  });
  const worker = mirror.attach(poster) as MirrorWorker;

  async function fileTicket(threads = [THREAD]) {
    const ticket = model.createTicket(TENANT, {
      title: 'Badge reader <broken> & beeping',
      requester_email: 'alice@acme.example',
      channel: 'slack',
    });
    for (const thread of threads) await stores.links.link(ticket.id, thread);
    await mirror.slackWrote(ticket.id);
    return ticket.id;
  }

  /** Moves the clock to the next due poll and runs it. */
  async function pollNext(): Promise<void> {
    const due = await stores.schedule.nextDueAt();
    if (due === undefined) throw new Error('nothing is scheduled');
    clock.now = Math.max(clock.now, due);
    await worker.runOnce();
  }

  /** Polls until the ticket's state says it has read everything the model holds. */
  async function catchUp(ticketId: string): Promise<void> {
    for (let round = 0; round < 20; round++) {
      await pollNext();
      const state = await stores.mirror.state(ticketId);
      const activity = model.listActivity(TENANT, ticketId).length;
      if (state && state.activityCursor >= activity && state.backoffStep === 0) return;
    }
    throw new Error('the mirror did not catch up');
  }

  const advance = (ms: number) => {
    clock.now += ms;
  };
  return {
    clock,
    model,
    stores,
    platform,
    poster,
    posted,
    warnings,
    mirror,
    worker,
    fileTicket,
    pollNext,
    catchUp,
    advance,
  };
}

/** A worker on the fixture's stores and clock, paced by `pacer`. */
function workerWith(t: ReturnType<typeof setUp>, pacer: BudgetPacer, planner?: PollPlanner) {
  return new MirrorWorker({
    platform: t.platform,
    stores: t.stores,
    poster: t.poster,
    logger: silent,
    pacer,
    ...(planner ? { planner } : {}),
    now: () => t.clock.now,
    random: () => 0.5,
  });
}

/** A pacer that only gates: `roomAt` says when a look of each priority may go. */
function gate(roomAt: (priority: string) => number | undefined): BudgetPacer {
  return {
    roomAt: async (priority: string) => roomAt(priority),
    refreshIfDue: async () => RELAXED_PACE,
    pace: () => RELAXED_PACE,
  } as unknown as BudgetPacer;
}

/**
 * Runs a worker whose gate turns every look away until there is room: the message a person
 * waits for comes at once with one request, and the ticket comes due again for the change,
 * which is read once there is room. Returns the worker's posts.
 */
async function messageFirstThenChange(
  t: ReturnType<typeof setUp>,
  id: string,
  message: { id: string },
) {
  let room = false;
  const gated = workerWith(
    t,
    gate(() => (room ? undefined : t.clock.now + 60_000)),
  );
  t.platform.calls.length = 0;
  await gated.runOnce();
  expect(t.platform.calls.map((c) => c.operation)).toEqual(['listMessages']);
  expect(t.poster.posts.at(-1)).toMatchObject({ kind: 'message', message });
  const due = await t.stores.schedule.dueAt(id);
  expect(due).toBeGreaterThan(t.clock.now);
  room = true;
  t.advance((due as number) - t.clock.now);
  t.platform.calls.length = 0;
  await gated.runOnce();
  expect(t.platform.calls.map((c) => c.operation)).toContain('listActivity');
  expect(t.poster.posts.filter((p) => p.kind === 'message')).toHaveLength(1);
  return t.poster.posts;
}

/**
 * A worker paced by a real pacer, with 2,000 more tickets scheduled far ahead so that its trust
 * (about 125 h) outgrows its idle interval (6 h). `scanned()` records a scan by updated_after just
 * made, so the pacer finds every ticket watched.
 */
function paced(t: ReturnType<typeof setUp>, planner?: PollPlanner) {
  const pacer = new BudgetPacer({
    budget: t.stores.budget,
    schedule: t.stores.schedule,
    feed: t.stores.feed,
    now: () => t.clock.now,
  });
  const worker = workerWith(t, pacer, planner);
  async function others(): Promise<void> {
    for (let i = 0; i < 2_000; i++) {
      await t.stores.schedule.pollAt(`IT-X${i}`, T0 + 365 * 24 * HOUR);
    }
  }
  async function scanned(): Promise<void> {
    const now = t.clock.now;
    const filter = { way: 'filter', detectedAt: T0, cursor: now - 2_000, since: T0 - 60_000 };
    await t.stores.feed.saveState({ scannedAt: now, data: filter });
  }
  /** The pace's trust as the pacer sizes it now. */
  async function trust(): Promise<number> {
    return (await pacer.refresh()).trustMs ?? 0;
  }
  return { pacer, worker, others, scanned, trust };
}

/** A ticket looked at once, among 2,000 others scheduled, with a pacer that may watch. */
async function quietTicket(planner?: PollPlanner) {
  const t = setUp();
  const p = paced(t, planner);
  const id = await t.fileTicket();
  await t.catchUp(id);
  await p.others();
  const lastPolledAt = (await t.stores.mirror.state(id))?.lastPolledAt ?? 0;
  /** Makes the ticket due now and runs the worker once (after a scan, when `watched`). */
  async function lookNow(watched = true): Promise<number> {
    await t.stores.schedule.pollAt(id, t.clock.now);
    if (watched) await p.scanned();
    t.platform.calls.length = 0;
    return p.worker.runOnce();
  }
  return { t, p, id, lastPolledAt, lookNow };
}

describe('mirror worker, while a feed watches every ticket', () => {
  it('moves a routine look at a quiet ticket to when its last look stops being trusted, without a request', async () => {
    const { t, p, id, lastPolledAt, lookNow } = await quietTicket();
    const trust = await p.trust();
    // Beyond the idle interval, an hour before the trust runs out.
    t.clock.now = lastPolledAt + trust - HOUR;
    expect(await lookNow()).toBe(1);
    expect(t.platform.calls).toEqual([]);
    expect(await t.stores.schedule.dueAt(id)).toBe(lastPolledAt + trust);
  });

  it('puts a look whose trust ends within the current millisecond after it, not back at now to be claimed without end', async () => {
    const { t, p, id, lastPolledAt, lookNow } = await quietTicket();
    const state = await t.stores.mirror.state(id);
    // A last look recorded in a fraction of a millisecond (a clock or a store that keeps them).
    if (!state) throw new Error('the ticket has no state');
    await t.stores.mirror.saveState(id, { ...state, lastPolledAt: lastPolledAt + 0.5 });
    t.clock.now = lastPolledAt + (await p.trust());
    expect(await lookNow()).toBe(1);
    expect(await t.stores.schedule.dueAt(id)).toBe(t.clock.now + 1);
    t.clock.now += 1;
    expect(await p.worker.runOnce()).toBe(1);
    expect(t.platform.calls.map((c) => c.operation)).toEqual(['listActivity']);
  });

  it('makes a routine look once the ticket’s last look is older than the trust', async () => {
    const { t, p, id, lastPolledAt, lookNow } = await quietTicket();
    t.clock.now = lastPolledAt + (await p.trust());
    await lookNow();
    expect(t.platform.calls.map((c) => c.operation)).toEqual(['listActivity']);
    expect((await t.stores.mirror.state(id))?.lastPolledAt).toBe(t.clock.now);
  });

  it('makes a routine look within the trust when no feed watches', async () => {
    const { t, lastPolledAt, lookNow } = await quietTicket();
    t.clock.now = lastPolledAt + 7 * HOUR;
    await lookNow(false);
    expect(t.platform.calls.map((c) => c.operation)).toEqual(['listActivity']);
  });

  it('makes the look a message hint asked for within the trust', async () => {
    const { t, id, lookNow } = await quietTicket();
    t.advance(7 * HOUR);
    const answer = t.model.addAgentReply(TENANT, id, { agentEmail: SAM, body: 'On my way' });
    await t.stores.mirror.noteHint(id, t.clock.now, 'message');
    await lookNow();
    expect(t.platform.calls.map((c) => c.operation)).toEqual(['listMessages']);
    expect(t.poster.posts.at(-1)).toMatchObject({ kind: 'message', message: answer });
  });

  it('makes the look a change hint asked for within the trust', async () => {
    const { t, id, lookNow } = await quietTicket();
    t.advance(7 * HOUR);
    t.model.updateTicket(TENANT, id, { priority: 'high' }, SAM);
    await t.stores.mirror.noteHint(id, t.clock.now);
    await lookNow();
    expect(t.platform.calls.map((c) => c.operation)).toContain('listActivity');
    expect(t.poster.posts.at(-1)).toMatchObject({ kind: 'change' });
  });

  it('makes the look a hint asked for though the planner ranks every look routine', async () => {
    const { t, id, lookNow } = await quietTicket(new FixedPlanner(HOUR));
    t.advance(7 * HOUR);
    t.model.addAgentReply(TENANT, id, { agentEmail: SAM, body: 'On its way' });
    await t.stores.mirror.noteHint(id, t.clock.now, 'message');
    await lookNow();
    expect(t.platform.calls.length).toBeGreaterThan(0);
    expect(t.poster.posts.at(-1)).toMatchObject({ kind: 'message' });
  });
});

describe('mirror worker', () => {
  it('finds the answer to a write from Slack with one request, two seconds after it', async () => {
    const t = setUp();
    const id = await t.fileTicket();
    t.advance(1_500);
    const answer = t.model.addAiMessage(TENANT, id, 'Try turning it off and on.', [
      { title: 'Badges', url: 'https://kb.acme.example/badges' },
    ]);
    await t.pollNext();
    expect(t.clock.now).toBe(T0 + 2_000);
    expect(t.platform.calls.map((c) => c.operation)).toEqual(['listMessages']);
    expect(t.poster.posts).toEqual([
      { kind: 'message', thread: THREAD, ticketId: id, message: answer },
    ]);
    expect(t.posted).toEqual([
      {
        ticketId: id,
        itemId: answer.id,
        kind: 'message',
        createdAt: T0 + 1_500,
        postedAt: T0 + 2_000,
      },
    ]);
  });

  it('asks for messages only when the activity announced one', async () => {
    const t = setUp();
    const id = await t.fileTicket();
    await t.catchUp(id);
    t.platform.calls.length = 0;
    t.model.updateTicket(TENANT, id, { priority: 'high' }, SAM);
    await t.catchUp(id);
    expect(t.platform.count('listMessages')).toBe(0);
    t.model.addAgentReply(TENANT, id, { agentEmail: SAM, body: 'On my way' });
    await t.catchUp(id);
    expect(t.platform.count('listMessages')).toBe(1);
    expect(t.poster.bodies()).toEqual(['On my way']);
  });

  it('posts every public message into every linked thread, in order', async () => {
    const t = setUp();
    const id = await t.fileTicket([THREAD, OTHER]);
    await t.catchUp(id);
    t.model.addAgentReply(TENANT, id, { agentEmail: SAM, body: 'First' });
    t.model.addAiMessage(TENANT, id, 'Second', []);
    await t.catchUp(id);
    const messages = t.poster.posts.flatMap((p) =>
      p.kind === 'message' ? [`${p.thread.channel}:${p.message.body}`] : [],
    );
    expect(messages).toEqual(['C0HELP:First', 'D0ALICE:First', 'C0HELP:Second', 'D0ALICE:Second']);
  });

  it('never posts an internal note', async () => {
    const t = setUp();
    const id = await t.fileTicket();
    await t.catchUp(id);
    t.model.addAgentReply(TENANT, id, { agentEmail: SAM, body: 'Internal only', internal: true });
    t.model.addAgentReply(TENANT, id, { agentEmail: SAM, body: 'For everyone' });
    await t.catchUp(id);
    expect(t.poster.bodies()).toEqual(['For everyone']);
  });

  it('keeps the first public answer of an agent as the first response, not the requester’s nor a note', async () => {
    const t = setUp();
    const id = await t.fileTicket();
    await t.catchUp(id);
    t.advance(1_000);
    t.model.addMessage(TENANT, id, { body: 'Any news?', author_email: 'alice@acme.example' });
    t.model.addMessage(TENANT, id, { body: 'Looking', author_email: SAM, internal: true });
    t.advance(1_000);
    const answer = t.model.addAgentReply(TENANT, id, { body: 'On it', agentEmail: SAM });
    t.advance(1_000);
    t.model.addAgentReply(TENANT, id, { body: 'Fixed?', agentEmail: SAM });
    await t.catchUp(id);
    expect((await t.stores.mirror.state(id))?.firstResponseAt).toBe(Date.parse(answer.created_at));
  });

  it('hands the card the first response it saw when the platform gives none', async () => {
    const t = setUp();
    const id = await t.fileTicket();
    await t.catchUp(id);
    const answer = t.model.addAgentReply(TENANT, id, { body: 'On it', agentEmail: SAM });
    await t.catchUp(id);
    t.model.updateTicket(TENANT, id, { priority: 'high' }, SAM);
    await t.catchUp(id);
    const card = t.poster.refreshes.at(-1)?.ticket;
    expect(card?.priority).toBe('high');
    expect(card?.first_responded_at).toBe(new Date(Date.parse(answer.created_at)).toISOString());
  });

  it('does not echo a message the app added from Slack, by its id or, before that, by its text', async () => {
    const t = setUp();
    const id = await t.fileTicket();
    await t.catchUp(id);
    const byId = t.model.addMessage(TENANT, id, {
      body: 'Still broken',
      author_email: 'alice@acme.example',
    });
    await t.stores.mirror.rememberOwn(id, [ownMessageIdMark(byId.id)]);
    // The add landed, but its answer (and id) has not come back yet: only the text is known.
    await t.stores.mirror.rememberOwn(id, [ownMessageTextMark('alice@acme.example', 'Any news?')]);
    t.model.addMessage(TENANT, id, { body: 'Any news?', author_email: 'alice@acme.example' });
    t.model.addMessage(TENANT, id, {
      body: 'Sent from my email',
      author_email: 'alice@acme.example',
    });
    await t.catchUp(id);
    expect(t.poster.bodies()).toEqual(['Sent from my email']);
  });

  it('posts a message written from Slack in one linked thread into the others, never back into it', async () => {
    const t = setUp();
    const id = await t.fileTicket([THREAD, OTHER]);
    await t.catchUp(id);
    const text = ownMessageTextMark('alice@acme.example', 'Still broken');
    await t.stores.mirror.rememberOwn(id, ownMarks(text, OTHER));
    const added = t.model.addMessage(TENANT, id, {
      body: 'Still broken',
      author_email: 'alice@acme.example',
    });
    await t.stores.mirror.rememberOwn(id, ownMarks(ownMessageIdMark(added.id), OTHER));
    await t.catchUp(id);
    const messages = t.poster.posts.flatMap((p) =>
      p.kind === 'message' ? [`${p.thread.channel}:${p.message.body}`] : [],
    );
    expect(messages).toEqual(['C0HELP:Still broken']);
  });

  it('posts a reopening the Slack side told in one thread into the ticket’s other threads only', async () => {
    const t = setUp();
    const id = await t.fileTicket([THREAD, OTHER]);
    t.model.updateTicket(TENANT, id, { status: 'resolved' }, SAM);
    await t.catchUp(id);
    t.poster.posts.length = 0;
    const added = t.model.addMessage(TENANT, id, {
      body: 'Still broken',
      author_email: 'alice@acme.example',
    });
    await t.stores.mirror.rememberOwn(id, ownMarks(ownMessageIdMark(added.id), OTHER));
    await t.stores.mirror.rememberOwn(id, [reopenToldInMark(added.id, OTHER)]);
    t.model.updateTicket(TENANT, id, { status: 'open' }, 'alice@acme.example');
    await t.catchUp(id);
    const changes = t.poster.posts.flatMap((p) =>
      p.kind === 'change' ? [`${p.thread.channel}:${p.activity.to}`] : [],
    );
    expect(changes).toEqual(['C0HELP:open']);
  });

  it('posts status, priority and assignee changes, and tells the requester once resolved', async () => {
    const t = setUp();
    const id = await t.fileTicket();
    await t.catchUp(id);
    t.model.updateTicket(TENANT, id, { assignee_email: SAM, priority: 'high' }, SAM);
    t.model.updateTicket(TENANT, id, { status: 'resolved' }, SAM);
    await t.catchUp(id);
    const changes = t.poster.posts.flatMap((p) =>
      p.kind === 'change' ? [`${p.activity.type}:${p.activity.to}`] : [],
    );
    expect(changes).toEqual([
      'priority_changed:high',
      `assigned:${SAM}`,
      'status_changed:resolved',
    ]);
    expect(t.poster.posts.filter((p) => p.kind === 'notice')).toEqual([
      {
        kind: 'notice',
        ticketId: id,
        status: 'resolved',
        email: 'alice@acme.example',
        title: 'Badge reader <broken> & beeping',
      },
    ]);
  });

  it('refreshes the card in every linked thread once for a burst of changes, from one read of the ticket', async () => {
    const t = setUp();
    const id = await t.fileTicket([THREAD, OTHER]);
    await t.catchUp(id);
    t.platform.calls.length = 0;
    t.model.updateTicket(TENANT, id, { assignee_email: SAM, priority: 'high' }, SAM);
    t.model.updateTicket(TENANT, id, { status: 'in_progress' }, SAM);
    await t.catchUp(id);
    expect(t.platform.count('getTicket')).toBe(1);
    expect(
      t.poster.refreshes.map((r) => [
        r.thread.channel,
        r.ticket.status,
        r.ticket.priority,
        r.ticket.assignee_email,
      ]),
    ).toEqual([
      ['C0HELP', 'in_progress', 'high', SAM],
      ['D0ALICE', 'in_progress', 'high', SAM],
    ]);
  });

  it('refreshes the card when the ticket changed, not when it only got messages', async () => {
    const t = setUp();
    const id = await t.fileTicket();
    await t.catchUp(id);
    t.model.addAgentReply(TENANT, id, { agentEmail: SAM, body: 'Looking into it' });
    t.model.addAiMessage(TENANT, id, 'An agent has it.', []);
    await t.catchUp(id);
    expect(t.poster.refreshes).toEqual([]);
    expect(t.platform.count('getTicket')).toBe(0);
    t.model.updateTicket(TENANT, id, { status: 'waiting_on_requester' }, SAM);
    await t.catchUp(id);
    expect(t.poster.refreshes.map((r) => r.ticket.status)).toEqual(['waiting_on_requester']);
  });

  it('logs a card refresh that fails, and the poll’s posts and cursors stand', async () => {
    const t = setUp();
    const id = await t.fileTicket();
    await t.catchUp(id);
    t.poster.refreshFailure = new Error('An API error occurred: fatal_error');
    t.model.updateTicket(TENANT, id, { status: 'resolved' }, SAM);
    t.model.addAgentReply(TENANT, id, { agentEmail: SAM, body: 'Replaced the badge reader' });
    await t.pollNext();
    expect(t.poster.refreshes).toHaveLength(1);
    expect(t.poster.posts.map((p) => p.kind)).toEqual(['change', 'notice', 'message']);
    const state = await t.stores.mirror.state(id);
    expect(state?.activityCursor).toBe(t.model.listActivity(TENANT, id).length);
    expect(state?.backoffStep).toBe(0);
    expect(t.warnings).toContain('ticket card could not be refreshed');
  });

  it('refreshes the card on the next poll when the ticket could not be read, posting its change once', async () => {
    const t = setUp();
    const id = await t.fileTicket();
    await t.catchUp(id);
    const getTicket = t.platform.getTicket;
    let failures = 1;
    t.platform.getTicket = async (...args) => {
      if (failures-- > 0) throw serverError('getTicket');
      return getTicket(...args);
    };
    t.model.updateTicket(TENANT, id, { priority: 'urgent' }, SAM);
    await t.pollNext();
    expect(t.poster.refreshes).toEqual([]);
    await t.catchUp(id);
    expect(t.poster.refreshes.map((r) => r.ticket.priority)).toEqual(['urgent']);
    expect(t.poster.posts.filter((p) => p.kind === 'change')).toHaveLength(1);
  });

  it('slows down for a resolved ticket and stops polling a closed one, letting its memory go', async () => {
    const t = setUp();
    const id = await t.fileTicket();
    await t.catchUp(id);
    t.model.updateTicket(TENANT, id, { status: 'resolved' }, SAM);
    await t.catchUp(id);
    expect(((await t.stores.schedule.dueAt(id)) ?? 0) - t.clock.now).toBeGreaterThanOrEqual(
      1_800_000,
    );
    t.model.updateTicket(TENANT, id, { status: 'closed' }, SAM);
    await t.catchUp(id);
    expect(await t.stores.schedule.dueAt(id)).toBeUndefined();
    t.advance(7 * 86_400_000);
    expect(await t.stores.mirror.state(id)).toBeUndefined();
    expect(
      t.poster.posts.filter((p) => p.kind === 'notice').map((p) => p.kind === 'notice' && p.status),
    ).toEqual(['resolved', 'closed']);
  });

  it('stops polling a ticket that no thread is linked to any more', async () => {
    const t = setUp();
    const id = await t.fileTicket();
    await t.stores.links.unlink(id, THREAD);
    await t.pollNext();
    expect(await t.stores.schedule.dueAt(id)).toBeUndefined();
    expect(t.platform.calls).toEqual([]);
  });

  it('waits for the budget when it refuses, without reading anything twice', async () => {
    const t = setUp();
    const id = await t.fileTicket();
    await t.catchUp(id);
    t.model.addAgentReply(TENANT, id, { agentEmail: SAM, body: 'Later' });
    const retryAt = t.clock.now + 3_600_000;
    t.platform.failWith = (operation) => new BudgetDeferredError(operation, retryAt, 'window');
    const before = await t.stores.mirror.state(id);
    await t.pollNext();
    expect(await t.stores.mirror.state(id)).toEqual(before);
    const due = (await t.stores.schedule.dueAt(id)) ?? 0;
    expect(due).toBeGreaterThanOrEqual(retryAt);
    expect(due).toBeLessThanOrEqual(retryAt + 1_000);
    t.platform.failWith = undefined;
    await t.catchUp(id);
    expect(t.poster.bodies()).toEqual(['Later']);
  });

  it('looks again only when Slack allows after Slack asked to wait, and then posts once', async () => {
    const t = setUp();
    const id = await t.fileTicket();
    await t.catchUp(id);
    t.model.addAgentReply(TENANT, id, { agentEmail: SAM, body: 'After the wait' });
    const retryAt = t.clock.now + 75_000;
    t.poster.nextPostError = new PostDeferredError(retryAt);
    await t.pollNext();
    expect(t.poster.bodies()).toEqual([]);
    const due = (await t.stores.schedule.dueAt(id)) ?? 0;
    expect(due).toBeGreaterThanOrEqual(retryAt);
    expect(due).toBeLessThanOrEqual(retryAt + 1_000);
    expect((await t.stores.mirror.state(id))?.backoffStep).toBe(0);
    await t.catchUp(id);
    expect(t.poster.bodies()).toEqual(['After the wait']);
  });

  it('never looks again before Slack’s Retry-After, whatever a hint, the feed or a write from Slack asks meanwhile', async () => {
    const t = setUp();
    const hints = new TicketHints({ stores: t.stores, now: () => t.clock.now });
    const id = await t.fileTicket();
    await t.catchUp(id);
    t.model.addAgentReply(TENANT, id, { agentEmail: SAM, body: 'After the 429' });
    const retryAt = t.clock.now + 30_000;
    // The first post meets Slack's 429 (Retry-After 30 s) while a hint for the ticket arrives
    // mid-poll, as the change feed's did.
    const post = t.poster.postMessage.bind(t.poster);
    let limited = false;
    t.poster.postMessage = async (thread, ticketId, message) => {
      if (limited) return post(thread, ticketId, message);
      limited = true;
      await hints.hint(ticketId);
      throw new PostDeferredError(retryAt);
    };
    await t.pollNext();
    expect(t.poster.bodies()).toEqual([]);
    expect(await t.stores.schedule.dueAt(id)).toBeGreaterThanOrEqual(retryAt);
    // After the claim: a message hint, the feed's ask and a write from Slack, all sooner.
    t.advance(6_000);
    await hints.hint(id, { messageOnly: true });
    await t.stores.schedule.pollAt(id, t.clock.now);
    await t.mirror.slackWrote(id);
    expect(await t.stores.schedule.dueAt(id)).toBeGreaterThanOrEqual(retryAt);
    await t.pollNext();
    expect(t.clock.now).toBeGreaterThanOrEqual(retryAt);
    expect(t.poster.bodies()).toEqual(['After the 429']);
  });

  it('backs off while the platform fails, then catches up losing and repeating nothing', async () => {
    const t = setUp();
    const id = await t.fileTicket();
    await t.catchUp(id);
    t.platform.failWith = serverError;
    const failedAt = t.clock.now;
    for (let i = 0; i < 4; i++) {
      t.model.addAgentReply(TENANT, id, { agentEmail: SAM, body: `Reply ${i + 1}` });
      await t.pollNext();
    }
    expect((await t.stores.mirror.state(id))?.backoffStep).toBe(4);
    expect(t.clock.now - failedAt).toBeGreaterThan(30_000);
    t.platform.failWith = undefined;
    await t.catchUp(id);
    expect(t.poster.bodies()).toEqual(['Reply 1', 'Reply 2', 'Reply 3', 'Reply 4']);
  });

  it('posts again on the next poll what Slack refused, and only once', async () => {
    const t = setUp();
    const id = await t.fileTicket();
    await t.catchUp(id);
    t.model.addAgentReply(TENANT, id, { agentEmail: SAM, body: 'One' });
    t.model.addAgentReply(TENANT, id, { agentEmail: SAM, body: 'Two' });
    t.poster.failures = 1;
    await t.catchUp(id);
    expect(t.poster.bodies()).toEqual(['One', 'Two']);
  });

  it('looks for a post in the thread before sending it again after a poller died mid-post', async () => {
    const t = setUp();
    const id = await t.fileTicket();
    await t.catchUp(id);
    const reply = t.model.addAgentReply(TENANT, id, {
      agentEmail: SAM,
      body: 'Posted just before a crash',
    });
    // A poller claimed the post, sent it, and died before recording it.
    const key = JSON.stringify([reply.id, THREAD.channel, THREAD.threadTs]);
    await t.stores.mirror.claimPost(id, key, 30_000);
    t.poster.alreadyThere.add(reply.id);
    t.advance(30_000);
    await t.catchUp(id);
    expect(t.poster.lookups).toEqual([reply.id]);
    expect(t.poster.bodies()).toEqual([]);
    expect(await t.stores.mirror.claimPost(id, key, 30_000)).toEqual({ state: 'done' });
  });

  it('unlinks a thread that can no longer take posts', async () => {
    const t = setUp();
    const id = await t.fileTicket([THREAD, OTHER]);
    await t.catchUp(id);
    t.poster.gone.add(OTHER.channel);
    t.model.addAgentReply(TENANT, id, { agentEmail: SAM, body: 'Hello' });
    await t.catchUp(id);
    expect(await t.stores.links.threadsForTicket(id)).toEqual([THREAD]);
  });

  it('stops and forgets a ticket the platform no longer shows', async () => {
    const t = setUp();
    const id = await t.fileTicket();
    await t.stores.links.link('IT-999', OTHER);
    await t.mirror.slackWrote('IT-999');
    await t.pollNext();
    expect(await t.stores.schedule.dueAt('IT-999')).toBeUndefined();
    expect(await t.stores.schedule.dueAt(id)).toBeDefined();
  });

  it('records a write from Slack and looks for its answer soon', async () => {
    const t = setUp();
    const id = await t.fileTicket();
    await t.catchUp(id);
    t.advance(3_600_000);
    await t.stores.schedule.remove(id);
    await t.stores.schedule.pollAt(id, t.clock.now + 3_600_000);
    await t.mirror.slackWrote(id);
    expect(await t.stores.schedule.dueAt(id)).toBe(t.clock.now + 2_000);
    expect((await t.stores.mirror.state(id))?.slackWriteAt).toBe(t.clock.now);
  });

  it('reads the messages alone for a look a message hint asked for', async () => {
    const t = setUp();
    const id = await t.fileTicket();
    await t.catchUp(id);
    t.advance(600_000);
    const answer = t.model.addAgentReply(TENANT, id, { agentEmail: SAM, body: 'On my way' });
    await t.stores.mirror.noteHint(id, t.clock.now, 'message');
    await t.stores.schedule.pollAt(id, t.clock.now + 1_000);
    t.platform.calls.length = 0;
    await t.pollNext();
    expect(t.platform.calls.map((c) => c.operation)).toEqual(['listMessages']);
    expect(t.poster.posts.at(-1)).toMatchObject({ kind: 'message', message: answer });
  });

  it('lets a hinted look past the pacer’s gate that turns routine looks away', async () => {
    const t = setUp();
    const id = await t.fileTicket();
    await t.catchUp(id);
    const gated = workerWith(
      t,
      gate((priority: string) => (priority === 'hinted' ? undefined : t.clock.now + 60_000)),
    );
    // Past the quarter hour a write waits for its answer: a look at it is routine again.
    t.advance(16 * 60_000);
    await t.stores.schedule.pollAt(id, t.clock.now);
    t.platform.calls.length = 0;
    await gated.runOnce();
    expect(t.platform.calls).toEqual([]);
    await t.stores.mirror.noteHint(id, t.clock.now);
    await t.stores.schedule.pollAt(id, t.clock.now);
    await gated.runOnce();
    expect(t.platform.calls.map((c) => c.operation)).toEqual(['listActivity']);
  });

  it('reads a status change the platform’s webhook announced at once while the pacer turns hinted looks away, as a hinted message is read', async () => {
    const t = setUp();
    const id = await t.fileTicket();
    await t.catchUp(id);
    // The hour is full to the hinted level: only what people wait for goes.
    const gated = workerWith(
      t,
      gate((priority: string) => (priority === 'awaited' ? undefined : t.clock.now + 60_000)),
    );
    t.advance(600_000);
    t.model.updateTicket(TENANT, id, { status: 'in_progress' }, SAM);
    // What the webhook route does with `ticket.updated`.
    await t.mirror.hints.hint(id, { announced: true });
    t.advance(1_000);
    t.platform.calls.length = 0;
    await gated.runOnce();
    expect(t.platform.calls.map((c) => c.operation)).toContain('listActivity');
    expect(t.poster.posts.at(-1)).toMatchObject({
      kind: 'change',
      activity: { to: 'in_progress' },
    });
  });

  it('puts a look at an announced change back for a few seconds, not half a minute, when even its room is taken', async () => {
    const t = setUp();
    const id = await t.fileTicket();
    await t.catchUp(id);
    const gated = workerWith(
      t,
      gate(() => t.clock.now + 1_000),
    );
    t.advance(600_000);
    t.model.updateTicket(TENANT, id, { status: 'in_progress' }, SAM);
    await t.mirror.hints.hint(id, { announced: true });
    t.advance(1_000);
    t.platform.calls.length = 0;
    await gated.runOnce();
    expect(t.platform.calls).toEqual([]);
    const due = (await t.stores.schedule.dueAt(id)) as number;
    expect(due - t.clock.now).toBeGreaterThanOrEqual(5_000);
    expect(due - t.clock.now).toBeLessThan(30_000);
  });

  it('reads the activity soon after a change made from Slack, past the gate that turns routine looks away', async () => {
    const t = setUp();
    const id = await t.fileTicket();
    await t.catchUp(id);
    const gated = workerWith(
      t,
      gate((priority: string) => (priority === 'hinted' ? undefined : t.clock.now + 60_000)),
    );
    t.advance(600_000);
    t.model.updateTicket(TENANT, id, { status: 'in_progress' });
    await t.mirror.slackChanged(id);
    expect(await t.stores.schedule.dueAt(id)).toBeLessThanOrEqual(t.clock.now + 2_000);
    t.advance(2_000);
    t.platform.calls.length = 0;
    await gated.runOnce();
    expect(t.platform.calls.map((c) => c.operation)).toContain('listActivity');
    expect(t.poster.posts.at(-1)).toMatchObject({ kind: 'change' });
  });

  it('posts a hinted message at once while the gate turns its status read away, and reads the change once there is room', async () => {
    const t = setUp();
    const id = await t.fileTicket();
    await t.catchUp(id);
    t.advance(600_000);
    // An agent answers and resolves: both hints arrive, the change's first.
    t.model.updateTicket(TENANT, id, { status: 'resolved' });
    const answer = t.model.addAgentReply(TENANT, id, { agentEmail: SAM, body: 'Fixed it' });
    await t.stores.mirror.noteHint(id, t.clock.now, 'change');
    await t.stores.mirror.noteHint(id, t.clock.now, 'message');
    await t.stores.schedule.pollAt(id, t.clock.now);
    const posts = await messageFirstThenChange(t, id, answer);
    expect(posts.filter((p) => p.kind === 'change')).toHaveLength(1);
  });

  it('fetches the answer a write awaits at once while the gate turns away the read of the status the write moved, and reads it once there is room', async () => {
    const t = setUp();
    const id = await t.fileTicket();
    await t.catchUp(id);
    t.model.updateTicket(TENANT, id, { status: 'waiting_on_requester' }, SAM);
    await t.catchUp(id);
    t.advance(600_000);
    // Alice answers from Slack, which hands the ticket back to the desk; Sam answers at once.
    const own = t.model.addMessage(TENANT, id, {
      body: 'Restarted, still broken',
      author_email: 'alice@acme.example',
    });
    await t.stores.mirror.rememberOwn(id, [ownMessageIdMark(own.id)]);
    await t.mirror.slackWrote(id);
    const answer = t.model.addAgentReply(TENANT, id, { agentEmail: SAM, body: 'Looking again' });
    t.advance(2_000);
    const posts = await messageFirstThenChange(t, id, answer);
    const changes = posts.flatMap((p) => (p.kind === 'change' ? [p.activity.to] : []));
    expect(changes).toEqual(['waiting_on_requester', 'open']);
  });

  /** A ticket set in progress and looked at, then raised to high and looked at again (its calls only). */
  async function statusThenPriority(t: ReturnType<typeof setUp>): Promise<string> {
    const id = await t.fileTicket();
    await t.catchUp(id);
    t.advance(60_000);
    t.model.updateTicket(TENANT, id, { status: 'in_progress' });
    await t.stores.mirror.noteHint(id, t.clock.now);
    await t.stores.schedule.pollAt(id, t.clock.now);
    await t.pollNext();
    t.advance(60_000);
    t.model.updateTicket(TENANT, id, { priority: 'high' });
    await t.stores.mirror.noteHint(id, t.clock.now);
    await t.stores.schedule.pollAt(id, t.clock.now);
    t.platform.calls.length = 0;
    await t.pollNext();
    return id;
  }

  it('draws the card after a status change from the ticket it kept and the activity, with one request', async () => {
    // A platform without clocks of its own: nothing but the activity's fields can move.
    const t = setUp({ serviceLevels: false });
    await statusThenPriority(t);
    expect(t.platform.calls.map((c) => c.operation)).toEqual(['listActivity']);
    expect(t.poster.refreshes.at(-1)?.ticket).toMatchObject({
      status: 'in_progress',
      priority: 'high',
    });
  });

  it('reads the ticket whole after a priority change when the platform keeps its clocks, whose due times move with it', async () => {
    const t = setUp();
    const id = await statusThenPriority(t);
    expect(t.platform.calls.map((c) => c.operation)).toEqual(['listActivity', 'getTicket']);
    expect(t.poster.refreshes.at(-1)?.ticket).toMatchObject({
      status: 'in_progress',
      priority: 'high',
      first_response_due_at: t.model.getTicket(TENANT, id).first_response_due_at,
    });
  });
});

import { describe, expect, it } from 'vitest';
import { readFeedRecord } from '../../src/mirror/change-feed-record.ts';
import {
  AdaptivePlanner,
  BudgetDeferredError,
  BudgetPacer,
  ChangeFeed,
  type ChangeFeedOptions,
  initialMirrorState,
  RELAXED_PACE,
} from '../../src/mirror/index.ts';
import { keptTicket } from '../../src/mirror/kept-ticket.ts';
import { createMemoryStores } from '../../src/store/index.ts';
import type { RateBudgetLimits, Stores } from '../../src/store/types.ts';
import { emptyModel, ModelPlatform, SAM, serverError, TENANT } from './support.ts';

const T0 = 1_767_225_600_000;
const PERIOD = 30_000;
const HOUR = 3_600_000;
const silent = { debug() {}, info() {}, warn() {}, error() {} };

interface SetUpOptions {
  /** The platform ignores `updated_after` (it still has `updated_at`). */
  noFilter?: boolean;
  feed?: Partial<ChangeFeedOptions>;
  /** The platform's rate limits (default: the stores' own, 800 background requests an hour). */
  budget?: Partial<RateBudgetLimits>;
}

function setUp(options: SetUpOptions = {}) {
  const clock = { now: T0 };
  const now = () => clock.now;
  const model = emptyModel(now, options.noFilter ? { updatedAfter: false } : {});
  const stores = createMemoryStores({ now, ...(options.budget ? { budget: options.budget } : {}) });
  const platform = new ModelPlatform(model);
  const warnings: string[] = [];
  const logger = { ...silent, warn: (_obj: object, msg?: string) => void warnings.push(msg ?? '') };
  const open = (extra: Partial<ChangeFeedOptions> = {}) =>
    new ChangeFeed({
      platform,
      stores,
      logger,
      now,
      periodMs: PERIOD,
      ...options.feed,
      ...extra,
    });
  const feed = open();
  let threads = 0;

  /** A ticket filed in a thread (under `desk`, if given), created now. */
  async function linkedTicket(desk?: string): Promise<string> {
    const ticket = model.createTicket(TENANT, {
      title: `Ticket ${threads}`,
      requester_email: 'alice@acme.example',
      ...(desk ? { desk_id: desk } : {}),
    });
    threads += 1;
    await stores.links.link(ticket.id, { channel: 'C0HELP', threadTs: `1767225600.${threads}` });
    return ticket.id;
  }

  /** Tickets nobody follows, created now. */
  function otherTickets(count: number, desk: string): void {
    for (let i = 0; i < count; i++)
      model.createTicket(TENANT, { title: `Other ${i}`, desk_id: desk });
  }

  /**
   * The mirror looked at the ticket now (quiet for ten minutes, as far as it knows), and its
   * next look is due `dueInMs` from now.
   */
  async function lookedAt(ticketId: string, dueInMs: number) {
    await stores.mirror.saveState(ticketId, {
      ...initialMirrorState(),
      lastPolledAt: clock.now,
      lastActivityAt: clock.now - 600_000,
      status: 'new',
    });
    await stores.schedule.pollAt(ticketId, clock.now + dueInMs);
  }

  /** Moves the clock on to the next period, when the period's scan may be claimed again. */
  function nextPeriod(): void {
    clock.now += PERIOD;
  }

  return {
    clock,
    model,
    stores,
    platform,
    feed,
    open,
    warnings,
    linkedTicket,
    otherTickets,
    lookedAt,
    nextPeriod,
  };
}

/** When the mirror's rule would set the next look at a ticket if it were looked at now. */
async function planned(stores: Stores, ticketId: string, now: number): Promise<number | 'stop'> {
  const state = await stores.mirror.state(ticketId);
  if (!state) throw new Error(`no state for ${ticketId}`);
  return new AdaptivePlanner().next(state, now, RELAXED_PACE);
}

describe('change feed, updated_after', () => {
  it('finds the linked ticket that changed with one request, and has it looked at a second later', async () => {
    const { clock, model, stores, feed, linkedTicket, lookedAt, nextPeriod } = setUp();
    const id = await linkedTicket();
    clock.now += 5_000;
    await lookedAt(id, 600_000);
    expect(await feed.scanOnce()).toMatchObject({ way: 'filter', changed: 0 });
    nextPeriod();
    model.addAgentReply(TENANT, id, { agentEmail: SAM, body: 'On my way' });
    clock.now += 1_000;
    expect(await feed.scanOnce()).toMatchObject({ way: 'filter', requests: 1, changed: 1 });
    expect(await stores.schedule.dueAt(id)).toBe(clock.now + 1_000);
  });

  it('keeps the ticket it listed changed, so the look draws the card from it without a read', async () => {
    const { clock, model, stores, feed, linkedTicket, lookedAt, nextPeriod } = setUp();
    const id = await linkedTicket();
    clock.now += 5_000;
    await lookedAt(id, 600_000);
    await feed.scanOnce();
    nextPeriod();
    model.updateTicket(TENANT, id, { status: 'in_progress' });
    clock.now += 1_000;
    await feed.scanOnce();
    const kept = keptTicket((await stores.mirror.state(id))?.ticket, clock.now);
    expect(kept?.ticket).toMatchObject({ id, status: 'in_progress' });
  });

  it('hints a change once though the cursor’s overlap shows it again', async () => {
    const { clock, model, feed, linkedTicket, lookedAt, nextPeriod } = setUp();
    const id = await linkedTicket();
    clock.now += 5_000;
    await lookedAt(id, 600_000);
    await feed.scanOnce();
    nextPeriod();
    model.addAgentReply(TENANT, id, { agentEmail: SAM, body: 'On my way' });
    clock.now += 500;
    await feed.scanOnce();
    clock.now += PERIOD;
    expect(await feed.scanOnce()).toMatchObject({ requests: 1, changed: 0 });
  });

  it('finds a change made in the same millisecond as the one the last scan saw', async () => {
    const { clock, model, stores, feed, linkedTicket, lookedAt, nextPeriod } = setUp();
    const first = await linkedTicket();
    const second = await linkedTicket();
    clock.now += 5_000;
    await lookedAt(first, 600_000);
    await lookedAt(second, 600_000);
    await feed.scanOnce();
    nextPeriod();
    model.addAgentReply(TENANT, first, { agentEmail: SAM, body: 'On my way' });
    expect(await feed.scanOnce()).toMatchObject({ changed: 1 });
    // Same millisecond, just after the scan read the list.
    model.addAgentReply(TENANT, second, { agentEmail: SAM, body: 'You too' });
    nextPeriod();
    expect(await feed.scanOnce()).toMatchObject({ changed: 1 });
    expect(await stores.schedule.dueAt(second)).toBe(clock.now + 1_000);
  });

  it('moves the look due at a linked ticket that did not change to when the mirror’s rule would set it now', async () => {
    const { clock, stores, feed, linkedTicket, lookedAt, nextPeriod } = setUp();
    const id = await linkedTicket();
    clock.now += 5_000;
    await lookedAt(id, 40_000);
    await feed.scanOnce();
    nextPeriod();
    const scan = await feed.scanOnce();
    expect(scan).toMatchObject({ changed: 0, postponed: 1 });
    const next = await planned(stores, id, clock.now);
    expect(next).toBeGreaterThan(T0 + 45_000);
    expect(await stores.schedule.dueAt(id)).toBe(next);
  });

  it('never moves the first look after a write from Slack', async () => {
    const { clock, stores, feed, linkedTicket, lookedAt, nextPeriod } = setUp();
    const id = await linkedTicket();
    clock.now += 5_000;
    await lookedAt(id, 40_000);
    await feed.scanOnce();
    await stores.mirror.noteSlackWrite(id, clock.now + 1);
    nextPeriod();
    expect(await feed.scanOnce()).toMatchObject({ postponed: 0 });
    expect(await stores.schedule.dueAt(id)).toBe(T0 + 45_000);
  });

  it('lets a ticket not looked at for real within the trusted time have its look', async () => {
    const { clock, stores, open, linkedTicket, lookedAt, nextPeriod } = setUp();
    const feed = open({ trustMs: 20_000 });
    const id = await linkedTicket();
    clock.now += 5_000;
    await lookedAt(id, 40_000);
    await feed.scanOnce();
    nextPeriod();
    expect(await feed.scanOnce()).toMatchObject({ postponed: 0 });
    expect(await stores.schedule.dueAt(id)).toBe(T0 + 45_000);
  });

  /** A scan by a feed trusting a look for a day, at a ticket last looked at `quietMs` ago. */
  async function scanAfterQuiet(quietMs: number) {
    const { clock, stores, open, linkedTicket, lookedAt } = setUp();
    const feed = open({ pacer: trustingPacer() });
    const id = await linkedTicket();
    clock.now += 5_000;
    await lookedAt(id, quietMs);
    await feed.scanOnce();
    clock.now += quietMs;
    const scan = await feed.scanOnce();
    return { scan, now: clock.now, dueAt: await stores.schedule.dueAt(id) };
  }

  it('moves the look due at a ticket last looked at beyond the idle interval but within the pace’s trust', async () => {
    const { scan, now, dueAt } = await scanAfterQuiet(7 * HOUR);
    expect(scan).toMatchObject({ way: 'filter', changed: 0, postponed: 1 });
    // Quiet for over six hours: the mirror's rule sets the next look an idle interval away.
    expect(dueAt).toBe(now + 6 * HOUR);
  });

  it('lets a ticket last looked at beyond the pace’s trust have its look', async () => {
    const { scan, now, dueAt } = await scanAfterQuiet(25 * HOUR);
    expect(scan).toMatchObject({ way: 'filter', changed: 0, postponed: 0 });
    expect(dueAt).toBe(now);
  });

  it('hints at its first scan a ticket changed too close to the mirror’s last look to tell, rather than moving its look', async () => {
    const { clock, stores, feed, linkedTicket, lookedAt } = setUp();
    const id = await linkedTicket();
    await lookedAt(id, 40_000);
    clock.now += 5_000;
    expect(await feed.scanOnce()).toMatchObject({ changed: 1, postponed: 0 });
    expect(await stores.schedule.dueAt(id)).toBe(clock.now + 1_000);
  });

  it('starts warm: its first scan over linked quiet tickets hints none of them and moves their looks', async () => {
    const { clock, stores, platform, feed, linkedTicket, lookedAt } = setUp();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await linkedTicket());
    clock.now += 5_000;
    for (const id of ids) await lookedAt(id, 20_000);
    clock.now += 600_000;
    const scan = await feed.scanOnce();
    expect(scan).toMatchObject({ way: 'filter', changed: 0, postponed: 5 });
    // The detection's two requests and one listing back over the trusted time.
    expect(platform.count('listTickets')).toBe(3);
    for (const id of ids) expect(await stores.schedule.dueAt(id)).toBeGreaterThan(clock.now);
  });

  it('hints at its first scan a ticket changed while the app was down, and only that one', async () => {
    const { clock, model, stores, feed, linkedTicket, lookedAt } = setUp();
    const quiet = await linkedTicket();
    const answered = await linkedTicket();
    const resolved = await linkedTicket();
    clock.now += 5_000;
    for (const id of [quiet, answered, resolved]) await lookedAt(id, 600_000);
    clock.now += 60_000;
    model.addAgentReply(TENANT, answered, { agentEmail: SAM, body: 'On my way' });
    model.updateTicket(TENANT, resolved, { status: 'resolved' });
    clock.now += 60_000;
    expect(await feed.scanOnce()).toMatchObject({ changed: 2 });
    expect(await stores.schedule.dueAt(answered)).toBe(clock.now + 1_000);
    expect(await stores.schedule.dueAt(resolved)).toBe(clock.now + 1_000);
    expect(await stores.schedule.dueAt(quiet)).toBe(T0 + 5_000 + 600_000);
  });

  it('does not call a ticket linked and changed by nothing since a change, though the mirror never looked at it', async () => {
    const { clock, stores, feed, linkedTicket } = setUp();
    const id = await linkedTicket();
    await stores.mirror.saveState(id, { ...initialMirrorState(), status: 'new' });
    await stores.schedule.pollAt(id, clock.now + 600_000);
    clock.now += 60_000;
    expect(await feed.scanOnce()).toMatchObject({ changed: 0 });
    expect(await stores.schedule.dueAt(id)).toBe(T0 + 600_000);
  });

  it('hints nothing the mirror has already looked past', async () => {
    const { clock, model, stores, feed, linkedTicket, lookedAt, nextPeriod } = setUp();
    const id = await linkedTicket();
    clock.now += 5_000;
    await lookedAt(id, 600_000);
    await feed.scanOnce();
    model.addAgentReply(TENANT, id, { agentEmail: SAM, body: 'On my way' });
    clock.now += 5_000;
    await lookedAt(id, 600_000);
    nextPeriod();
    expect(await feed.scanOnce()).toMatchObject({ requests: 1, changed: 0 });
    expect(await stores.schedule.dueAt(id)).toBe(T0 + 5_000 + 600_000);
  });

  it('hints a status change that a later look reading the messages alone could not see, and keeps that look due', async () => {
    const { clock, model, stores, feed, linkedTicket, lookedAt, nextPeriod } = setUp();
    const id = await linkedTicket();
    clock.now += 5_000;
    await lookedAt(id, 600_000);
    await feed.scanOnce();
    // An agent answers and resolves together; the status's hook was lost and the message's hook
    // had the messages read a second later: that look is later than the change but missed it.
    model.addAgentReply(TENANT, id, { agentEmail: SAM, body: 'Fixed' });
    model.updateTicket(TENANT, id, { status: 'resolved' });
    clock.now += 1_000;
    await lookedAt(id, 20_000);
    nextPeriod();
    expect(await feed.scanOnce()).toMatchObject({ changed: 1, postponed: 0 });
    expect(await stores.schedule.dueAt(id)).toBeLessThanOrEqual(clock.now + 1_000);
  });

  it('hints a change as a message alone when the ticket’s status, priority and assignee are as the last scan listed them', async () => {
    const { clock, model, stores, feed, linkedTicket, lookedAt, nextPeriod } = setUp();
    const id = await linkedTicket();
    clock.now += 5_000;
    await lookedAt(id, 600_000);
    await feed.scanOnce();
    for (const body of ['First', 'Second']) {
      nextPeriod();
      model.addAgentReply(TENANT, id, { agentEmail: SAM, body });
      clock.now += 1_000;
      expect(await feed.scanOnce()).toMatchObject({ changed: 1 });
      await lookedAt(id, 600_000);
    }
    const state = await stores.mirror.state(id);
    expect(state?.messageHintedAt).toBeGreaterThan(state?.hintedAt ?? 0);
    nextPeriod();
    model.updateTicket(TENANT, id, { priority: 'high' });
    clock.now += 1_000;
    expect(await feed.scanOnce()).toMatchObject({ changed: 1 });
    expect((await stores.mirror.state(id))?.hintedAt).toBe(clock.now);
  });

  it('leaves a change that is most likely the app’s own write to the first look after it', async () => {
    const { clock, model, stores, feed, linkedTicket, lookedAt, nextPeriod } = setUp();
    const id = await linkedTicket();
    clock.now += 5_000;
    await lookedAt(id, 600_000);
    await feed.scanOnce();
    nextPeriod();
    model.addAgentReply(TENANT, id, { agentEmail: SAM, body: 'Noted' });
    clock.now += 1_000;
    await feed.scanOnce();
    await lookedAt(id, 600_000);
    nextPeriod();
    model.addMessage(TENANT, id, {
      body: 'It is still broken',
      author_email: 'alice@acme.example',
    });
    await stores.mirror.noteSlackWrite(id, clock.now);
    clock.now += 1_000;
    expect(await feed.scanOnce()).toMatchObject({ changed: 0 });
  });

  it('costs nothing for a changed ticket no thread follows', async () => {
    const { model, stores, feed, nextPeriod } = setUp();
    const ticket = model.createTicket(TENANT, { title: 'Printer' });
    await feed.scanOnce();
    nextPeriod();
    model.addAgentReply(TENANT, ticket.id, { agentEmail: SAM, body: 'Fixed' });
    expect(await feed.scanOnce()).toMatchObject({ changed: 0 });
    expect(await stores.schedule.size()).toBe(0);
    expect((await stores.feed.facts([ticket.id])).size).toBe(0);
  });

  it('hints nothing and keeps its cursor when the budget defers the scan, and says when to come back', async () => {
    const { clock, model, stores, platform, feed, linkedTicket, lookedAt, nextPeriod } = setUp();
    const id = await linkedTicket();
    clock.now += 5_000;
    await lookedAt(id, 40_000);
    await feed.scanOnce();
    model.addAgentReply(TENANT, id, { agentEmail: SAM, body: 'On my way' });
    nextPeriod();
    const retryAt = clock.now + 45_000;
    platform.failWith = (operation) => new BudgetDeferredError(operation, retryAt, 'window');
    expect(await feed.scanOnce()).toMatchObject({ complete: false, retryAt, changed: 0 });
    expect(await stores.schedule.dueAt(id)).toBe(T0 + 45_000);
    platform.failWith = undefined;
    clock.now += PERIOD;
    expect(await feed.scanOnce()).toBeUndefined();
    clock.now = retryAt;
    expect(await feed.scanOnce()).toMatchObject({ changed: 1 });
  });

  it('records a scan the platform turned away, and forgets it at the next whole scan', async () => {
    const { stores, platform, feed, linkedTicket, nextPeriod } = setUp();
    await linkedTicket();
    await feed.scanOnce();
    nextPeriod();
    platform.failWith = serverError;
    const failed = await feed.scanOnce();
    expect(failed).toMatchObject({ complete: false });
    expect((await savedRecord(stores)).failedAt).toBe(failed?.startedAt);
    platform.failWith = undefined;
    nextPeriod();
    expect(await feed.scanOnce()).toMatchObject({ complete: true });
    expect((await savedRecord(stores)).failedAt).toBeUndefined();
  });

  it('warns once when the platform it was told honours updated_after does not', async () => {
    const { clock, model, warnings, open, nextPeriod } = setUp({ noFilter: true });
    const feed = open({ mode: 'filter' });
    model.createTicket(TENANT, { title: 'Printer' });
    clock.now += 10_000;
    await feed.scanOnce();
    nextPeriod();
    await feed.scanOnce();
    expect(warnings.filter((w) => w.includes('seems to ignore it'))).toHaveLength(1);
  });
});

describe('change feed, sweep', () => {
  it('learns a linked ticket it knows nothing of with one Get ticket in place of its look', async () => {
    const { clock, stores, platform, feed, linkedTicket, lookedAt } = setUp({ noFilter: true });
    const id = await linkedTicket('it');
    clock.now += 5_000;
    await lookedAt(id, 20_000);
    const scan = await feed.scanOnce();
    expect(scan).toMatchObject({ way: 'sweep', postponed: 1 });
    expect(platform.count('getTicket')).toBe(1);
    expect((await stores.feed.facts([id])).get(id)).toMatchObject({ deskId: 'it' });
  });

  it('sweeps a desk whose due linked tickets are dense: one page in place of their looks', async () => {
    const { clock, stores, feed, linkedTicket, lookedAt, nextPeriod } = setUp({ noFilter: true });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await linkedTicket('it'));
    clock.now += 5_000;
    for (const id of ids) await lookedAt(id, 20_000);
    await feed.scanOnce();
    nextPeriod();
    for (const id of ids) await stores.schedule.pollAt(id, clock.now + 20_000);
    const scan = await feed.scanOnce();
    expect(scan).toMatchObject({ requests: 1, changed: 0, postponed: 5 });
    expect(scan?.ranges).toEqual([
      expect.objectContaining({ desk: 'it', looks: 5, pages: 1, choice: 'sweep' }),
    ]);
  });

  it('hints a linked ticket its sweep shows changed since the mirror’s last look', async () => {
    const { clock, model, stores, feed, linkedTicket, lookedAt, nextPeriod } = setUp({
      noFilter: true,
    });
    const ids = [await linkedTicket('it'), await linkedTicket('it'), await linkedTicket('it')];
    clock.now += 5_000;
    for (const id of ids) await lookedAt(id, 20_000);
    await feed.scanOnce();
    nextPeriod();
    for (const id of ids) await stores.schedule.pollAt(id, clock.now + 20_000);
    model.addAgentReply(TENANT, ids[1] as string, { agentEmail: SAM, body: 'On my way' });
    const scan = await feed.scanOnce();
    expect(scan).toMatchObject({ requests: 1, changed: 1, postponed: 2 });
    expect(await stores.schedule.dueAt(ids[1] as string)).toBe(clock.now + 1_000);
  });

  it('leaves a range to the looks where tickets not filed from Slack make a sweep dearer, after one page', async () => {
    const { clock, stores, feed, linkedTicket, otherTickets, lookedAt, nextPeriod } = setUp({
      noFilter: true,
    });
    const old = await linkedTicket('it');
    clock.now += 1_000;
    otherTickets(250, 'it');
    clock.now += 1_000;
    const recent = await linkedTicket('it');
    clock.now += 5_000;
    await lookedAt(old, 20_000);
    await lookedAt(recent, 20_000);
    await feed.scanOnce();
    nextPeriod();
    for (const id of [old, recent]) await stores.schedule.pollAt(id, clock.now + 20_000);
    const first = await feed.scanOnce();
    expect(first).toMatchObject({ requests: 1 });
    expect(first?.ranges).toEqual([
      expect.objectContaining({ desk: 'it', looks: 2, pages: 3, choice: 'looks' }),
    ]);
    nextPeriod();
    for (const id of [old, recent]) await stores.schedule.pollAt(id, clock.now + 20_000);
    expect(await feed.scanOnce()).toMatchObject({ requests: 0, postponed: 0 });
  });

  it('once it knows a range’s pages, reads only those holding due tickets, so a very old linked ticket costs its own page', async () => {
    const { clock, stores, feed, linkedTicket, otherTickets, lookedAt, nextPeriod } = setUp({
      noFilter: true,
    });
    const old = await linkedTicket('it');
    clock.now += 1_000;
    otherTickets(250, 'it');
    clock.now += 1_000;
    const recent = [await linkedTicket('it'), await linkedTicket('it'), await linkedTicket('it')];
    const all = [old, ...recent];
    clock.now += 5_000;
    for (const id of all) await lookedAt(id, 20_000);
    await feed.scanOnce();
    nextPeriod();
    for (const id of all) await stores.schedule.pollAt(id, clock.now + 20_000);
    expect(await feed.scanOnce()).toMatchObject({ requests: 3, postponed: 4 });
    nextPeriod();
    for (const id of all) await stores.schedule.pollAt(id, clock.now + 20_000);
    const scan = await feed.scanOnce();
    expect(scan).toMatchObject({ requests: 2, postponed: 4 });
    expect(scan?.ranges).toEqual([expect.objectContaining({ looks: 4, pages: 2 })]);
  });

  it('follows a due ticket onto the next page when its range has grown since it was read', async () => {
    const { clock, stores, feed, linkedTicket, otherTickets, lookedAt, nextPeriod } = setUp({
      noFilter: true,
    });
    const all = [await linkedTicket('it')];
    clock.now += 1_000;
    otherTickets(150, 'it');
    clock.now += 1_000;
    for (let i = 0; i < 3; i++) all.push(await linkedTicket('it'));
    clock.now += 5_000;
    for (const id of all) await lookedAt(id, 20_000);
    await feed.scanOnce();
    nextPeriod();
    for (const id of all) await stores.schedule.pollAt(id, clock.now + 20_000);
    expect(await feed.scanOnce()).toMatchObject({ requests: 2, postponed: 4 });
    otherTickets(60, 'it');
    clock.now += 1_000;
    const latest = await linkedTicket('it');
    all.push(latest);
    clock.now += 5_000;
    await lookedAt(latest, 20_000);
    nextPeriod();
    await feed.scanOnce();
    nextPeriod();
    for (const id of all) await stores.schedule.pollAt(id, clock.now + 20_000);
    const scan = await feed.scanOnce();
    expect(scan).toMatchObject({ requests: 3, postponed: 5 });
    expect(scan?.ranges).toEqual([expect.objectContaining({ looks: 5, pages: 3 })]);
  });

  it('hints a linked ticket that left its desk, and learns it again', async () => {
    const { clock, model, stores, feed, linkedTicket, lookedAt, nextPeriod } = setUp({
      noFilter: true,
    });
    const ids = [await linkedTicket('it'), await linkedTicket('it')];
    clock.now += 5_000;
    for (const id of ids) await lookedAt(id, 20_000);
    await feed.scanOnce();
    nextPeriod();
    for (const id of ids) await stores.schedule.pollAt(id, clock.now + 20_000);
    model.setDesk(TENANT, ids[0] as string, 'hr');
    expect(await feed.scanOnce()).toMatchObject({ changed: 1 });
    expect(await stores.schedule.dueAt(ids[0] as string)).toBe(clock.now + 1_000);
    expect((await stores.feed.facts([ids[0] as string])).size).toBe(0);
  });

  it('sweeps every scheduled linked ticket when told to, though none is due', async () => {
    const { clock, model, stores, open, linkedTicket, lookedAt, nextPeriod } = setUp({
      noFilter: true,
      feed: { sweep: 'always' },
    });
    const feed = open();
    const id = await linkedTicket('it');
    clock.now += 5_000;
    await lookedAt(id, 3_600_000);
    await feed.scanOnce();
    nextPeriod();
    model.addAgentReply(TENANT, id, { agentEmail: SAM, body: 'On my way' });
    expect(await feed.scanOnce()).toMatchObject({ changed: 1 });
    expect(await stores.schedule.dueAt(id)).toBe(clock.now + 1_000);
  });
});

/** A sweep paced by the budget (the pacer that weighs whether it can watch every linked ticket). */
function paced(options: SetUpOptions = {}) {
  const t = setUp({ noFilter: true, ...options });
  const pacer = new BudgetPacer({
    budget: t.stores.budget,
    schedule: t.stores.schedule,
    feed: t.stores.feed,
    now: () => t.clock.now,
  });
  return { ...t, feed: t.open({ pacer }) };
}

/** A pacer held at one stretch, with the stores' default background hour. */
function heldPacer(stretch: number): BudgetPacer {
  const pace = { stretch, idleIntervalMs: 3_600_000 };
  return {
    refreshIfDue: async () => pace,
    pace: () => pace,
    backgroundHour: () => 800,
  } as unknown as BudgetPacer;
}

/** A pacer whose pace trusts a look for a day where a feed vouches for it, past its 6 h idle interval. */
function trustingPacer(): BudgetPacer {
  const pace = { stretch: 1, idleIntervalMs: 6 * HOUR, trustMs: 24 * HOUR };
  return {
    refreshIfDue: async () => pace,
    pace: () => pace,
    backgroundHour: () => 800,
  } as unknown as BudgetPacer;
}

/** The feed's record as the store holds it. */
async function savedRecord(stores: Stores) {
  return readFeedRecord((await stores.feed.state())?.data);
}

describe('change feed, watching sweep', () => {
  it('reads every linked ticket’s page each period though none is due, and saves the watch', async () => {
    const { clock, stores, platform, feed, linkedTicket, lookedAt } = paced();
    const ids = [await linkedTicket('it'), await linkedTicket('it'), await linkedTicket('hr')];
    clock.now += 5_000;
    for (const id of ids) await lookedAt(id, 3_600_000);
    // The first scan learns them with Get ticket: it read every one all the same.
    expect(await feed.scanOnce()).toMatchObject({ way: 'sweep', watched: true });
    clock.now += 60_000;
    platform.calls.length = 0;
    const scan = await feed.scanOnce();
    expect(scan).toMatchObject({ requests: 2, changed: 0, complete: true, watched: true });
    expect(scan?.ranges).toHaveLength(2);
    expect(scan?.ranges).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ desk: 'it', looks: 2, choice: 'sweep' }),
        expect.objectContaining({ desk: 'hr', looks: 1, choice: 'sweep' }),
      ]),
    );
    expect(platform.count('getTicket')).toBe(0);
    expect((await savedRecord(stores)).watch).toEqual({ at: scan?.startedAt, periodMs: 60_000 });
  });

  it('scans again a minute after a watching sweep, and not before', async () => {
    const { clock, feed, linkedTicket, lookedAt } = paced();
    const id = await linkedTicket('it');
    clock.now += 5_000;
    await lookedAt(id, 3_600_000);
    expect(await feed.scanOnce()).toMatchObject({ watched: true });
    clock.now += 59_999;
    expect(await feed.scanOnce()).toBeUndefined();
    clock.now += 1;
    expect(await feed.scanOnce()).toMatchObject({ watched: true });
  });

  it('watches every two minutes under webhooks', async () => {
    const { clock, stores, feed, linkedTicket, lookedAt } = paced({ feed: { pushed: true } });
    const id = await linkedTicket('it');
    clock.now += 5_000;
    await lookedAt(id, 3_600_000);
    expect(await feed.scanOnce()).toMatchObject({ watched: true });
    expect((await savedRecord(stores)).watch?.periodMs).toBe(120_000);
    clock.now += 119_999;
    expect(await feed.scanOnce()).toBeUndefined();
  });

  it('watches at the period its pages take at 35% of the background hour when that is longer than a minute', async () => {
    const { clock, stores, feed, linkedTicket, lookedAt } = paced({ budget: { perHour: 100 } });
    const id = await linkedTicket('it');
    clock.now += 5_000;
    await lookedAt(id, 3_600_000);
    expect(await feed.scanOnce()).toMatchObject({ watched: true });
    // One page on 35% of the 80 background requests an hour: 28 an hour.
    expect((await savedRecord(stores)).watch?.periodMs).toBe(Math.round(3_600_000 / 28));
  });

  it('stretches the watch period with the pace, up to ten minutes', async () => {
    for (const [stretch, periodMs] of [
      [4, 240_000],
      [32, 600_000],
    ] as const) {
      const { clock, stores, open, linkedTicket, lookedAt } = setUp({ noFilter: true });
      const feed = open({ pacer: heldPacer(stretch) });
      const id = await linkedTicket('it');
      clock.now += 5_000;
      await lookedAt(id, 3_600_000);
      expect(await feed.scanOnce()).toMatchObject({ watched: true });
      expect((await savedRecord(stores)).watch?.periodMs).toBe(periodMs);
    }
  });

  it('does not watch where one page every ten minutes would take more than the share of a tiny budget', async () => {
    const { clock, stores, platform, feed, linkedTicket, lookedAt, nextPeriod } = paced({
      budget: { perHour: 20 },
    });
    const id = await linkedTicket('it');
    clock.now += 5_000;
    await lookedAt(id, 3_600_000);
    expect((await feed.scanOnce())?.watched).toBeUndefined();
    nextPeriod();
    platform.calls.length = 0;
    // Nothing due: the sweep reads where that saves looks, which is nowhere.
    const scan = await feed.scanOnce();
    expect(scan).toMatchObject({ way: 'sweep', requests: 0, ranges: [] });
    expect(scan?.watched).toBeUndefined();
    expect(platform.calls).toEqual([]);
    expect((await savedRecord(stores)).watch).toBeUndefined();
  });

  it('does not watch where the pages for every linked ticket scheduled would take more than the share within ten minutes', async () => {
    const { clock, stores, feed, linkedTicket, lookedAt } = paced({ budget: { perHour: 100 } });
    const id = await linkedTicket('it');
    clock.now += 5_000;
    await lookedAt(id, 3_600_000);
    // 501 scheduled: 6 pages, on 28 requests an hour, every 13 minutes.
    for (let i = 0; i < 500; i++) await stores.schedule.pollAt(`IT-X${i}`, clock.now + 3_600_000);
    const scan = await feed.scanOnce();
    expect(scan).toMatchObject({ way: 'sweep', requests: 2 });
    expect(scan?.watched).toBeUndefined();
    expect((await savedRecord(stores)).watch).toBeUndefined();
  });

  it('stops watching once it knows its ranges hold more pages than the share affords', async () => {
    const { clock, stores, feed, linkedTicket, otherTickets, lookedAt } = paced({
      budget: { perHour: 100 },
    });
    const ids = [await linkedTicket('it'), await linkedTicket('it')];
    clock.now += 1_000;
    otherTickets(450, 'it');
    clock.now += 5_000;
    for (const id of ids) await lookedAt(id, 3_600_000);
    const period = Math.round(3_600_000 / 28);
    expect(await feed.scanOnce()).toMatchObject({ watched: true });
    clock.now += period;
    // Read whole, the range shows 5 pages: more than the 4 its share affords every ten minutes.
    expect(await feed.scanOnce()).toMatchObject({ requests: 5, watched: true });
    expect((await savedRecord(stores)).ranges.it?.total).toBe(452);
    clock.now += period;
    const scan = await feed.scanOnce();
    expect(scan).toMatchObject({ requests: 0, ranges: [] });
    expect(scan?.watched).toBeUndefined();
  });

  it('hints a listed ticket whose status, priority and assignee are unchanged as a message alone, and one whose status moved as a change', async () => {
    const { clock, model, stores, feed, linkedTicket, lookedAt } = paced();
    const [answered, resolved] = [await linkedTicket('it'), await linkedTicket('it')] as [
      string,
      string,
    ];
    clock.now += 5_000;
    for (const id of [answered, resolved]) await lookedAt(id, 3_600_000);
    await feed.scanOnce();
    clock.now += 60_000;
    model.addAgentReply(TENANT, answered, { agentEmail: SAM, body: 'On my way' });
    model.updateTicket(TENANT, resolved, { status: 'resolved' });
    expect(await feed.scanOnce()).toMatchObject({ changed: 2, watched: true });
    expect(await stores.mirror.state(answered)).toMatchObject({
      messageHintedAt: clock.now,
      hintedAt: 0,
    });
    expect((await stores.mirror.state(resolved))?.hintedAt).toBe(clock.now);
  });

  it('saves no new watch when the budget defers the sweep', async () => {
    const { clock, stores, platform, feed, linkedTicket, lookedAt } = paced();
    const id = await linkedTicket('it');
    clock.now += 5_000;
    await lookedAt(id, 3_600_000);
    const first = await feed.scanOnce();
    expect(first).toMatchObject({ watched: true });
    clock.now += 60_000;
    const retryAt = clock.now + 45_000;
    platform.failWith = (operation) => new BudgetDeferredError(operation, retryAt, 'window');
    const scan = await feed.scanOnce();
    expect(scan).toMatchObject({ complete: false, retryAt });
    expect(scan?.watched).toBeUndefined();
    expect((await savedRecord(stores)).watch?.at).toBe(first?.startedAt);
  });

  it('goes on with the range it covered longest ago after the budget cut a sweep short, and keeps watching', async () => {
    const { clock, stores, platform, feed, linkedTicket, lookedAt } = paced();
    const ids = [await linkedTicket('it'), await linkedTicket('hr')];
    clock.now += 5_000;
    for (const id of ids) await lookedAt(id, 3_600_000);
    await feed.scanOnce();
    clock.now += 60_000;
    expect(await feed.scanOnce()).toMatchObject({ watched: true });
    const covered = (await savedRecord(stores)).watch?.at as number;
    // The next sweep reads one range, then the budget turns it away.
    clock.now += 60_000;
    const list = platform.listTickets;
    let listings = 0;
    platform.listTickets = async (query) => {
      if (listings++ >= 1)
        throw new BudgetDeferredError('listTickets', clock.now + 1_000, 'window');
      return list(query);
    };
    const cut = await feed.scanOnce();
    expect(cut).toMatchObject({ complete: false });
    const first = cut?.ranges[0]?.desk;
    // The watch stands as of the older cover, and the range read keeps its new one.
    expect((await savedRecord(stores)).watch?.at).toBe(covered);
    expect((await savedRecord(stores)).ranges[first ?? '']?.coveredAt).toBe(cut?.startedAt);
    platform.listTickets = list;
    clock.now += 60_000;
    const next = await feed.scanOnce();
    expect(next?.ranges[0]?.desk).not.toBe(first);
    expect(next).toMatchObject({ watched: true });
    expect((await savedRecord(stores)).watch?.at).toBe(next?.startedAt);
  });

  it('saves no new watch when a linked ticket is not on the page its facts put it on', async () => {
    const { clock, model, stores, feed, linkedTicket, lookedAt } = paced();
    const ids = [await linkedTicket('it'), await linkedTicket('it')];
    clock.now += 5_000;
    for (const id of ids) await lookedAt(id, 3_600_000);
    const first = await feed.scanOnce();
    expect(first).toMatchObject({ watched: true });
    clock.now += 60_000;
    model.setDesk(TENANT, ids[0] as string, 'hr');
    const scan = await feed.scanOnce();
    expect(scan).toMatchObject({ complete: true, changed: 1 });
    expect(scan?.watched).toBeUndefined();
    expect((await savedRecord(stores)).watch?.at).toBe(first?.startedAt);
  });

  it('watches only once it has learnt every linked ticket it knew nothing of', async () => {
    const { clock, stores, feed, linkedTicket, lookedAt } = paced({ feed: { learnPerScan: 1 } });
    const ids = [await linkedTicket('it'), await linkedTicket('it')];
    clock.now += 5_000;
    for (const id of ids) await lookedAt(id, 3_600_000);
    const first = await feed.scanOnce();
    expect(first).toMatchObject({ complete: true });
    expect(first?.watched).toBeUndefined();
    expect((await savedRecord(stores)).watch).toBeUndefined();
    clock.now += 60_000;
    expect(await feed.scanOnce()).toMatchObject({ watched: true });
  });
});

describe('change feed, way and replicas', () => {
  it('does nothing on a platform whose tickets carry no updated_at', async () => {
    const clock = { now: T0 };
    const model = emptyModel(() => clock.now, { updatedAt: false });
    const platform = new ModelPlatform(model);
    model.createTicket(TENANT, { title: 'Printer' });
    const feed = new ChangeFeed({
      platform,
      stores: createMemoryStores({ now: () => clock.now }),
      logger: silent,
      now: () => clock.now,
    });
    expect(await feed.scanOnce()).toMatchObject({ way: 'none', requests: 1 });
  });

  it('finds the way out again later when the tenant had no ticket to tell it by', async () => {
    const { clock, model, feed } = setUp();
    expect(await feed.scanOnce()).toMatchObject({ way: 'unknown', requests: 1 });
    model.createTicket(TENANT, { title: 'Printer' });
    clock.now += 60_000;
    expect(await feed.scanOnce()).toMatchObject({ way: 'unknown', requests: 0 });
    clock.now += 600_000;
    expect(await feed.scanOnce()).toMatchObject({ way: 'filter' });
  });

  it('two replicas make one scan a period between them', async () => {
    const { platform, open, model, nextPeriod } = setUp();
    model.createTicket(TENANT, { title: 'Printer' });
    const replicas = [open(), open()];
    const scans = await Promise.all(replicas.map((replica) => replica.scanOnce()));
    expect(scans.filter((scan) => scan !== undefined)).toHaveLength(1);
    expect(platform.count('listTickets')).toBe(3);
    expect(await replicas[1]?.scanOnce()).toBeUndefined();
    nextPeriod();
    expect(await replicas[1]?.scanOnce()).toMatchObject({ way: 'filter', requests: 1 });
  });

  it('scans by updated_after every 25 s however tight the budget, every minute under webhooks, and sweeps as the budget allows', async () => {
    const tight = { stretch: 32, idleIntervalMs: 3_600_000 };
    const pacer = { refreshIfDue: async () => tight, pace: () => tight } as unknown as BudgetPacer;
    const cases = [
      { noFilter: false, pushed: false, everyMs: 25_000 },
      { noFilter: false, pushed: true, everyMs: 60_000 },
      { noFilter: true, pushed: false, everyMs: 600_000 },
    ];
    for (const { noFilter, pushed, everyMs } of cases) {
      const { clock, model, open } = setUp({ noFilter });
      model.createTicket(TENANT, { title: 'Printer' });
      const feed = open({ pacer, pushed });
      expect(await feed.scanOnce()).toMatchObject({ way: noFilter ? 'sweep' : 'filter' });
      clock.now += everyMs - 1;
      expect(await feed.scanOnce()).toBeUndefined();
      clock.now += 1;
      expect(await feed.scanOnce()).toBeDefined();
    }
  });

  it('scans nothing when turned off', async () => {
    const { platform, open } = setUp();
    const feed = open({ mode: 'off' });
    feed.start();
    expect(await feed.scanOnce()).toBeUndefined();
    await feed.stop();
    expect(platform.calls).toEqual([]);
  });
});

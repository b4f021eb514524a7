/**
 * The change feed's sweep way: tickets carry `updated_at` but the filter is ignored. The linked
 * tickets due in the coming period are grouped by range (desk, oldest creation) and a range is
 * listed only where that costs fewer requests than their looks (see `sweep-plan.ts`); a ticket
 * listed with an `updated_at` the mirror has not looked past is changed. Linked tickets the feed
 * knows nothing of are learnt a few per scan with Get ticket.
 */
import type { Ticket } from '../servicedesk/index.ts';
import type { TicketFacts } from '../store/types.ts';
import type { FeedRecord } from './change-feed-record.ts';
import {
  BACKGROUND,
  type Candidate,
  dueCandidates,
  type FeedScanContext,
  factsOf,
  MAX_TIME,
  type RangeChoice,
  type ScanWork,
  statusMoved,
  tell,
} from './change-feed-scan.ts';
import { timeOf } from './iso-time.ts';
import { PAGE_SIZE, pageOf, pagesFor, planSweep, type SweepPlan } from './sweep-plan.ts';

/**
 * Lists the ranges where that pays, and learns the linked tickets it knows nothing of. When
 * `work.watching`, it lists every range holding a linked ticket, the one covered longest ago
 * first, and keeps the watch: since when every range was last covered (every linked ticket found
 * on its pages), even when the budget cuts a sweep short, as the next goes on with the rest.
 * `period` is then the watch's period.
 */
export async function sweepScan(
  ctx: FeedScanContext,
  record: FeedRecord,
  work: ScanWork,
  period: number,
): Promise<void> {
  const always = ctx.o.sweep === 'always' || work.watching;
  const now = ctx.now();
  const candidates = await dueCandidates(ctx, always ? MAX_TIME : now + period, !always);
  const unknown = new Map<string, Candidate>();
  const ranges = new Map<string, Candidate[]>();
  for (const candidate of candidates) {
    if (!candidate.facts) {
      unknown.set(candidate.poll.ticketId, candidate);
      continue;
    }
    const desk = candidate.facts.deskId ?? '';
    ranges.set(desk, [...(ranges.get(desk) ?? []), candidate]);
  }
  const coveredAt = (desk: string) => record.ranges[desk]?.coveredAt ?? 0;
  const order = [...ranges].sort(([a], [b]) => coveredAt(a) - coveredAt(b));
  let learnt = 0;
  try {
    await readRanges(ctx, record, work, order, unknown, { always, now });
    // The rest are learnt one by one: a Get ticket in place of the look each is due for.
    for (const candidate of unknown.values()) {
      if (learnt >= ctx.o.learnPerScan) break;
      learnt += 1;
      const ticket = await ctx.platform.getTicket(candidate.poll.ticketId, BACKGROUND);
      work.scan.requests += 1;
      await judge(ctx, candidate, ticket, work);
    }
  } finally {
    if (work.watching) keepWatch(record, work, [...ranges.keys()], unknown.size - learnt, period);
  }
}

/**
 * The watch after a watching sweep, whole or cut short: as of the oldest range's cover, once
 * every range holding a linked ticket was covered and no linked ticket is unknown.
 */
function keepWatch(
  record: FeedRecord,
  work: ScanWork,
  desks: string[],
  unknownLeft: number,
  periodMs: number,
): void {
  if (unknownLeft > 0) return;
  const covers = desks.map((desk) => record.ranges[desk]?.coveredAt);
  if (covers.some((at) => at === undefined)) return;
  // Tickets learnt with Get ticket were covered by this sweep.
  const at = Math.min(work.scan.startedAt, ...(covers as number[]));
  record.watch = { at, periodMs };
  if (at >= work.scan.startedAt) work.scan.watched = true;
}

/** Weighs each range and reads those a sweep pays for. */
async function readRanges(
  ctx: FeedScanContext,
  record: FeedRecord,
  work: ScanWork,
  order: [string, Candidate[]][],
  unknown: Map<string, Candidate>,
  options: { always: boolean; now: number },
): Promise<void> {
  for (const [desk, group] of order) {
    const createdAts = group.map((candidate) => (candidate.facts as TicketFacts).createdAt);
    const plan = planSweep(createdAts, record.ranges[desk], options);
    const choice: RangeChoice = {
      desk: desk || null,
      looks: plan.looks,
      pages: plan.sweep ? plan.estimate : plan.pages,
      choice: plan.sweep ? 'sweep' : 'looks',
      reason: plan.reason,
    };
    work.scan.ranges.push(choice);
    if (plan.sweep) await readRange(ctx, record, desk, plan, group, unknown, work, choice);
    ctx.logger.debug({ ...choice }, 'change feed: range weighed');
  }
}

/**
 * Reads a range's planned pages and judges every linked ticket on them; a watching sweep that
 * found them all marks the range covered.
 */
async function readRange(
  ctx: FeedScanContext,
  record: FeedRecord,
  desk: string,
  plan: Extract<SweepPlan, { sweep: true }>,
  group: Candidate[],
  unknown: Map<string, Candidate>,
  work: ScanWork,
  choice: RangeChoice,
): Promise<void> {
  const byId = new Map(group.map((candidate) => [candidate.poll.ticketId, candidate]));
  const found = new Set<string>();
  const known = record.ranges[desk];
  const picked = plan.pages !== 'all';
  const firsts = picked && known ? [...known.firsts] : [];
  const queue = picked ? [...plan.pages] : [1];
  const expected = new Map(
    picked && known
      ? group.map((c) => [c.poll.ticketId, pageOf(known, (c.facts as TicketFacts).createdAt)])
      : [],
  );
  const read = new Set<number>();
  let total: number | undefined;
  let whole = false;
  let stale = false;
  while (queue.length > 0) {
    const page = queue.shift() as number;
    if (read.has(page)) continue;
    read.add(page);
    const envelope = await ctx.platform.listTickets(
      {
        ...(desk ? { desk_id: desk } : {}),
        created_after: new Date(plan.after).toISOString(),
        page,
        page_size: PAGE_SIZE,
      },
      BACKGROUND,
    );
    work.scan.requests += 1;
    const { items } = envelope;
    total = envelope.total_count ?? undefined;
    const first = timeOf(items[0]?.created_at);
    // A page that no longer starts where it did: tickets left the range and pages moved.
    if (picked && first !== undefined && firsts[page - 1] !== undefined) {
      stale ||= firsts[page - 1] !== first;
    }
    if (first !== undefined) firsts[page - 1] = first;
    await judgePage(ctx, items, byId, unknown, found, work);
    const last = items.length < PAGE_SIZE || (total !== undefined && page * PAGE_SIZE >= total);
    if (!picked) {
      const left = group.filter((candidate) => !found.has(candidate.poll.ticketId)).length;
      if (last) whole = true;
      else if (page >= ctx.o.maxPages) work.scan.complete = false;
      else if (
        plan.stopIfDearer &&
        page === 1 &&
        total !== undefined &&
        pagesFor(total) - 1 >= left
      ) {
        choice.choice = 'looks';
        choice.pages = pagesFor(total);
        choice.reason = `page 1 showed ${pagesFor(total)} page(s) for ${plan.looks} look(s)`;
      } else queue.push(page + 1);
      continue;
    }
    // A due ticket expected here but newer than the last on this full page is on the next
    // one (the range grew), as long as reading it still costs fewer requests than the looks.
    const lastAt = timeOf(items.at(-1)?.created_at);
    const spill = group.some((candidate) => {
      const createdAt = (candidate.facts as TicketFacts).createdAt;
      return (
        !found.has(candidate.poll.ticketId) &&
        expected.get(candidate.poll.ticketId) === page &&
        lastAt !== undefined &&
        createdAt > lastAt
      );
    });
    if (spill) {
      for (const candidate of group) {
        if (expected.get(candidate.poll.ticketId) === page) {
          expected.set(candidate.poll.ticketId, page + 1);
        }
      }
    }
    if (spill && items.length === PAGE_SIZE && read.size + queue.length < plan.looks - 1) {
      queue.push(page + 1);
    }
  }
  if (choice.choice === 'sweep') choice.pages = read.size;
  const missing = group.filter((candidate) => !found.has(candidate.poll.ticketId));
  if (!picked && !whole) {
    // Not read to the end: only the total is worth keeping.
    if (total !== undefined) {
      record.ranges[desk] = { after: plan.after, total, firsts: [], checkedAt: ctx.now() };
    }
    return;
  }
  for (const candidate of missing) {
    // Not where its facts put it: moved to another desk (a change) or gone; learnt again.
    work.forgotten.add(candidate.poll.ticketId);
    if (!picked) await tell(ctx, candidate.poll.ticketId, Number.MAX_SAFE_INTEGER, work);
  }
  record.ranges[desk] = {
    after: plan.after,
    total: total ?? known?.total ?? 0,
    firsts: stale || (picked && missing.length > 0) ? [] : firsts,
    checkedAt: ctx.now(),
    ...(work.watching && missing.length === 0 ? { coveredAt: work.scan.startedAt } : {}),
  };
}

/** Judges the linked tickets of one page: those due, and others the feed knows are linked. */
async function judgePage(
  ctx: FeedScanContext,
  items: Ticket[],
  byId: Map<string, Candidate>,
  unknown: Map<string, Candidate>,
  found: Set<string>,
  work: ScanWork,
): Promise<void> {
  const others = items.filter((ticket) => !byId.has(ticket.id) && !unknown.has(ticket.id));
  const linked = await ctx.stores.feed.facts(others.map((ticket) => ticket.id));
  for (const ticket of items) {
    const candidate = byId.get(ticket.id) ?? unknown.get(ticket.id);
    if (candidate) {
      found.add(ticket.id);
      unknown.delete(ticket.id);
      await judge(ctx, candidate, ticket, work);
      continue;
    }
    const facts = linked.get(ticket.id);
    const updatedAt = timeOf(ticket.updated_at);
    // A linked ticket not due: free to check, as the page is read anyway.
    if (!facts || updatedAt === undefined || updatedAt <= facts.updatedAt) continue;
    await tell(ctx, ticket.id, updatedAt, work, { listed: ticket, known: facts });
    work.noted.set(ticket.id, factsOf(ticket, updatedAt) ?? { ...facts, updatedAt });
  }
}

/** A due linked ticket as the platform has it now: changed (hinted) or unchanged. */
async function judge(
  ctx: FeedScanContext,
  candidate: Candidate,
  ticket: Ticket,
  work: ScanWork,
): Promise<void> {
  const updatedAt = timeOf(ticket.updated_at);
  if (updatedAt === undefined) return;
  const facts = factsOf(ticket, updatedAt);
  if (facts) work.noted.set(ticket.id, facts);
  const { state } = candidate;
  const seen = updatedAt <= state.lastPolledAt - ctx.o.clockMarginMs;
  if (!seen || statusMoved(state, ticket)) {
    await tell(ctx, ticket.id, updatedAt, work, {
      listed: ticket,
      known: candidate.facts,
      state,
    });
    return;
  }
  work.unchanged.push(candidate);
}

/**
 * The change feed's filter way: the platform honours `updated_after`, so one request a scan
 * returns the tickets changed since the cursor. `updated_at` has millisecond resolution and two
 * changes may share one, so the cursor stays a little behind the newest change seen and what
 * was seen already is skipped. After a whole scan, every due ticket the mirror looked at since
 * the cursor began, and that reported no change since, is unchanged.
 *
 * A feed without a cursor (its first scan, or its record lost with an emptied Redis) starts
 * warm: its first listing goes back as far as the looks it may move (`lookbackMs`, the time a
 * ticket's last look is trusted), and each linked ticket in it is compared with what the mirror
 * last read of it, so only a change the mirror has not read (one made while the app was down)
 * is hinted. A ticket not listed has not changed since before any look the feed may move, so
 * the feed vouches for the quiet tickets from its first scan on rather than having each looked
 * at once first.
 */
import type { Ticket } from '../servicedesk/index.ts';
import type { FeedRecord } from './change-feed-record.ts';
import {
  BACKGROUND,
  dueCandidates,
  type FeedScanContext,
  factsOf,
  type ScanWork,
  tell,
} from './change-feed-scan.ts';
import { timeOf } from './iso-time.ts';
import { PAGE_SIZE } from './sweep-plan.ts';

/** One `updated_after` request (more when over a hundred changed) from the cursor. */
export async function filterScan(
  ctx: FeedScanContext,
  record: FeedRecord,
  work: ScanWork,
  period: number,
  lookbackMs: number,
): Promise<void> {
  const { scan } = work;
  const now = ctx.now();
  const margin = ctx.o.clockMarginMs;
  const warm = record.cursor === undefined;
  // The record takes the cursor only once the listing is read: a warm start the budget cut
  // short is made again at the next scan.
  const cursor = record.cursor ?? now - lookbackMs - margin;
  const items: Ticket[] = [];
  let whole = false;
  for (let page = 1; page <= ctx.o.maxPages; page++) {
    const envelope = await ctx.platform.listTickets(
      { updated_after: new Date(cursor).toISOString(), page, page_size: PAGE_SIZE },
      BACKGROUND,
    );
    scan.requests += 1;
    items.push(...envelope.items);
    const total = envelope.total_count;
    if (envelope.items.length < PAGE_SIZE || (total !== null && page * PAGE_SIZE >= total)) {
      whole = true;
      break;
    }
  }
  // A new ticket is an update: the triage feed finds it here without a request of its own.
  ctx.onListed?.(items);
  const seen = await ctx.stores.feed.facts([...new Set(items.map((ticket) => ticket.id))]);
  let newest = cursor;
  let unfiltered = 0;
  for (const ticket of items) {
    const updatedAt = timeOf(ticket.updated_at);
    if (updatedAt === undefined) continue;
    if (updatedAt <= cursor) {
      unfiltered += 1;
      continue;
    }
    newest = Math.max(newest, updatedAt);
    // Seen by the last scan, in the overlap behind its cursor.
    const known = seen.get(ticket.id);
    if (known?.updatedAt === updatedAt) continue;
    if (await tell(ctx, ticket.id, updatedAt, work, { listed: ticket, known, warm })) {
      const facts = factsOf(ticket, updatedAt);
      if (facts) work.noted.set(ticket.id, facts);
    }
  }
  if (unfiltered > 0) filterIgnored(ctx, record, unfiltered);
  // A warm start goes on from now: its listing read what came before.
  const from = warm ? now - ctx.o.overlapMs - margin : cursor;
  record.cursor = Math.max(from, newest - ctx.o.overlapMs);
  if (warm) record.since = cursor;
  if (!whole) {
    // More changed than a scan reads: those not read are the per-ticket looks' to find.
    scan.complete = false;
    record.since = record.cursor;
    ctx.logger.warn(
      { pages: ctx.o.maxPages, cursor: new Date(cursor).toISOString() },
      'change feed: more tickets changed than one scan reads; the rest is left to per-ticket looks',
    );
    return;
  }
  const since = record.since;
  if (since === undefined) return;
  const due = await dueCandidates(ctx, ctx.now() + period, true);
  for (const candidate of due) {
    const lookedAt = candidate.state.lastPolledAt - margin;
    // Every change after `since` was reported, and a reported one left its time in the facts.
    const reported = work.noted.get(candidate.poll.ticketId) ?? candidate.facts;
    if (lookedAt >= since && (reported?.updatedAt ?? 0) <= lookedAt) {
      work.unchanged.push(candidate);
    }
  }
}

function filterIgnored(ctx: FeedScanContext, record: FeedRecord, count: number): void {
  if (!ctx.warnedIgnored) {
    ctx.warnedIgnored = true;
    ctx.logger.warn(
      { tickets: count, mode: ctx.mode },
      'change feed: List tickets returned tickets unchanged since updated_after; the platform seems to ignore it',
    );
  }
  // Found out again at the next scan (a forced filter stays: the configuration says so).
  if (ctx.mode === 'auto') record.detectedAt = 0;
}

/**
 * Whether a sweep of one range pays, and which pages it reads. Pure: the linked tickets due in
 * the coming period and what is known of the range come in, a plan comes out.
 *
 * A range is the list of one desk's tickets created after a time (`desk_id`, `created_after`),
 * oldest first, a hundred a page. One page tells the `updated_at` of up to a hundred tickets; a
 * look at one ticket costs at least one request. So a sweep pays where the linked tickets due
 * are dense in the range: tickets not filed from Slack, other desks' tickets (without a desk)
 * and one very old linked ticket all add pages and no looks saved. Once the range's pages are
 * known (the first `created_at` of each, from one full read), only the pages holding due
 * tickets are read, which takes the cost of an old ticket down to its own page; until then the
 * range is read whole, and only when its total, told by page 1, makes that cheaper than the
 * looks.
 */
import { MIRROR_TUNING } from './mirror-tuning.ts';

/** A page of List tickets: the contract's maximum. */
export const PAGE_SIZE = 100;

/** What the feed knows of one range's pages. */
export interface SweepRange {
  /** The range's `created_after`, ms: page numbers hold only while it stays put. */
  after: number;
  /** Its `total_count` when last read. */
  total: number;
  /** The `created_at` of the first ticket of each page from page 1, as last read (may be empty). */
  firsts: number[];
  /** When the range was last read, ms. */
  checkedAt: number;
  /** When a watching sweep last found every linked ticket of the range on its pages (its start, ms). */
  coveredAt?: number;
}

/** What to do with one range this period. */
export type SweepPlan =
  | {
      sweep: false;
      /** The looks due, which the schedule makes as usual. */
      looks: number;
      /** What a sweep would have cost, when known. */
      pages: number | undefined;
      reason: string;
    }
  | {
      sweep: true;
      looks: number;
      /** The range to list. */
      after: number;
      /** The pages to read, or every page from 1. */
      pages: number[] | 'all';
      /** What it is expected to cost, when known. */
      estimate: number | undefined;
      /** Stop after page 1 when its total shows the rest costs as much as the looks it saves. */
      stopIfDearer: boolean;
      reason: string;
    };

/** Options of `planSweep`. */
export interface SweepPlanOptions {
  /** Sweep whatever it costs (a forced sweep, or no per-ticket looks to weigh it against). */
  always: boolean;
  now: number;
  /** A range's total older than this is asked for again rather than trusted (default 30 min). */
  staleMs?: number;
}

/** Pages needed to list `total` tickets. */
export function pagesFor(total: number): number {
  return Math.max(1, Math.ceil(total / PAGE_SIZE));
}

/** The page a ticket created at `createdAt` is expected on, by the range's known firsts. */
export function pageOf(range: SweepRange, createdAt: number): number {
  let page = 0;
  for (const first of range.firsts) if (first <= createdAt) page += 1;
  return Math.max(1, page);
}

/** Plans one range's sweep for the due tickets created at `createdAts`; see the file comment. */
export function planSweep(
  createdAts: readonly number[],
  range: SweepRange | undefined,
  options: SweepPlanOptions,
): SweepPlan {
  const looks = createdAts.length;
  if (looks === 0) return { sweep: false, looks, pages: 0, reason: 'no linked ticket due' };
  const oldest = Math.min(...createdAts);
  if (range && range.after < oldest && range.firsts.length > 0) {
    const pages = [...new Set(createdAts.map((at) => pageOf(range, at)))].sort((a, b) => a - b);
    if (options.always || pages.length < looks) {
      return {
        sweep: true,
        looks,
        after: range.after,
        pages,
        estimate: pages.length,
        stopIfDearer: false,
        reason: `${pages.length} known page(s) hold the ${looks} linked ticket(s) due`,
      };
    }
    return {
      sweep: false,
      looks,
      pages: pages.length,
      reason: `the ${looks} linked ticket(s) due lie on ${pages.length} page(s): no cheaper than their looks`,
    };
  }
  // Pages unknown: the range is read whole, from just before its oldest ticket due.
  const after = oldest - 1;
  const fresh =
    range &&
    options.now - range.checkedAt < (options.staleMs ?? MIRROR_TUNING.feed.sweepStaleMs.value);
  const estimate = fresh && range.after <= after ? pagesFor(range.total) : undefined;
  if (options.always) {
    return {
      sweep: true,
      looks,
      after,
      pages: 'all',
      estimate,
      stopIfDearer: false,
      reason: 'sweep forced',
    };
  }
  if (estimate !== undefined) {
    if (estimate < looks) {
      return {
        sweep: true,
        looks,
        after,
        pages: 'all',
        estimate,
        stopIfDearer: true,
        reason: `${estimate} page(s) for ${looks} looks`,
      };
    }
    return {
      sweep: false,
      looks,
      pages: estimate,
      reason: `a sweep would read ${estimate} page(s) for ${looks} look(s)`,
    };
  }
  if (looks < 2) {
    return {
      sweep: false,
      looks,
      pages: undefined,
      reason: 'one look costs no more than the first page',
    };
  }
  return {
    sweep: true,
    looks,
    after,
    pages: 'all',
    estimate: undefined,
    stopIfDearer: true,
    reason: `page 1 tells what the range costs against ${looks} looks`,
  };
}

/**
 * What the change feed keeps between scans, shared by every replica through the store: the way
 * the platform tells changes, the `updated_after` cursor, and what is known of each range's
 * pages. Read leniently: a damaged or unknown field is read as missing, which only costs the
 * feed a fresh start (a new detection, a cursor from now, ranges read anew).
 */
import type { JsonValue } from '../store/types.ts';
import type { SweepRange } from './sweep-plan.ts';

/** How List tickets tells the feed what changed. */
export type FeedWay =
  /** It honours `updated_after`: one request returns the changed tickets. */
  | 'filter'
  /** Tickets carry `updated_at`, unfiltered: the list is swept and compared. */
  | 'sweep'
  /** Tickets carry no `updated_at`: only per-ticket looks can tell. */
  | 'none'
  /** Nothing to tell it by yet (a tenant without tickets). */
  | 'unknown';

/** The feed's state between scans. */
export interface FeedRecord {
  way: FeedWay | undefined;
  /** When `way` was found out, ms. */
  detectedAt: number;
  /** filter: the `updated_after` of the next scan (platform time, ms). */
  cursor: number | undefined;
  /**
   * filter: every change after this time (platform time, ms) was read by some scan, without a
   * gap; a ticket polled after it, and not reported since, has not changed.
   */
  since: number | undefined;
  /**
   * When a scan last failed on the platform (not the budget), until a whole scan: a feed that
   * cannot list changes watches nothing, however recent its cursor.
   */
  failedAt: number | undefined;
  /** sweep: what is known of each range, by desk ('' for the range of every desk). */
  ranges: Record<string, SweepRange>;
  /**
   * sweep: the last sweep that read the page of every linked ticket scheduled, which vouches
   * for them as a scan by `updated_after` does, for a few of its periods.
   */
  watch: SweepWatch | undefined;
}

/** A sweep that read every linked ticket's page: when it started, and its period then. */
export interface SweepWatch {
  at: number;
  periodMs: number;
}

/** A record for a feed that has not scanned yet. */
export function emptyFeedRecord(): FeedRecord {
  return {
    way: undefined,
    detectedAt: 0,
    cursor: undefined,
    since: undefined,
    failedAt: undefined,
    ranges: {},
    watch: undefined,
  };
}

const WAYS = new Set<string>(['filter', 'sweep', 'none', 'unknown']);

function time(value: JsonValue | undefined): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

function readRange(value: JsonValue | undefined): SweepRange | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const after = time(value.after);
  const total = time(value.total);
  const checkedAt = time(value.checkedAt);
  const firsts = Array.isArray(value.firsts) ? value.firsts.map(time) : undefined;
  if (after === undefined || total === undefined || checkedAt === undefined || !firsts) {
    return undefined;
  }
  if (firsts.some((first) => first === undefined)) return undefined;
  const coveredAt = time(value.coveredAt);
  return {
    after,
    total,
    checkedAt,
    firsts: firsts as number[],
    ...(coveredAt !== undefined ? { coveredAt } : {}),
  };
}

/** The record from the store's data. */
export function readFeedRecord(data: JsonValue | undefined): FeedRecord {
  const record = emptyFeedRecord();
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return record;
  if (typeof data.way === 'string' && WAYS.has(data.way)) record.way = data.way as FeedWay;
  record.detectedAt = time(data.detectedAt) ?? 0;
  record.cursor = time(data.cursor);
  // A coverage claim without the cursor it grew from is not to be trusted.
  record.since = record.cursor === undefined ? undefined : time(data.since);
  record.failedAt = time(data.failedAt);
  const watch = data.watch;
  if (typeof watch === 'object' && watch !== null && !Array.isArray(watch)) {
    const at = time(watch.at);
    const periodMs = time(watch.periodMs);
    if (at !== undefined && periodMs !== undefined) record.watch = { at, periodMs };
  }
  const ranges = data.ranges;
  if (typeof ranges === 'object' && ranges !== null && !Array.isArray(ranges)) {
    for (const [desk, value] of Object.entries(ranges)) {
      const range = readRange(value);
      if (range) record.ranges[desk] = range;
    }
  }
  return record;
}

/** The store's data for the record. */
export function feedRecordData(record: FeedRecord): JsonValue {
  const data: { [key: string]: JsonValue } = {
    detectedAt: record.detectedAt,
    ranges: Object.fromEntries(
      Object.entries(record.ranges).map(([desk, range]) => [desk, { ...range }]),
    ),
  };
  if (record.way !== undefined) data.way = record.way;
  if (record.cursor !== undefined) data.cursor = record.cursor;
  if (record.since !== undefined) data.since = record.since;
  if (record.watch !== undefined) data.watch = { ...record.watch };
  if (record.failedAt !== undefined) data.failedAt = record.failedAt;
  return data;
}

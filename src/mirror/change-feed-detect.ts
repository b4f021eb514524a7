/**
 * Finds out, without creating or changing anything, how the platform can tell the change feed
 * what changed (docs/platform-contract.md, "Optional capabilities"). Two requests of one ticket each:
 *
 * 1. List tickets, page size 1. No ticket at all: nothing to tell by ('unknown', asked again
 *    later). A ticket without `updated_at`: the tenant has no change time ('none').
 * 2. The same with `updated_after` a day past now, which is after every ticket's last change. A
 *    platform that honours it answers with no ticket ('filter'); one that ignores the unknown
 *    parameter answers with the unfiltered list, and one that refuses it with a 400 or 422
 *    ('sweep' either way).
 */
import { BadRequestError, ValidationError } from '../servicedesk/index.ts';
import type { FeedWay } from './change-feed-record.ts';
import type { ChangeFeedPlatform } from './types.ts';

const BACKGROUND = { priority: 'background' } as const;
const DAY_MS = 86_400_000;

/** What the detection found, and what it cost. */
export interface FeedDetection {
  way: FeedWay;
  requests: number;
}

/** Asks the platform which way it can tell changes; see the file comment. */
export async function detectFeedWay(
  platform: ChangeFeedPlatform,
  now: number,
): Promise<FeedDetection> {
  const any = await platform.listTickets({ page: 1, page_size: 1 }, BACKGROUND);
  const first = any.items[0];
  if (!first) return { way: 'unknown', requests: 1 };
  const updatedAt = first.updated_at ? Date.parse(first.updated_at) : Number.NaN;
  if (Number.isNaN(updatedAt)) return { way: 'none', requests: 1 };
  const future = new Date(Math.max(now, updatedAt) + DAY_MS).toISOString();
  try {
    const filtered = await platform.listTickets(
      { page: 1, page_size: 1, updated_after: future },
      BACKGROUND,
    );
    return { way: filtered.items.length === 0 ? 'filter' : 'sweep', requests: 2 };
  } catch (error) {
    if (error instanceof BadRequestError || error instanceof ValidationError) {
      return { way: 'sweep', requests: 2 };
    }
    throw error;
  }
}

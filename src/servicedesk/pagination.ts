/**
 * List endpoints as async iterators, for both pagination styles of the platform: page-based
 * (`page` from 1, `page_size`) and offset-based (`limit`, `offset`).
 */

import type { OperationName } from '../contract/routes.ts';
import type { Envelope } from '../contract/schemas.ts';
import { AbortError } from './errors.ts';

/** How urgent a call is; a shared rate budget serves `interactive` first. */
export type Priority = 'interactive' | 'background';

/** Options of the `iterate*` methods. */
export interface IterateOptions {
  /** Stop after this many items (no further page is fetched). */
  maxItems?: number;
  /** Items requested per page. Default 100, the contract's maximum, to spend the fewest requests. */
  pageSize?: number;
  signal?: AbortSignal;
  priority?: Priority;
}

/** Page size the iterators ask for unless told otherwise. */
export const DEFAULT_ITERATE_PAGE_SIZE = 100;

/** Fetches one page-based page. */
export type FetchPage<T> = (page: number, pageSize: number) => Promise<Envelope<T>>;
/** Fetches one offset-based page. */
export type FetchOffset<T> = (limit: number, offset: number) => Promise<Envelope<T>>;

interface Bounds {
  maxItems: number;
  pageSize: number;
}

function bounds(options: IterateOptions): Bounds {
  const { maxItems = Number.POSITIVE_INFINITY, pageSize = DEFAULT_ITERATE_PAGE_SIZE } = options;
  if (!(maxItems === Number.POSITIVE_INFINITY || (Number.isInteger(maxItems) && maxItems >= 0))) {
    throw new TypeError(`maxItems must be an integer >= 0, got ${maxItems}`);
  }
  if (!Number.isInteger(pageSize) || pageSize < 1) {
    throw new TypeError(`pageSize must be an integer >= 1, got ${pageSize}`);
  }
  return { maxItems, pageSize };
}

function throwIfAborted(operation: OperationName, signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AbortError(operation, signal.reason);
}

// A page ends the listing when it is empty, short, or reaches the total the server reported.
function isLastPage<T>(page: Envelope<T>, requested: number, received: number): boolean {
  if (page.items.length === 0 || page.items.length < requested) return true;
  return page.total_count !== null && received >= page.total_count;
}

/** Every item of a page-based list, page 1 onwards. */
export async function* paginateByPage<T>(
  operation: OperationName,
  fetchPage: FetchPage<T>,
  options: IterateOptions = {},
): AsyncGenerator<T, void, undefined> {
  const { maxItems, pageSize: wanted } = bounds(options);
  // Page numbers only line up if every page has the same size, so shrink once, up front.
  const pageSize = Math.min(wanted, Math.max(1, maxItems));
  let yielded = 0;
  let received = 0;
  for (let page = 1; yielded < maxItems; page++) {
    throwIfAborted(operation, options.signal);
    const envelope = await fetchPage(page, pageSize);
    received += envelope.items.length;
    for (const item of envelope.items) {
      if (yielded >= maxItems) return;
      throwIfAborted(operation, options.signal);
      yielded++;
      yield item;
    }
    if (isLastPage(envelope, pageSize, received)) return;
  }
}

/** Every item of an offset-based list, offset 0 onwards. */
export async function* paginateByOffset<T>(
  operation: OperationName,
  fetchOffset: FetchOffset<T>,
  options: IterateOptions = {},
): AsyncGenerator<T, void, undefined> {
  const { maxItems, pageSize } = bounds(options);
  let yielded = 0;
  let offset = 0;
  while (yielded < maxItems) {
    throwIfAborted(operation, options.signal);
    const limit = Math.min(pageSize, maxItems - yielded);
    const envelope = await fetchOffset(limit, offset);
    offset += envelope.items.length;
    for (const item of envelope.items) {
      if (yielded >= maxItems) return;
      throwIfAborted(operation, options.signal);
      yielded++;
      yield item;
    }
    if (isLastPage(envelope, limit, offset)) return;
  }
}

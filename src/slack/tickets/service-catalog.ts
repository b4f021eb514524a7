/**
 * The platform's service catalog, kept per process: the request form's searchable select must
 * be answered within Slack's 3 seconds on every keystroke, and a catalog changes rarely. The
 * catalog is asked for at most once per `ttlMs` (an hour); past that the kept copy is still
 * given while a fresh one loads behind it, and callers at the same time share one request. Only
 * the very first load can keep a person waiting, and `within` bounds that wait.
 */
import {
  type CatalogItem,
  isServiceDeskError,
  NotFoundError,
  type ServiceDeskClient,
} from '../../servicedesk/index.ts';
import type { Catalog, CatalogRead, Payer } from '../deps.ts';
import { FairShareSpentError } from '../errors.ts';

/** How long the kept catalog counts as fresh, and the least time between two requests for it. */
export const SERVICE_CATALOG_TTL_MS = 60 * 60_000;
/** After a failed request, how long before the catalog is asked again (the kept copy serves). */
export const SERVICE_CATALOG_RETRY_MS = 60_000;
/** Most items kept: a catalog past this is cut (and said in the log), never paged forever. */
export const SERVICE_CATALOG_MAX_ITEMS = 5_000;
/** Most options Slack takes in one answer to an external select. */
export const CATALOG_OPTIONS_MAX = 100;

/** What the catalog is read with. */
export interface ServiceCatalogOptions {
  client: Pick<ServiceDeskClient, 'iterateCatalogItems'>;
  /** Told about a refresh that failed behind a kept copy (nobody awaits it). */
  onRefreshError?: (error: unknown) => void;
  /** Told when the catalog has more items than are kept. */
  onTruncated?: (kept: number) => void;
  ttlMs?: number;
  retryMs?: number;
  maxItems?: number;
  now?: () => number;
}

/** Cached List catalog items. */
export class ServiceCatalog implements Catalog {
  readonly #client: Pick<ServiceDeskClient, 'iterateCatalogItems'>;
  readonly #onRefreshError: (error: unknown) => void;
  readonly #onTruncated: (kept: number) => void;
  readonly #ttlMs: number;
  readonly #retryMs: number;
  readonly #maxItems: number;
  readonly #now: () => number;
  #kept: CatalogRead | undefined;
  #nextRequestAt = 0;
  #failure: unknown;
  #pending: Promise<CatalogRead> | undefined;

  constructor(options: ServiceCatalogOptions) {
    this.#client = options.client;
    this.#onRefreshError = options.onRefreshError ?? (() => {});
    this.#onTruncated = options.onTruncated ?? (() => {});
    this.#ttlMs = options.ttlMs ?? SERVICE_CATALOG_TTL_MS;
    this.#retryMs = options.retryMs ?? SERVICE_CATALOG_RETRY_MS;
    this.#maxItems = options.maxItems ?? SERVICE_CATALOG_MAX_ITEMS;
    this.#now = options.now ?? Date.now;
  }

  /** The kept catalog, fresh or stale, without waiting; a stale copy is refreshed behind it. */
  peek(): CatalogRead | undefined {
    if (this.#kept && this.#mayRequest()) this.#refreshBehind();
    return this.#kept;
  }

  /**
   * The catalog: the kept copy at once (refreshed behind it when stale), else one request
   * shared by every caller. A platform without a catalog (404) reads as `absent`. `pay` is
   * called by the caller that starts the request, before it, and may refuse it.
   */
  async get(pay?: Payer): Promise<CatalogRead> {
    for (let attempt = 1; ; attempt++) {
      const kept = this.peek();
      if (kept) return kept;
      const joined = this.#pending !== undefined;
      if (!joined && !this.#mayRequest()) throw this.#failure;
      const pending = this.#pending ?? this.#request(pay);
      try {
        return await pending;
      } catch (error) {
        // A request another person started and could not pay for: this one starts its own.
        if (joined && error instanceof FairShareSpentError && attempt < 3) continue;
        throw error;
      }
    }
  }

  /**
   * The catalog if it can be had within `waitMs` (the first load, shared), else `loading`: an
   * answer that must reach Slack in time says so instead of missing it. The load goes on.
   */
  async within(waitMs: number): Promise<CatalogRead | 'loading'> {
    const kept = this.peek();
    if (kept) return kept;
    const loading = this.get();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'loading'>((resolve) => {
      timer = setTimeout(() => resolve('loading'), waitMs);
    });
    // Whoever comes next gets the outcome; a failure here is the caller's from `race`.
    loading.catch(() => {});
    try {
      return await Promise.race([loading, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  #mayRequest(): boolean {
    return this.#pending === undefined && this.#now() >= this.#nextRequestAt;
  }

  #refreshBehind(): void {
    this.#request().catch((error: unknown) => this.#onRefreshError(error));
  }

  #request(pay?: Payer): Promise<CatalogRead> {
    const startedAt = this.#now();
    this.#nextRequestAt = startedAt + this.#ttlMs;
    // Without a payer the request goes at once, as a refresh behind a kept copy does.
    const pending = (pay ? pay().then(() => this.#readAll()) : this.#readAll())
      .then(
        (read) => {
          this.#kept = read;
          this.#failure = undefined;
          return read;
        },
        (error: unknown) => {
          // Only the platform's failures are waited out; anything else is a bug, and rethrown.
          this.#nextRequestAt = isServiceDeskError(error) ? startedAt + this.#retryMs : 0;
          this.#failure = error;
          throw error;
        },
      )
      .finally(() => {
        this.#pending = undefined;
      });
    this.#pending = pending;
    return pending;
  }

  async #readAll(): Promise<CatalogRead> {
    const items: CatalogItem[] = [];
    try {
      for await (const item of this.#client.iterateCatalogItems({
        maxItems: this.#maxItems + 1,
        priority: 'interactive',
      })) {
        items.push(item);
      }
    } catch (error) {
      // A platform without a service catalog answers 404: there is nothing to offer.
      if (error instanceof NotFoundError) return { kind: 'absent' };
      throw error;
    }
    if (items.length > this.#maxItems) {
      items.length = this.#maxItems;
      this.#onTruncated(this.#maxItems);
    }
    return { kind: 'items', items };
  }
}

// Words of a name, description or query: lower case, accents and punctuation dropped.
function wordsOf(text: string | null | undefined): string[] {
  return (text ?? '')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

// A query word matches an item word it starts (typing "lap" finds "laptop"), or that starts it
// with a plural's "s" or "es" left (asking for "laptops" finds "laptop").
function matches(queryWord: string, itemWord: string): boolean {
  if (itemWord.startsWith(queryWord)) return true;
  return (
    queryWord.startsWith(itemWord) &&
    itemWord.length >= 3 &&
    ['s', 'es'].includes(queryWord.slice(itemWord.length))
  );
}

/**
 * The catalog items matching a query, best first, at most `limit`: an item matching more of
 * the query's words before one matching fewer; then a word in the name before one in the
 * description, a whole word before its start; then by name. Items matching none are left out.
 * No words: every item, by name.
 */
export function searchCatalog(
  items: readonly CatalogItem[],
  query: string,
  limit = CATALOG_OPTIONS_MAX,
): CatalogItem[] {
  const all = [...new Set(wordsOf(query))];
  // Single letters ("a", "i") would match nearly everything once a second word is typed.
  const queryWords = all.length > 1 ? all.filter((word) => word.length > 1) : all;
  const byName = (a: CatalogItem, b: CatalogItem) => a.name.localeCompare(b.name);
  if (queryWords.length === 0) return [...items].sort(byName).slice(0, limit);
  const scored: { item: CatalogItem; found: number; weight: number }[] = [];
  for (const item of items) {
    const name = wordsOf(item.name);
    const description = wordsOf(item.description);
    let found = 0;
    let weight = 0;
    for (const word of queryWords) {
      const inName = name.filter((w) => matches(word, w));
      const inDescription = description.filter((w) => matches(word, w));
      if (inName.length > 0) weight += inName.includes(word) ? 4 : 3;
      else if (inDescription.length > 0) weight += inDescription.includes(word) ? 2 : 1;
      else continue;
      found += 1;
    }
    if (found > 0) scored.push({ item, found, weight });
  }
  return scored
    .sort((a, b) => b.found - a.found || b.weight - a.weight || byName(a.item, b.item))
    .slice(0, limit)
    .map((entry) => entry.item);
}

/** The item that best matches the words, when any matches. */
export function bestCatalogMatch(
  items: readonly CatalogItem[],
  words: string,
): CatalogItem | undefined {
  return wordsOf(words).length > 0 ? searchCatalog(items, words, 1)[0] : undefined;
}

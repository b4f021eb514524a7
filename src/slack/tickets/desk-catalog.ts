/**
 * The platform's desks, cached per process: the create modal must open within Slack's 3-second
 * trigger window, and desks change rarely.
 */
import type { Desk, ServiceDeskClient } from '../../servicedesk/index.ts';
import type { Desks, Payer } from '../deps.ts';
import { FairShareSpentError } from '../errors.ts';

/** Cached List desks. */
export class DeskCatalog implements Desks {
  readonly #client: ServiceDeskClient;
  readonly #ttlMs: number;
  readonly #now: () => number;
  #cached: { at: number; desks: Desk[] } | undefined;
  #pending: Promise<Desk[]> | undefined;

  constructor(client: ServiceDeskClient, options: { ttlMs?: number; now?: () => number } = {}) {
    this.#client = client;
    this.#ttlMs = options.ttlMs ?? 5 * 60_000;
    this.#now = options.now ?? Date.now;
  }

  /** The desks if a fresh copy is cached, without waiting. */
  peek(): Desk[] | undefined {
    return this.#cached && this.#now() - this.#cached.at < this.#ttlMs
      ? this.#cached.desks
      : undefined;
  }

  /**
   * The desks, fetched when the cache is stale (one request however many callers wait). `pay`
   * is called by the caller that starts the request, before it is made, and may refuse it; a
   * caller that joined a request refused that way starts its own.
   */
  async list(pay?: Payer): Promise<Desk[]> {
    for (let attempt = 1; ; attempt++) {
      const fresh = this.peek();
      if (fresh) return fresh;
      const joined = this.#pending !== undefined;
      this.#pending ??= this.#request(pay);
      try {
        return await this.#pending;
      } catch (error) {
        if (joined && error instanceof FairShareSpentError && attempt < 3) continue;
        throw error;
      }
    }
  }

  #request(pay: Payer | undefined): Promise<Desk[]> {
    const call = () => this.#client.listDesks({ priority: 'interactive' });
    return (pay ? pay().then(call) : call())
      .then((page) => {
        this.#cached = { at: this.#now(), desks: page.items };
        return page.items;
      })
      .finally(() => {
        this.#pending = undefined;
      });
  }
}

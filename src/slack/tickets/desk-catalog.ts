/**
 * The platform's desks, cached per process: the create modal must open within Slack's 3-second
 * trigger window, and desks change rarely.
 */
import type { Desk, ServiceDeskClient } from '../../servicedesk/index.ts';
import type { Desks } from '../deps.ts';

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

  /** The desks, fetched when the cache is stale (one request however many callers wait). */
  async list(): Promise<Desk[]> {
    const fresh = this.peek();
    if (fresh) return fresh;
    this.#pending ??= this.#client
      .listDesks({ priority: 'interactive' })
      .then((page) => {
        this.#cached = { at: this.#now(), desks: page.items };
        return page.items;
      })
      .finally(() => {
        this.#pending = undefined;
      });
    return this.#pending;
  }
}

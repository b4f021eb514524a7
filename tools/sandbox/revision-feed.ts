/**
 * Tells the page that something changed, over server-sent events: a revision number that only
 * grows. The page then fetches a fresh snapshot, so a burst of changes (the app posting a card,
 * updating a modal and answering a command at once) costs one fetch, not one per change.
 */
import type { ServerResponse } from 'node:http';

/** How the feed batches and keeps connections alive. */
export interface RevisionFeedOptions {
  /** Changes within this window go out as one event; 30 ms by default. */
  batchMs?: number;
  /** A comment line this often keeps proxies from closing an idle stream; 15 s by default. */
  heartbeatMs?: number;
}

/** The revision counter and the pages listening to it. */
export class RevisionFeed {
  readonly #clients = new Set<ServerResponse>();
  readonly #batchMs: number;
  readonly #heartbeat: NodeJS.Timeout;
  #revision = 0;
  #pending: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(options: RevisionFeedOptions = {}) {
    this.#batchMs = options.batchMs ?? 30;
    this.#heartbeat = setInterval(() => {
      for (const client of this.#clients) client.write(': keep-alive\n\n');
    }, options.heartbeatMs ?? 15_000);
    this.#heartbeat.unref();
  }

  /** The current revision. */
  get revision(): number {
    return this.#revision;
  }

  /** Records a change; listeners hear of it within the batch window. */
  changed(): void {
    if (this.#closed) return;
    this.#revision += 1;
    this.#pending ??= setTimeout(() => {
      this.#pending = undefined;
      this.#broadcast();
    }, this.#batchMs);
  }

  #broadcast(): void {
    const line = `event: change\ndata: ${JSON.stringify({ revision: this.#revision })}\n\n`;
    for (const client of this.#clients) client.write(line);
  }

  /** Turns a request into an event stream; the first event carries the current revision. */
  subscribe(res: ServerResponse): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    // Tells EventSource how soon to reconnect when the sandbox restarts.
    res.write(
      `retry: 1000\nevent: change\ndata: ${JSON.stringify({ revision: this.#revision })}\n\n`,
    );
    this.#clients.add(res);
    res.on('close', () => this.#clients.delete(res));
  }

  /** Ends every stream and stops the timers. */
  close(): void {
    this.#closed = true;
    clearInterval(this.#heartbeat);
    if (this.#pending) clearTimeout(this.#pending);
    for (const client of this.#clients) client.end();
    this.#clients.clear();
  }
}

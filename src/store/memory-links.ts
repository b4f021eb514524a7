/** Thread links held in this process's memory: the twin of `redis-links.ts`. */
import { requireKey } from './argument-checks.ts';
import { ThreadLinkedElsewhereError } from './errors.ts';
import { parseThreadMember, threadMember, ticketThreadMember } from './thread-member.ts';
import type { LinkOptions, Now, Thread, ThreadLinks } from './types.ts';

/** Links in two Maps kept in step; each method runs to completion, so both sides always agree. */
export class MemoryThreadLinks implements ThreadLinks {
  readonly #now: Now;
  readonly #ticketByThread = new Map<string, string>();
  // Per ticket: thread member -> when it was linked and the member it is listed by (which
  // says whether it is the triage thread), to list threads in link order.
  readonly #threadsByTicket = new Map<string, Map<string, { at: number; listed: string }>>();

  constructor(now: Now) {
    this.#now = now;
  }

  async link(ticketId: string, thread: Thread, options: LinkOptions = {}): Promise<boolean> {
    requireKey(ticketId, 'ticket ID');
    const member = threadMember(thread.channel, thread.threadTs);
    const current = this.#ticketByThread.get(member);
    if (current === ticketId) return false;
    if (current !== undefined && !options.move)
      throw new ThreadLinkedElsewhereError(current, ticketId);
    if (current !== undefined) this.#remove(current, member);
    this.#ticketByThread.set(member, ticketId);
    let threads = this.#threadsByTicket.get(ticketId);
    if (!threads) {
      threads = new Map();
      this.#threadsByTicket.set(ticketId, threads);
    }
    if (!threads.has(member))
      threads.set(member, { at: this.#now(), listed: ticketThreadMember(thread) });
    return true;
  }

  async ticketForThread(channel: string, threadTs: string): Promise<string | undefined> {
    return this.#ticketByThread.get(threadMember(channel, threadTs));
  }

  async threadsForTicket(ticketId: string): Promise<Thread[]> {
    requireKey(ticketId, 'ticket ID');
    const threads = this.#threadsByTicket.get(ticketId);
    if (!threads) return [];
    // Same order as a Redis sorted set: by score, then by member.
    return [...threads.values()]
      .sort((a, b) =>
        a.at !== b.at ? a.at - b.at : a.listed < b.listed ? -1 : a.listed > b.listed ? 1 : 0,
      )
      .map(({ listed }) => parseThreadMember(listed));
  }

  async unlink(ticketId: string, thread: Thread): Promise<boolean> {
    requireKey(ticketId, 'ticket ID');
    const member = threadMember(thread.channel, thread.threadTs);
    if (this.#ticketByThread.get(member) !== ticketId) return false;
    this.#ticketByThread.delete(member);
    this.#remove(ticketId, member);
    return true;
  }

  async channels(): Promise<string[]> {
    const channels = new Set(
      [...this.#ticketByThread.keys()].map((m) => parseThreadMember(m).channel),
    );
    return [...channels].sort();
  }

  async unlinkChannels(channels: readonly string[]): Promise<number> {
    const gone = new Set(channels);
    let unlinked = 0;
    for (const [member, ticketId] of [...this.#ticketByThread]) {
      if (!gone.has(parseThreadMember(member).channel)) continue;
      this.#ticketByThread.delete(member);
      this.#remove(ticketId, member);
      unlinked += 1;
    }
    return unlinked;
  }

  #remove(ticketId: string, member: string): void {
    const threads = this.#threadsByTicket.get(ticketId);
    threads?.delete(member);
    if (threads?.size === 0) this.#threadsByTicket.delete(ticketId);
  }
}

/**
 * The ticket of a thread the app no longer knows, found in the thread itself: Redis may come
 * back empty, but the app's own posts carry the ticket in their metadata (the card that is a
 * channel thread's parent; the notice in a direct message's thread; the mirror's posts), and
 * Slack gives them back with `conversations.replies`.
 *
 * A lookup also says whether the app posted in the thread at all, so a reply there that names no
 * ticket is answered rather than dropped. A thread found to hold no ticket is remembered for a
 * while (with that answer), and lookups of one thread share one call, so chatter in the threads
 * the app hears (its direct messages) costs one Slack call per thread and not one per message.
 * The memory is this process's: a replica that has not looked yet looks once itself.
 */
import type { WebClient } from '@slack/web-api';
import { isTicketId } from '../../servicedesk/index.ts';
import type { Thread } from '../../store/types.ts';
import { slackErrorOf } from '../errors.ts';
import { postMetadata, type ThreadMessage, triageCardTicketOf } from '../posting/post-metadata.ts';
import { isConversationUnavailable } from '../posting/slack-posting.ts';
import { readThread } from '../posting/thread-reader.ts';

/** Options of the finder. */
export interface ThreadTicketFinderOptions {
  client: Pick<WebClient, 'conversations'>;
  /** How long a thread without a ticket is remembered as such (default 10 min). */
  missTtlMs?: number;
  /** Most such threads remembered; the oldest are forgotten first (default 5,000). */
  maxMisses?: number;
  now?: () => number;
}

/** What a thread's messages say: the ticket the app's posts name, and whether it posted there. */
export interface ThreadLookup {
  ticketId: string | undefined;
  /** Whether any message of the thread is the app's (a card, a notice, a mirrored message). */
  appPosted: boolean;
}

/** Finds a thread's ticket from the app's posts in it; see the file comment. */
export class ThreadTicketFinder {
  readonly #client: ThreadTicketFinderOptions['client'];
  readonly #missTtlMs: number;
  readonly #maxMisses: number;
  readonly #now: () => number;
  // Thread key → when the "no ticket here" answer lapses, and whether the app posted there;
  // insertion order is age order.
  readonly #misses = new Map<string, { until: number; appPosted: boolean }>();
  readonly #inFlight = new Map<string, Promise<ThreadLookup>>();

  constructor(options: ThreadTicketFinderOptions) {
    this.#client = options.client;
    this.#missTtlMs = options.missTtlMs ?? 10 * 60_000;
    this.#maxMisses = options.maxMisses ?? 5_000;
    this.#now = options.now ?? Date.now;
  }

  /**
   * The ticket named by the latest post of the app (`appUserId`) in the thread that carries
   * one, or undefined. The latest, because a thread moves to the follow-up ticket filed from a
   * reply to a closed one, and the follow-up's notice comes after the first ticket's posts.
   */
  async ticketOf(thread: Thread, appUserId: string): Promise<string | undefined> {
    return (await this.lookup(thread, appUserId)).ticketId;
  }

  /** The ticket as `ticketOf` names it, and whether the app posted in the thread at all. */
  async lookup(thread: Thread, appUserId: string): Promise<ThreadLookup> {
    const key = `${thread.channel}:${thread.threadTs}`;
    const miss = this.#misses.get(key);
    if (miss !== undefined) {
      if (miss.until > this.#now()) return { ticketId: undefined, appPosted: miss.appPosted };
      this.#misses.delete(key);
    }
    const running = this.#inFlight.get(key);
    if (running) return running;
    const lookup = this.#read(thread, appUserId)
      .then((found) => {
        if (found.ticketId === undefined) this.#rememberMiss(key, found.appPosted);
        return found;
      })
      .finally(() => this.#inFlight.delete(key));
    this.#inFlight.set(key, lookup);
    return lookup;
  }

  async #read(thread: Thread, appUserId: string): Promise<ThreadLookup> {
    let found: string | undefined;
    let triage = false;
    let appPosted = false;
    try {
      await readThread(this.#client, thread, (messages) => {
        for (const message of messages) {
          // A triage card's thread is the agents' room: never taken for a requester's thread.
          if (message.ts === thread.threadTs && triageCardTicketOf(message)) triage = true;
          if (message.user === appUserId) appPosted = true;
          found = ticketNamedBy(message, appUserId) ?? found;
        }
        return triage;
      });
    } catch (error) {
      // A conversation the app cannot read is no thread it can carry a ticket's talk in.
      if (!(isConversationUnavailable(error) || slackErrorOf(error) === 'thread_not_found'))
        throw error;
    }
    return { ticketId: triage ? undefined : found, appPosted };
  }

  #rememberMiss(key: string, appPosted: boolean): void {
    this.#misses.delete(key);
    this.#misses.set(key, { until: this.#now() + this.#missTtlMs, appPosted });
    while (this.#misses.size > this.#maxMisses) {
      const oldest = this.#misses.keys().next().value;
      if (oldest === undefined) break;
      this.#misses.delete(oldest);
    }
  }
}

// Only the app's own posts count: another app could put anything in its metadata.
function ticketNamedBy(message: ThreadMessage, appUserId: string): string | undefined {
  if (message.user !== appUserId) return undefined;
  const ticketId = postMetadata(message)?.ticketId;
  // As the app wrote it: links compare ticket IDs exactly.
  return ticketId && isTicketId(ticketId) ? ticketId : undefined;
}

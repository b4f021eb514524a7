/**
 * The ticket of a thread the app no longer knows, found in the thread itself: Redis may come
 * back empty, but the app's own posts carry the ticket in their metadata (the card that is a
 * channel thread's parent; the notice in a direct message's thread; the mirror's posts), and
 * Slack gives them back with `conversations.replies`.
 *
 * A thread found to hold no ticket is remembered for a while, and lookups of one thread share
 * one call, so chatter in the threads the app hears (its direct messages) costs one Slack call
 * per thread and not one per message. The memory is this process's: a replica that has not
 * looked yet looks once itself.
 */
import type { WebClient } from '@slack/web-api';
import { isTicketId } from '../../servicedesk/index.ts';
import type { Thread } from '../../store/types.ts';
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

/** Finds a thread's ticket from the app's posts in it; see the file comment. */
export class ThreadTicketFinder {
  readonly #client: ThreadTicketFinderOptions['client'];
  readonly #missTtlMs: number;
  readonly #maxMisses: number;
  readonly #now: () => number;
  // Thread key → when the "no ticket here" answer lapses; insertion order is age order.
  readonly #misses = new Map<string, number>();
  readonly #inFlight = new Map<string, Promise<string | undefined>>();

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
    const key = `${thread.channel}:${thread.threadTs}`;
    const missUntil = this.#misses.get(key);
    if (missUntil !== undefined) {
      if (missUntil > this.#now()) return undefined;
      this.#misses.delete(key);
    }
    const running = this.#inFlight.get(key);
    if (running) return running;
    const lookup = this.#read(thread, appUserId)
      .then((ticketId) => {
        if (ticketId === undefined) this.#rememberMiss(key);
        return ticketId;
      })
      .finally(() => this.#inFlight.delete(key));
    this.#inFlight.set(key, lookup);
    return lookup;
  }

  async #read(thread: Thread, appUserId: string): Promise<string | undefined> {
    let found: string | undefined;
    let triage = false;
    try {
      await readThread(this.#client, thread, (messages) => {
        for (const message of messages) {
          // A triage card's thread is the agents' room: never taken for a requester's thread.
          if (message.ts === thread.threadTs && triageCardTicketOf(message)) triage = true;
          found = ticketNamedBy(message, appUserId) ?? found;
        }
        return triage;
      });
    } catch (error) {
      // A conversation the app cannot read is no thread it can carry a ticket's talk in.
      if (!(isConversationUnavailable(error) || slackError(error) === 'thread_not_found'))
        throw error;
    }
    return triage ? undefined : found;
  }

  #rememberMiss(key: string): void {
    this.#misses.delete(key);
    this.#misses.set(key, this.#now() + this.#missTtlMs);
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

function slackError(error: unknown): string | undefined {
  return (error as { data?: { error?: string } } | null)?.data?.error;
}

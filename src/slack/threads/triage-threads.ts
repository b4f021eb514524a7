/**
 * Which threads are triage threads: the thread of a ticket's triage card, in a desk's triage
 * channel, where the desk's agents talk among themselves. What is written there goes to the
 * ticket as an internal note, never to the requester, so a triage thread must never be taken
 * for a ticket's ordinary (public) thread.
 *
 * A thread is a triage thread when the links list it as the ticket's triage thread
 * (`Thread.triage`), or, when the links do not know it (Redis came back empty), when its parent
 * is the app's triage card: a post carrying the metadata
 * `{event_type: 'triage_card', event_payload: {ticket_id, triage: true}}` (`post-metadata.ts`),
 * read back from Slack. The list of triage channels is not asked then: Redis lost it too, and
 * the card is the app's own word, wherever it is. A thread in
 * a triage channel that the links know as an ordinary ticket thread (a ticket filed from a
 * message there) is not a triage thread. Answers read from Slack are kept in this process.
 */
import type { WebClient } from '@slack/web-api';
import { isTicketId } from '../../servicedesk/index.ts';
import type { Stores, Thread } from '../../store/types.ts';
import type { TriageThreadKind, TriageThreads } from '../deps.ts';
import { type ThreadMessage, triageCardTicketOf } from '../posting/post-metadata.ts';

/** The ticket a triage card names, when the message is the app's triage card. */
export function triageCardTicket(
  message: ThreadMessage | undefined,
  appUserId: string | undefined,
): string | undefined {
  if (!message) return undefined;
  // Metadata is any app's to set: only the app's own card counts.
  if (appUserId && message.user && message.user !== appUserId) return undefined;
  const ticketId = triageCardTicketOf(message);
  return ticketId && isTicketId(ticketId) ? ticketId : undefined;
}

/** Options of the finder. */
export interface TriageThreadFinderOptions {
  client: Pick<WebClient, 'conversations'>;
  stores: Pick<Stores, 'links'>;
  /**
   * Links a thread found by its card again, as the ticket's triage thread (the mirror's
   * `relinkThread`): after Redis was emptied, its conversation follows again.
   */
  relink?: (ticketId: string, thread: Thread) => Promise<unknown>;
  /** Most threads whose card was read that are kept (default 5,000). */
  maxKept?: number;
  now?: () => number;
}

/** Tells triage threads from others; see the file comment. */
export class TriageThreadFinder implements TriageThreads {
  readonly #client: TriageThreadFinderOptions['client'];
  readonly #stores: TriageThreadFinderOptions['stores'];
  readonly #relink: TriageThreadFinderOptions['relink'];
  readonly #maxKept: number;
  readonly #now: () => number;
  // Thread key → the ticket its card names (null: its parent is no triage card).
  readonly #cards = new Map<string, string | null>();

  constructor(options: TriageThreadFinderOptions) {
    this.#client = options.client;
    this.#stores = options.stores;
    this.#relink = options.relink;
    this.#maxKept = options.maxKept ?? 5_000;
    this.#now = options.now ?? Date.now;
  }

  async classify(channel: string, threadTs: string): Promise<TriageThreadKind> {
    // The links first: a triage thread stays the agents' even once its channel stops triaging.
    const ticketId = await this.#stores.links.ticketForThread(channel, threadTs);
    if (ticketId) {
      const threads = await this.#stores.links.threadsForTicket(ticketId);
      return threads.some((thread) => thread.triage === true && same(thread, channel, threadTs))
        ? { kind: 'triage', ticketId }
        : { kind: 'not_triage' };
    }
    // Not the list of triage channels: Redis may have lost it with the links, while the card
    // itself, in Slack, still says what its thread is. A direct message holds no triage card.
    if (channel.startsWith('D')) return { kind: 'not_triage' };
    const kept = this.#cards.get(key(channel, threadTs));
    if (kept === null) return { kind: 'not_triage' };
    return kept ? { kind: 'triage', ticketId: kept } : { kind: 'unknown' };
  }

  async ticketForTriageThread(
    channel: string,
    threadTs: string,
    appUserId?: string,
  ): Promise<string | undefined> {
    const known = await this.classify(channel, threadTs);
    if (known.kind === 'triage') return known.ticketId;
    if (known.kind === 'not_triage') return undefined;
    const ticketId = await this.#readCard(channel, threadTs, appUserId);
    if (ticketId) await this.#relink?.(ticketId, { channel, threadTs, triage: true });
    this.#keep(key(channel, threadTs), ticketId ?? null);
    return ticketId;
  }

  // The thread's parent, with its metadata: Slack answers a thread's replies parent first.
  async #readCard(
    channel: string,
    threadTs: string,
    appUserId: string | undefined,
  ): Promise<string | undefined> {
    const replies = await this.#client.conversations.replies({
      channel,
      ts: threadTs,
      limit: 1,
      include_all_metadata: true,
    });
    const parent = ((replies.messages ?? []) as ThreadMessage[]).find((m) => m.ts === threadTs);
    return triageCardTicket(parent, appUserId);
  }

  #keep(threadKey: string, ticketId: string | null): void {
    this.#cards.delete(threadKey);
    this.#cards.set(threadKey, ticketId);
    if (this.#cards.size > this.#maxKept) {
      const oldest = this.#cards.keys().next().value;
      if (oldest !== undefined) this.#cards.delete(oldest);
    }
  }
}

const key = (channel: string, threadTs: string) => `${channel}:${threadTs}`;

const same = (thread: Thread, channel: string, threadTs: string) =>
  thread.channel === channel && thread.threadTs === threadTs;

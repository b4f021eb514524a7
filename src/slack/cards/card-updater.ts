/**
 * Keeps the app's ticket cards true for the mirror: the card a ticket was filed with (a
 * channel's thread parent, or the confirmation in a thread) shows the ticket as the platform
 * has it now, with the buttons its status allows.
 *
 * Nothing is stored: the card is found in the thread itself by the metadata every app post
 * carries, and rebuilt with its own lead, so it heals with Redis gone. Slack allows chat.update
 * and conversations.replies about 50 calls a minute (Tier 3): refreshes go one at a time,
 * spaced, from a queue holding only the latest ticket per card and letting each card wait a
 * moment for more, so a burst of changes gives one update, and a refusal is waited out without
 * losing the newest state. The queue lives in the process: one that ends with refreshes queued
 * leaves those cards to the ticket's next change.
 */

import type { WebClient } from '@slack/web-api';
import { backoffMs } from '../../backoff.ts';
import { type Now, type Sleep, sleep } from '../../clock.ts';
import type { Ticket } from '../../contract/schemas.ts';
import type { Thread } from '../../store/types.ts';
import { slackRetryAt } from '../app/slack-clients.ts';
import { cardLead, isCard, isTriageCard, triageCardExtras } from '../builders/card-ref.ts';
import type { ShownPerson } from '../builders/person-text.ts';
import { buildTicketCard, type SlackMessage } from '../builders/ticket-card-builder.ts';
import { buildTriageCard } from '../builders/triage-card-builder.ts';
import type { DeskFieldsOf, ServiceClockInputs } from '../deps.ts';
import { isTransient } from '../outbox/transient-errors.ts';
import { type FindByEmail, shownAssignee } from '../people/people-by-email.ts';
import {
  postMetadata,
  type ThreadMessage,
  TICKET_EVENT_TYPE,
  triageCardMetadata,
  triageCardTicketOf,
} from '../posting/post-metadata.ts';
import { readThread } from '../posting/thread-reader.ts';
import { audienceShownBy, isDirectMessage } from './card-audience.ts';

/** A pino-compatible logger. */
export interface CardLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

/** What the card updater needs. */
export interface CardUpdaterOptions {
  /**
   * A client that hands a 429 back at once (`rejectRateLimitedCalls`), as the background client
   * does: the updater waits it out itself, where a sleeping client would hold up every call.
   */
  client: WebClient;
  dashboardUrl?: string | undefined;
  logger: CardLogger;
  /** A desk's custom fields, for the values a triage card shows (none when unset). */
  deskFields?: DeskFieldsOf;
  /** Finds the assignee in Slack, whom a card names (by email when unset). */
  byEmail?: FindByEmail;
  /** The inputs of a triage card's service-level clocks, read at each refresh (unset: none). */
  serviceClocks?: ServiceClockInputs | undefined;
  /** How long a card's refresh waits for more asks, which it then answers too (default 1 s). */
  coalesceMs?: number;
  /** Least time between two refreshes (default 1.5 s: 40 a minute, room left for the buttons). */
  spacingMs?: number;
  /** First wait after a failure that is not a rate limit, doubled on each (default 5 s). */
  retryBaseMs?: number;
  /** Longest wait after a failure (default 5 min). */
  retryMaxMs?: number;
  /** Failures of one card in a row before it is left as it is (default 6). */
  maxFailures?: number;
  now?: Now;
  /** Waits; must settle (resolve or reject) when the signal aborts. */
  sleep?: Sleep;
}

interface Pending {
  key: string;
  thread: Thread;
  ticket: Ticket;
  dueAt: number;
  failures: number;
}

// Unreferenced: a card waiting on Slack must not keep the process alive.
const backgroundSleep: Sleep = (ms, signal) => sleep(ms, signal, { keepsAlive: false });

// Two reads of one ticket: the one the platform changed later wins; without times, the later ask.
function isOlder(ticket: Ticket, than: Ticket): boolean {
  const a = Date.parse(ticket.updated_at ?? '');
  const b = Date.parse(than.updated_at ?? '');
  return !Number.isNaN(a) && !Number.isNaN(b) && a < b;
}

/**
 * Whether a stored message holds everything built: Slack adds to what it stores (generated
 * block ids, `emoji`, `verbatim`), so equality would never hold.
 */
function holds(stored: unknown, built: unknown): boolean {
  if (Array.isArray(built)) {
    return (
      Array.isArray(stored) &&
      stored.length === built.length &&
      built.every((item, i) => holds(stored[i], item))
    );
  }
  if (built !== null && typeof built === 'object') {
    if (stored === null || typeof stored !== 'object') return false;
    const record = stored as Record<string, unknown>;
    return Object.entries(built).every(([key, value]) => holds(record[key], value));
  }
  return stored === built;
}

/** Metadata of a refreshed card: its ticket, and how recent the state it shows is. */
function cardMetadata(ticket: Ticket, updatedAt: string) {
  return {
    event_type: TICKET_EVENT_TYPE,
    event_payload: { ticket_id: ticket.id, ticket_updated_at: updatedAt },
  };
}

/** Queues and makes the mirror's card refreshes; see the file comment. */
export class CardUpdater {
  readonly #client: WebClient;
  readonly #dashboardUrl: string | undefined;
  readonly #deskFields: DeskFieldsOf | undefined;
  readonly #byEmail: FindByEmail | undefined;
  readonly #serviceClocks: ServiceClockInputs | undefined;
  readonly #logger: CardLogger;
  readonly #o: Required<
    Pick<
      CardUpdaterOptions,
      'coalesceMs' | 'spacingMs' | 'retryBaseMs' | 'retryMaxMs' | 'maxFailures' | 'now' | 'sleep'
    >
  >;
  readonly #pending = new Map<string, Pending>();
  #loop: Promise<void> | undefined;
  #wake: AbortController | undefined;
  #blockedUntil = 0;
  #spacedUntil = 0;
  #stopped = false;

  constructor(options: CardUpdaterOptions) {
    this.#client = options.client;
    this.#dashboardUrl = options.dashboardUrl;
    this.#deskFields = options.deskFields;
    this.#byEmail = options.byEmail;
    this.#serviceClocks = options.serviceClocks;
    this.#logger = options.logger;
    this.#o = {
      coalesceMs: options.coalesceMs ?? 1_000,
      spacingMs: options.spacingMs ?? 1_500,
      retryBaseMs: options.retryBaseMs ?? 5_000,
      retryMaxMs: options.retryMaxMs ?? 300_000,
      maxFailures: options.maxFailures ?? 6,
      now: options.now ?? Date.now,
      sleep: options.sleep ?? backgroundSleep,
    };
  }

  /** Asks for the ticket's card in the thread to show the ticket; a later ask replaces it. */
  request(thread: Thread, ticket: Ticket): void {
    if (this.#stopped) return;
    const key = JSON.stringify([thread.channel, thread.threadTs, ticket.id]);
    const queued = this.#pending.get(key);
    if (queued) {
      if (!isOlder(ticket, queued.ticket)) queued.ticket = ticket;
    } else {
      const dueAt = this.#o.now() + this.#o.coalesceMs;
      this.#pending.set(key, { key, thread, ticket, dueAt, failures: 0 });
    }
    this.#kick();
  }

  /** Resolves once every queued refresh is made or given up. */
  async idle(): Promise<void> {
    while (this.#loop) await this.#loop;
  }

  /** Stops after the refresh under way; what is still queued is dropped. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#wake?.abort();
    await this.#loop;
    if (this.#pending.size > 0) {
      this.#logger.info({ cards: this.#pending.size }, 'card refreshes dropped at shutdown');
      this.#pending.clear();
    }
  }

  #kick(): void {
    // A sleeping loop looks again: the new card may be due sooner than what it waits for.
    this.#wake?.abort();
    if (this.#loop || this.#stopped) return;
    this.#loop = this.#run().finally(() => {
      this.#loop = undefined;
      // An ask that came while the loop was ending.
      if (this.#pending.size > 0) this.#kick();
    });
  }

  async #run(): Promise<void> {
    while (!this.#stopped) {
      let next: Pending | undefined;
      for (const entry of this.#pending.values()) {
        if (!next || entry.dueAt < next.dueAt) next = entry;
      }
      if (!next) return;
      const wait = Math.max(next.dueAt, this.#blockedUntil, this.#spacedUntil) - this.#o.now();
      if (wait > 0) {
        await this.#sleep(wait);
        continue;
      }
      this.#pending.delete(next.key);
      this.#spacedUntil = this.#o.now() + this.#o.spacingMs;
      await this.#attempt(next);
    }
  }

  async #sleep(ms: number): Promise<void> {
    const wake = new AbortController();
    this.#wake = wake;
    try {
      await this.#o.sleep(ms, wake.signal);
    } catch {
      // Woken by a new ask or by stop().
    } finally {
      this.#wake = undefined;
    }
  }

  async #attempt(entry: Pending): Promise<void> {
    const { thread, ticket } = entry;
    const where = { ticket_id: ticket.id, channel: thread.channel, thread_ts: thread.threadTs };
    try {
      const updated = await this.#refresh(thread, ticket);
      this.#logger.debug({ ...where, status: ticket.status, updated }, 'ticket card refreshed');
      return;
    } catch (error) {
      const retry = this.#retryAfter(error, entry.failures);
      if (retry === 'never') {
        this.#logger.info({ ...where, err: error }, 'ticket card can no longer be updated; left');
        return;
      }
      if (retry === 'gave up') {
        this.#logger.warn({ ...where, err: error }, 'ticket card refresh gave up');
        return;
      }
      const retryInMs = retry.at - this.#o.now();
      this.#logger.info({ ...where, err: error, retry_in_ms: retryInMs }, 'ticket card deferred');
      // A newer ask for the card goes in this one's place, no sooner than this one would have.
      const newer = this.#pending.get(entry.key);
      if (newer) {
        newer.dueAt = Math.max(newer.dueAt, retry.at);
        newer.failures = retry.failures;
      } else {
        this.#pending.set(entry.key, { ...entry, dueAt: retry.at, failures: retry.failures });
      }
    }
  }

  /** When a failed refresh goes again, or why it does not. */
  #retryAfter(
    error: unknown,
    failures: number,
  ): { at: number; failures: number } | 'never' | 'gave up' {
    const now = this.#o.now();
    const limitedUntil = slackRetryAt(error, now);
    if (limitedUntil !== undefined) {
      // Slack's own word on when, and not a failure of the card: every card waits, as the
      // limit is the workspace's.
      this.#blockedUntil = Math.max(this.#blockedUntil, limitedUntil, now + 1_000);
      return { at: this.#blockedUntil, failures };
    }
    // The card or its conversation is gone, or Slack will never take this update.
    if (!isTransient(error)) return 'never';
    if (failures + 1 >= this.#o.maxFailures) return 'gave up';
    const waitMs = backoffMs(failures, {
      baseMs: this.#o.retryBaseMs,
      maxMs: this.#o.retryMaxMs,
      jitter: 'none',
    });
    return { at: now + waitMs, failures: failures + 1 };
  }

  /** Finds the ticket's cards in the thread and updates those that show something else. */
  async #refresh(thread: Thread, ticket: Ticket): Promise<number> {
    let updated = 0;
    const cards = await this.#findCards(thread, ticket.id);
    const assignee = cards.length > 0 ? await shownAssignee(this.#byEmail, ticket) : undefined;
    for (const card of cards) {
      const shown = Date.parse(String(card.metadata?.event_payload?.ticket_updated_at ?? ''));
      // Another replica already showed a later state: an older read must not undo it.
      if (shown > Date.parse(ticket.updated_at ?? '')) continue;
      const triage = isTriageCard(card.blocks ?? []);
      const lead = cardLead(card.blocks ?? []);
      const message = triage
        ? await this.#triageCard(ticket, card, assignee)
        : buildTicketCard(ticket, {
            dashboardUrl: this.#dashboardUrl,
            assignee,
            ...(lead ? { lead } : {}),
            // As the card was posted: in a channel everyone may act, each click checked; in a
            // DM only its person, whose buttons the card already carries.
            audience: isDirectMessage(thread.channel)
              ? audienceShownBy(card.blocks ?? [])
              : 'everyone',
          });
      if (holds(card.blocks, message.blocks)) continue;
      const updatedAt = ticket.updated_at;
      await this.#client.chat.update({
        channel: thread.channel,
        ts: card.ts as string,
        ...message,
        // Without metadata Slack keeps the card's own, which names the ticket all the same.
        ...(updatedAt
          ? {
              metadata: triage
                ? triageCardMetadata(ticket.id, updatedAt)
                : cardMetadata(ticket, updatedAt),
            }
          : {}),
      });
      updated += 1;
    }
    return updated;
  }

  /** A triage card rebuilt, keeping who filed it and where, which the ticket does not say. */
  async #triageCard(
    ticket: Ticket,
    card: ThreadMessage,
    assignee: ShownPerson | undefined,
  ): Promise<SlackMessage> {
    const extras = triageCardExtras(card.blocks ?? []);
    return buildTriageCard(ticket, {
      dashboardUrl: this.#dashboardUrl,
      assignee,
      deskFields: await this.#deskFields?.(ticket.desk_id),
      ...(extras.requesterUserId ? { requester: { userId: extras.requesterUserId } } : {}),
      ...(extras.permalink ? { slackPermalink: extras.permalink } : {}),
      clocks: this.#serviceClocks?.(),
    });
  }

  async #findCards(thread: Thread, ticketId: string): Promise<ThreadMessage[]> {
    let cards: ThreadMessage[] = [];
    await readThread(this.#client, thread, (messages) => {
      cards = messages.filter((message) => {
        const post = postMetadata(message);
        // The mirror's own posts name a platform item too; the card names only the ticket.
        if (message.ts && triageCardTicketOf(message) === ticketId) {
          return isTriageCard(message.blocks ?? []);
        }
        return (
          message.ts &&
          post?.ticketId === ticketId &&
          post.itemId === undefined &&
          isCard(message.blocks ?? [])
        );
      });
      return cards.length > 0;
    });
    return cards;
  }
}

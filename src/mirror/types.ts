/**
 * What the mirror needs from the world, as interfaces: the platform calls it makes and the
 * Slack side that posts for it. The Slack side implements `MirrorPoster`; the mirror never
 * imports it.
 */
import type {
  Activity,
  CallOptions,
  Envelope,
  ListTicketsQuery,
  Message,
  ServiceClock,
  ServiceDeskClient,
  Ticket,
} from '../servicedesk/index.ts';
import type { Thread } from '../store/types.ts';

/** The platform calls the mirror makes, all at background priority. */
export type MirrorPlatform = Pick<ServiceDeskClient, 'listActivity' | 'listMessages' | 'getTicket'>;

/**
 * A List tickets query as the change feed sends it: the contract's, and the optional
 * capability `updated_after` (ISO 8601), which a platform without it ignores.
 */
export type FeedListQuery = ListTicketsQuery & { updated_after?: string };

/** The platform calls the change feed makes, all at background priority; the client has both. */
export interface ChangeFeedPlatform {
  /** One page of tickets. */
  listTickets(query?: FeedListQuery, opts?: CallOptions): Promise<Envelope<Ticket>>;
  /** One ticket: how the feed learns where a linked ticket sits in the list. */
  getTicket(id: string, opts?: CallOptions): Promise<Ticket>;
}

/** How a post went: in the thread, or the thread (or person) can no longer take posts. */
export type PostOutcome = 'posted' | 'gone';

/** A status, priority or assignee change, as one line in the thread. */
export interface TicketChange {
  ticketId: string;
  /** The activity entry it comes from (its id names the post). */
  activity: Activity;
  /** Made from Slack by the app for its actor (the line says so). */
  fromSlack?: boolean;
}

/** The requester is told their ticket was resolved or closed. */
export interface RequesterNotice {
  ticketId: string;
  /** The activity entry of the status change. */
  activityId: string;
  status: 'resolved' | 'closed';
  requesterEmail: string;
  ticket: Pick<Ticket, 'id' | 'title'> | undefined;
}

/**
 * The Slack side of the mirror: every post carries metadata `{ticket_id, message_id}`. A post
 * Slack asks to wait for throws `PostDeferredError`; the ticket is looked at again then.
 */
export interface MirrorPoster {
  /**
   * How many posts a message takes (one when absent): a message longer than one Slack message
   * carries goes out as numbered parts, each claimed, posted and found again on its own, so a
   * crash or a 429 between parts neither repeats nor loses one.
   */
  messageParts?(ticketId: string, message: Message): number;
  /** Posts a public ticket message, or its part `part` (0-based) of `messageParts`, into a thread. */
  postMessage(
    thread: Thread,
    ticketId: string,
    message: Message,
    part?: number,
  ): Promise<PostOutcome>;
  /** Posts a one-line change into a thread. */
  postChange(thread: Thread, change: TicketChange): Promise<PostOutcome>;
  /** Tells the requester, directly, that their ticket was resolved or closed. */
  notifyRequester(notice: RequesterNotice): Promise<PostOutcome>;
  /**
   * Whether the thread already holds the post of `itemId` (message or activity id): asked only
   * when an earlier poller's claim on the post lapsed unfinished, so a crash between posting
   * and recording never posts twice. `part` names one part of a message posted in parts.
   */
  findPosted(thread: Thread, ticketId: string, itemId: string, part?: number): Promise<boolean>;
  /**
   * Brings the app's card of the ticket in a thread up to date with the ticket as the platform
   * has it now. Resolves once the update is in hand: Slack's limits and retries are the
   * poster's, so a slow or refusing Slack never holds the mirror's posts back.
   */
  refreshCard(thread: Thread, ticket: Ticket): Promise<void>;
  /**
   * Told once per look that read the ticket, before its cards are refreshed: what the Slack
   * side keeps of the ticket as a whole (not per thread) follows it here.
   */
  ticketRead?(ticket: Ticket): Promise<void>;
  /**
   * Posts the triage card of a new ticket into a triage channel, with metadata
   * `{ticket_id, triage: true}`; answers the card's ts (its thread), or `gone` when the app may
   * not post there (removed from the channel, the channel archived or deleted). `filedFrom` is
   * the requester's thread of a ticket filed from Slack, which the card links to.
   */
  postTriageCard?(
    channel: string,
    ticket: Ticket,
    filedFrom?: Thread,
  ): Promise<{ ts: string } | 'gone'>;
  /**
   * The ts of the ticket's triage card in the channel, found by its metadata: asked before a
   * card whose earlier claim lapsed unfinished is posted again.
   */
  findTriageCard?(channel: string, ticket: Ticket): Promise<string | undefined>;
  /**
   * Turns the ticket's card in `from` (the catch-all) into a one-line pointer to its card in
   * `to` (its desk's channel), once the ticket is on a desk: one card, in one place. Repeating
   * it changes nothing; a card Slack no longer has is left alone.
   */
  pointTriageCard?(from: Thread, to: Thread, ticketId: string): Promise<void>;
  /**
   * Posts one line into the ticket's triage thread saying a clock reached its warning point
   * or its due time, with metadata `{ticket_id, message_id: warning.itemId}` (found again by
   * `findPosted`). Without it the clock watch posts nothing.
   */
  postClockWarning?(thread: Thread, warning: ClockWarning): Promise<PostOutcome>;
  /**
   * Posts a breach at the top level of the triage thread's channel, naming the ticket (a link
   * to its card) and its assignee, and the desk's on-call group when one is set.
   */
  postBreachNotice?(thread: Thread, warning: ClockWarning): Promise<PostOutcome>;
  /**
   * Whether the channel already holds the breach notice (found by its metadata): asked only
   * when an earlier claim on it lapsed unfinished.
   */
  findBreachNotice?(thread: Thread, warning: ClockWarning): Promise<boolean>;
}

/**
 * A service-level clock of a ticket reaching its warning point (`warning`) or its due time
 * (`breach`), as the clock watch found it at `nowMs` from the ticket the mirror keeps. The
 * ticket carries `first_responded_at` as the mirror saw it when the platform gives none.
 */
export interface ClockWarning {
  ticket: Ticket;
  clock: ServiceClock;
  level: 'warning' | 'breach';
  nowMs: number;
  /** What the post's metadata names as its item, so it is found again after a crash. */
  itemId: string;
}

/** What the mirror reports after each post (latency metrics, the benchmark). */
export interface PostedItem {
  ticketId: string;
  itemId: string;
  kind: 'message' | 'change' | 'notice';
  /** When the item happened on the platform, ms. */
  createdAt: number;
  postedAt: number;
}

/** A pino-compatible logger. */
export interface MirrorLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

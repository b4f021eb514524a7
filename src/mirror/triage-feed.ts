/**
 * The triage feed: a card in the desk's triage channel for every new ticket, whatever its
 * origin, exactly once, and the card's thread linked as the ticket's triage thread so the
 * mirror worker brings the ticket's conversation (internal notes included) into it with the
 * same reads that serve the requester's threads.
 *
 * New tickets are found without a request of their own where the platform allows: a
 * `ticket.created` webhook (`created`, one read of the ticket), or the change feed's
 * `updated_after` listing (`listed`: a new ticket is an update). Without either (or under
 * webhooks alone, as the net under lost deliveries) one replica lists the new tickets by
 * `created_after` once a period, paced by the shared budget: one request whatever the number of
 * triage desks (filtered by `desk_id` when only one desk is triaged).
 *
 * Exactly once: each card is claimed in the mirror store like any mirror post; a card whose
 * claim lapsed unfinished is looked for in the channel (by its metadata) before it is posted
 * again. A channel the app may no longer post in is reported once and left alone for a while,
 * never retried in a loop. Only tickets created after a channel became a desk's triage channel
 * (as this feed first saw it) get a card.
 */
import { type Sleep, sleep } from '../clock.ts';
import type { Desk, ServiceDeskClient, Ticket } from '../servicedesk/index.ts';
import { deskTriageEntry } from '../store/triage-rules.ts';
import {
  type ClaimStore,
  type Stores,
  type Thread,
  TRIAGE_CATCH_ALL,
  type TriageChannel,
} from '../store/types.ts';
import type { BudgetPacer } from './budget-pacer.ts';
import { withFirstResponse } from './clock-watch.ts';
import { BudgetDeferredError, PostDeferredError } from './errors.ts';
import { timeOf } from './iso-time.ts';
import { type LookRules, lookRules, nextLook } from './look-policy.ts';
import { MIRROR_TUNING, tuningOf } from './mirror-tuning.ts';
import { triageMessageIdMark } from './own-marks.ts';
import { RELAXED_PACE } from './poll-planner.ts';
import type { ChangeFeedPlatform, MirrorLogger, MirrorPlatform, MirrorPoster } from './types.ts';
import { WorkLoop } from './work-loop.ts';

/** What the triage feed needs. */
export interface TriageFeedOptions {
  platform: Pick<ChangeFeedPlatform, 'listTickets' | 'getTicket'> &
    Pick<MirrorPlatform, 'listMessages'> &
    // The desks' parents (a subdesk's ticket goes to its parent's channel); without it, none.
    Partial<Pick<ServiceDeskClient, 'listDesks'>>;
  stores: Pick<Stores, 'triageChannels' | 'links' | 'mirror' | 'schedule' | 'claims'>;
  logger: MirrorLogger;
  /** Lets the scans go only while routine work may (default: always). */
  pacer?: BudgetPacer | undefined;
  /** Whether the change feed lists every changed ticket now (by `updated_after`): no scan. */
  listedByFeed?: () => boolean | Promise<boolean>;
  /** Whether the platform's webhooks announce new tickets: the scan is then only their net. */
  pushed?: boolean;
  /** The look policy's rules, by which a carded ticket's first look is set (default: adaptive). */
  rules?: LookRules;
  /** Period of the `created_after` scan without webhooks (default 3 min). */
  scanPeriodMs?: number;
  /** Period of the scan as the net under webhooks (default 5 min). */
  netPeriodMs?: number;
  /** Step of the loop that posts the cards waiting (default 1 s). */
  tickMs?: number;
  /** How long a claim on one card lasts (default 30 s). */
  leaseMs?: number;
  /** How long a channel the app may not post in is left alone (default 10 min). */
  goneMs?: number;
  /** How often the triage channels are read again (default 2 s). */
  channelsMs?: number;
  /** Failed attempts at one card before it is left to the next scan (default 6). */
  maxAttempts?: number;
  /** Told of each card posted (latency metrics, the benchmark). */
  onCard?: (card: TriageCardPosted) => void;
  /** Given each ticket whose card was just posted (the clock watch keeps it and watches it). */
  onCardTicket?: (ticket: Ticket) => Promise<void>;
  /** Told of a triage channel the app may no longer post in (metrics). */
  onChannelGone?: (channel: string) => void;
  now?: () => number;
  /** Waits; must settle (resolve or reject) when the signal aborts. */
  sleep?: Sleep;
  random?: () => number;
}

/** One triage card posted. */
export interface TriageCardPosted {
  ticketId: string;
  channel: string;
  /** When the ticket was created on the platform, ms. */
  createdAt: number;
  postedAt: number;
}

interface Waiting {
  ticketId: string;
  ticket: Ticket | undefined;
  dueAt: number;
  attempts: number;
  /** The card's thread, once posted, while the messages read before it are posted there. */
  backfill?: Thread;
  /** How the card went once posted, kept while its backfill is retried (a provisional card still moves). */
  posted?: CardOutcome;
  /** A hook said the ticket changed while it waited: it is read and weighed again (its desk may be new). */
  changed?: boolean;
}

/**
 * How weighing a card went: made (or never to be), another replica's, its channel's to wait,
 * no channel yet, or made in the catch-all (a desk set later moves it).
 */
type CardOutcome = 'settled' | 'busy' | 'left' | 'unrouted' | 'provisional';

interface Route {
  channel: string;
  since: number;
  /** Whether the channel is the catch-all's (no channel for the desk, its parents' neither). */
  catchAll: boolean;
}

const SINCE_TTL_MS = 10 * 365 * 86_400_000;
const PAGE = 100;
const MAX_PAGES = 3;
const DONE_KEPT = 5_000;
// How long a new ticket with no triage channel yet waits for the hook that gives it a desk.
const UNROUTED_KEPT_MS = MIRROR_TUNING.triage.unroutedKeptMs.value;
// How long the platform's desks (their parents) are kept: desks change rarely.
const DESKS_KEPT_MS = MIRROR_TUNING.triage.desksKeptMs.value;
const BACKGROUND = { priority: 'background' } as const;

/** The post key of a ticket's card in a channel, in the ticket's post claims. */
export function triageCardKey(channel: string): string {
  return JSON.stringify(['triage-card', channel]);
}

/** Posts one triage card per new ticket; see the file comment. */
export class TriageFeed {
  readonly #platform: TriageFeedOptions['platform'];
  readonly #stores: TriageFeedOptions['stores'];
  readonly #logger: MirrorLogger;
  readonly #pacer: BudgetPacer | undefined;
  readonly #listedByFeed: () => boolean | Promise<boolean>;
  readonly #pushed: boolean;
  readonly #o: Required<
    Pick<
      TriageFeedOptions,
      | 'scanPeriodMs'
      | 'netPeriodMs'
      | 'tickMs'
      | 'leaseMs'
      | 'goneMs'
      | 'channelsMs'
      | 'maxAttempts'
      | 'now'
      | 'sleep'
      | 'random'
    >
  >;
  readonly #onCard: TriageFeedOptions['onCard'];
  readonly #onCardTicket: TriageFeedOptions['onCardTicket'];
  readonly #onChannelGone: TriageFeedOptions['onChannelGone'];
  #poster: MirrorPoster | undefined;
  readonly #waiting = new Map<string, Waiting>();
  // Tickets whose card is known made (or never to be made), so a listing costs no store reads.
  readonly #settled = new Set<string>();
  // New tickets that had no triage channel, until when a hook of theirs is worth a read.
  readonly #unrouted = new Map<string, number>();
  // Changed tickets this replica knows nothing of: one whose card is in the catch-all moves.
  readonly #touched = new Map<string, Ticket | undefined>();
  #desks: { at: number; parents: Map<string, string> } | undefined;
  readonly #goneUntil = new Map<string, number>();
  readonly #since = new Map<string, number>();
  #channels: { at: number; list: TriageChannel[] } | undefined;
  #scannedAt = Number.NEGATIVE_INFINITY;
  readonly #loop: WorkLoop;
  readonly #rules: LookRules;
  readonly #tuning = tuningOf('triage');

  constructor(options: TriageFeedOptions) {
    this.#platform = options.platform;
    this.#stores = options.stores;
    this.#logger = options.logger;
    this.#pacer = options.pacer;
    this.#listedByFeed = options.listedByFeed ?? (() => false);
    this.#pushed = options.pushed ?? false;
    this.#onCard = options.onCard;
    this.#onCardTicket = options.onCardTicket;
    this.#onChannelGone = options.onChannelGone;
    this.#rules = options.rules ?? lookRules();
    const t = tuningOf('triage');
    this.#o = {
      scanPeriodMs: options.scanPeriodMs ?? t.scanPeriodMs,
      netPeriodMs: options.netPeriodMs ?? t.netPeriodMs,
      tickMs: options.tickMs ?? t.tickMs,
      leaseMs: options.leaseMs ?? t.leaseMs,
      goneMs: options.goneMs ?? t.goneMs,
      channelsMs: options.channelsMs ?? t.channelsMs,
      maxAttempts: options.maxAttempts ?? t.maxAttempts,
      now: options.now ?? Date.now,
      sleep: options.sleep ?? sleep,
      random: options.random ?? Math.random,
    };
    this.#loop = new WorkLoop(async () => {
      await this.runOnce();
      return this.#o.tickMs;
    }, this.#o);
  }

  /** Gives the feed the Slack side's poster; without one (or its triage calls) it posts nothing. */
  attach(poster: MirrorPoster): void {
    this.#poster = poster;
  }

  /** A `ticket.created` webhook: the ticket is read and carded soon. */
  created(ticketId: string): void {
    if (this.#settled.has(ticketId) || this.#waiting.has(ticketId)) return;
    this.#waiting.set(ticketId, {
      ticketId,
      ticket: undefined,
      dueAt: this.#o.now(),
      attempts: 0,
    });
    this.#loop.wake();
  }

  /**
   * A `ticket.updated` hook: a new ticket that had no triage channel (no desk yet: the AI agent
   * routes a direct message's ticket just after it is filed) is read again, as its desk may
   * have one now. Any other ticket costs nothing.
   */
  updated(ticketId: string): void {
    const waiting = this.#waiting.get(ticketId);
    if (waiting) {
      // The ticket read before the hook may be stale (no desk yet): a move must not be lost.
      waiting.ticket = undefined;
      waiting.changed = true;
      return;
    }
    const until = this.#unrouted.get(ticketId);
    if (until === undefined || until <= this.#o.now()) {
      this.#unrouted.delete(ticketId);
      // Its card may be in the catch-all (posted by another replica, or long ago): the store
      // says, without a platform request.
      if (this.#settled.has(ticketId) || this.#waiting.has(ticketId)) return;
      this.#touch(ticketId, undefined);
      return;
    }
    this.#unrouted.delete(ticketId);
    this.created(ticketId);
  }

  #keepUnrouted(ticketId: string): void {
    this.#unrouted.delete(ticketId);
    this.#unrouted.set(ticketId, this.#o.now() + UNROUTED_KEPT_MS);
    if (this.#unrouted.size > DONE_KEPT) {
      const oldest = this.#unrouted.keys().next().value;
      if (oldest !== undefined) this.#unrouted.delete(oldest);
    }
  }

  /** Tickets a listing returned (the change feed's): the new ones are carded soon, no read. */
  listed(tickets: readonly Ticket[]): void {
    const oldest = this.#o.now() - this.#windowMs();
    let added = false;
    for (const ticket of tickets) {
      if (this.#settled.has(ticket.id)) continue;
      const createdAt = timeOf(ticket.created_at);
      if (createdAt === undefined || createdAt < oldest) {
        // Too old for a new card, but one in the catch-all moves once its ticket is on a desk.
        if (this.#catchAllApart()) this.#touch(ticket.id, ticket);
        continue;
      }
      const waiting = this.#waiting.get(ticket.id);
      if (waiting) {
        waiting.ticket ??= ticket;
        continue;
      }
      this.#waiting.set(ticket.id, {
        ticketId: ticket.id,
        ticket,
        dueAt: this.#o.now(),
        attempts: 0,
      });
      added = true;
    }
    if (added) this.#loop.wake();
  }

  /** Starts posting and scanning until `stop()`. */
  /**
   * The triage channels were changed by this process: they are read afresh at the next card,
   * not after `channelsMs` (another replica's change is seen within that).
   */
  channelsChanged(): void {
    this.#channels = undefined;
  }

  start(): void {
    this.#loop.start();
  }

  /** Stops after the card under way; what waits is found again by the next scan or listing. */
  stop(): Promise<void> {
    return this.#loop.stop();
  }

  /** One step: the scan when it is due, then every card due; never throws. */
  async runOnce(): Promise<void> {
    try {
      await this.#channelList();
      await this.#scanIfDue();
      await this.#lookAtTouched();
    } catch (error) {
      this.#logger.warn({ err: error }, 'triage scan failed; will scan again');
    }
    const now = this.#o.now();
    for (const waiting of [...this.#waiting.values()]) {
      if (waiting.dueAt > now) continue;
      await this.#attempt(waiting);
    }
  }

  async #attempt(waiting: Waiting): Promise<void> {
    const { ticketId } = waiting;
    try {
      // A card posted whose thread is still to catch up goes on with that alone.
      let outcome: CardOutcome = waiting.posted ?? 'settled';
      if (!waiting.backfill) {
        waiting.changed = false;
        waiting.ticket ??= await this.#platform.getTicket(ticketId, BACKGROUND);
        outcome = await this.#card(waiting.ticket, waiting);
      }
      if (waiting.backfill) await this.#backfill(ticketId, waiting.backfill);
      this.#logger.debug({ ticket_id: ticketId, outcome }, 'triage card weighed');
      if (outcome === 'busy') {
        waiting.dueAt = this.#o.now() + this.#o.leaseMs;
        return;
      }
      if (outcome === 'provisional' && waiting.changed) {
        // Changed while its card was made or caught up: weighed again, it may move now.
        waiting.backfill = undefined;
        waiting.posted = undefined;
        waiting.changed = false;
        waiting.dueAt = this.#o.now();
        return;
      }
      this.#waiting.delete(ticketId);
      if (outcome === 'settled') this.#settle(ticketId);
      if (outcome === 'unrouted' || outcome === 'provisional') this.#keepUnrouted(ticketId);
    } catch (error) {
      const now = this.#o.now();
      if (error instanceof BudgetDeferredError || error instanceof PostDeferredError) {
        waiting.dueAt = Math.max(error.retryAt, now) + Math.round(this.#o.random() * 1_000);
        return;
      }
      waiting.attempts += 1;
      if (waiting.attempts >= this.#o.maxAttempts) {
        this.#waiting.delete(ticketId);
        this.#logger.warn({ err: error, ticket_id: ticketId }, 'triage card given up for now');
        return;
      }
      const { retryBaseMs, retryMaxMs } = this.#tuning;
      waiting.dueAt = now + Math.min(retryMaxMs, retryBaseMs * 2 ** (waiting.attempts - 1));
      this.#logger.warn(
        { err: error, ticket_id: ticketId, attempt: waiting.attempts },
        'triage card failed; will retry',
      );
    }
  }

  /**
   * Posts the ticket's card once: `settled` when it is there (or the ticket takes none),
   * `busy` while another replica posts it, `left` when its channel cannot take it now.
   */
  async #card(ticket: Ticket, waiting: Waiting): Promise<CardOutcome> {
    const poster = this.#poster;
    if (!poster?.postTriageCard) return 'left';
    const route = await this.#routeOf(ticket);
    const createdAt = timeOf(ticket.created_at) ?? 0;
    // No channel yet (no desk, or none triaged): a desk set later, or a channel, may give one.
    if (!route) return 'unrouted';
    const { channel } = route;
    const threads = await this.#stores.links.threadsForTicket(ticket.id);
    const triage = threads.filter((thread) => thread.triage);
    // A card in the catch-all whose ticket is now on a desk with a channel moves there: the
    // desk's card is posted, and the catch-all's turns into a pointer to it (one card).
    const catchAll = (await this.#channelList()).find((one) => one.desk === TRIAGE_CATCH_ALL);
    const stale = route.catchAll
      ? undefined
      : triage.find((thread) => thread.channel !== channel && thread.channel === catchAll?.channel);
    if (triage.length > 0 && !stale) {
      return route.catchAll && triage.some((one) => one.channel === channel)
        ? 'provisional'
        : 'settled';
    }
    if (!stale && createdAt < route.since) return 'settled';
    if ((this.#goneUntil.get(channel) ?? 0) > this.#o.now()) return 'left';
    const { mirror } = this.#stores;
    const key = triageCardKey(channel);
    const claim = await mirror.claimPost(ticket.id, key, this.#o.leaseMs);
    if (claim.state === 'done') return 'settled';
    if (claim.state === 'busy') return 'busy';
    // Linked already: an earlier move posted the desk's card and failed before the pointer.
    let ts = triage.find((thread) => thread.channel === channel)?.threadTs;
    try {
      if (ts === undefined && claim.retaken) ts = await poster.findTriageCard?.(channel, ticket);
      if (ts === undefined) {
        const filedFrom = threads.find((thread) => !thread.triage);
        // An answer the mirror already read (a ticket filed from Slack) stops its clock here too.
        const answeredAt = (await mirror.state(ticket.id))?.firstResponseAt;
        const shown = withFirstResponse(ticket, answeredAt);
        const posted = await poster.postTriageCard(channel, shown, filedFrom);
        if (posted === 'gone') {
          await mirror.releasePost(ticket.id, key, claim.token);
          this.#channelGone(channel);
          return 'left';
        }
        ts = posted.ts;
      }
      await this.#stores.links.link(ticket.id, { channel, threadTs: ts, triage: true });
      if (stale) {
        await poster.pointTriageCard?.(stale, { channel, threadTs: ts, triage: true }, ticket.id);
        // The catch-all's thread no longer follows the ticket: its conversation goes on here.
        await this.#stores.links.unlink(ticket.id, stale);
        this.#logger.info(
          { ticket_id: ticket.id, from: stale.channel, to: channel },
          'triage card moved to its desk’s channel',
        );
      }
    } catch (error) {
      await mirror.releasePost(ticket.id, key, claim.token).catch(() => undefined);
      throw error;
    }
    await mirror.completePost(ticket.id, key, claim.token);
    await this.#onCardTicket?.(ticket).catch((error: unknown) =>
      this.#logger.warn({ err: error, ticket_id: ticket.id }, 'card’s clocks not watched'),
    );
    // The worker brings the conversation in from here on: the ticket is due now, as after a
    // hint; what it already posted into the requester's threads is brought in here.
    const state = await mirror.state(ticket.id);
    const event = { type: 'linked' } as const;
    const look = nextLook({
      event,
      state,
      pace: RELAXED_PACE,
      now: this.#o.now(),
      rules: this.#rules,
    });
    if (look.do === 'look') await this.#stores.schedule.pollAt(ticket.id, look.at);
    waiting.backfill = { channel, threadTs: ts, triage: true };
    waiting.posted = route.catchAll ? 'provisional' : 'settled';
    this.#onCard?.({ ticketId: ticket.id, channel, createdAt, postedAt: this.#o.now() });
    return route.catchAll ? 'provisional' : 'settled';
  }

  /**
   * The changed tickets this replica knew nothing of: those with a card in the catch-all are
   * read again (their desk may have a channel now). One store read each, no platform request.
   */
  async #lookAtTouched(): Promise<void> {
    if (this.#touched.size === 0) return;
    const touched = [...this.#touched];
    this.#touched.clear();
    await this.#channelList();
    const catchAll = this.#catchAllApart();
    if (!catchAll) return;
    for (const [ticketId, ticket] of touched) {
      if (this.#settled.has(ticketId) || this.#waiting.has(ticketId)) continue;
      const threads = await this.#stores.links.threadsForTicket(ticketId);
      if (!threads.some((thread) => thread.triage && thread.channel === catchAll)) continue;
      // A listing's ticket is weighed as listed; a hook's is read.
      this.#waiting.set(ticketId, { ticketId, ticket, dueAt: this.#o.now(), attempts: 0 });
    }
  }

  #touch(ticketId: string, ticket: Ticket | undefined): void {
    if (this.#touched.size >= DONE_KEPT && !this.#touched.has(ticketId)) return;
    this.#touched.set(ticketId, ticket);
    this.#loop.wake();
  }

  /** The catch-all's channel when some desk's channel is another one (a card may move). */
  #catchAllApart(): string | undefined {
    const list = this.#channels?.list ?? [];
    const catchAll = list.find((one) => one.desk === TRIAGE_CATCH_ALL)?.channel;
    return catchAll && list.some((one) => one.channel !== catchAll) ? catchAll : undefined;
  }

  /**
   * Posts into a new triage thread the messages the mirror read before it was linked (a
   * ticket filed from Slack whose first answers were mirrored before its card), claimed as the
   * worker claims them, so neither posts one twice. One page of messages in all, usually.
   */
  async #backfill(ticketId: string, thread: Thread): Promise<void> {
    const poster = this.#poster;
    const { mirror } = this.#stores;
    const upTo = (await mirror.state(ticketId))?.messageCursor ?? 0;
    if (!poster || upTo === 0) return;
    for (let page = 1; (page - 1) * PAGE < upTo && page <= MAX_PAGES; page++) {
      const { items } = await this.#platform.listMessages(
        ticketId,
        { page, page_size: PAGE },
        BACKGROUND,
      );
      const before = items.slice(0, Math.max(0, upTo - (page - 1) * PAGE));
      for (const message of before) {
        if (await mirror.isOwn(ticketId, [triageMessageIdMark(message.id)])) continue;
        const count = poster.messageParts?.(ticketId, message) ?? 1;
        for (let index = 0; index < count; index++) {
          const part = count > 1 ? index : undefined;
          // The worker's post key: a message is claimed once per thread (and part).
          const where = [message.id, thread.channel, thread.threadTs];
          const key = JSON.stringify(part === undefined ? where : [...where, part]);
          const claim = await mirror.claimPost(ticketId, key, this.#o.leaseMs);
          if (claim.state !== 'claimed') continue;
          try {
            if (!(claim.retaken && (await poster.findPosted(thread, ticketId, message.id, part)))) {
              await poster.postMessage(thread, ticketId, message, part);
            }
          } catch (error) {
            await mirror.releasePost(ticketId, key, claim.token).catch(() => undefined);
            throw error;
          }
          await mirror.completePost(ticketId, key, claim.token);
        }
      }
      if (items.length < PAGE) break;
    }
  }

  #channelGone(channel: string): void {
    const known = (this.#goneUntil.get(channel) ?? 0) > this.#o.now();
    this.#goneUntil.set(channel, this.#o.now() + this.#o.goneMs);
    if (known) return;
    this.#logger.warn(
      { channel, retry_in_ms: this.#o.goneMs },
      'triage channel takes no posts (the app was removed, it was archived, or it is not private); its cards wait',
    );
    this.#onChannelGone?.(channel);
  }

  #settle(ticketId: string): void {
    this.#settled.add(ticketId);
    if (this.#settled.size > DONE_KEPT) {
      const oldest = this.#settled.values().next().value;
      if (oldest !== undefined) this.#settled.delete(oldest);
    }
  }

  /**
   * The ticket's triage channel (its desk's, else its nearest parent desk's, else the
   * catch-all's) and since when it is.
   */
  async #routeOf(ticket: Ticket): Promise<Route | undefined> {
    const list = await this.#channelList();
    const entry = await this.#deskEntry(list, ticket.desk_id);
    if (entry)
      return { channel: entry.channel, since: await this.#sinceOf(entry), catchAll: false };
    const catchAll = list.find((one) => one.desk === TRIAGE_CATCH_ALL);
    if (!catchAll) return undefined;
    return { channel: catchAll.channel, since: await this.#sinceOf(catchAll), catchAll: true };
  }

  /** The triage channel of the desk or of its nearest parent that has one. */
  async #deskEntry(
    list: readonly TriageChannel[],
    desk: string | null | undefined,
  ): Promise<TriageChannel | undefined> {
    const own = deskTriageEntry(list, desk);
    // The parents are read only when some other desk has a channel that could be one.
    if (own || !desk || !list.some((one) => one.desk !== TRIAGE_CATCH_ALL)) return own;
    return deskTriageEntry(list, desk, await this.#parents());
  }

  /** Each subdesk's parent, from the platform's desks (one background read per period). */
  async #parents(): Promise<Map<string, string>> {
    const now = this.#o.now();
    if (this.#desks && now - this.#desks.at < DESKS_KEPT_MS) return this.#desks.parents;
    const listDesks = this.#platform.listDesks?.bind(this.#platform);
    if (!listDesks) return new Map();
    const { items } = await listDesks(BACKGROUND);
    this.#desks = { at: now, parents: parentsOf(items) };
    return this.#desks.parents;
  }

  async #channelList(): Promise<TriageChannel[]> {
    const now = this.#o.now();
    if (!this.#channels || now - this.#channels.at >= this.#o.channelsMs) {
      const list = await this.#stores.triageChannels.all();
      // Each channel's start is kept the first time it is seen, before any ticket is weighed.
      for (const entry of list) await this.#sinceOf(entry);
      this.#channels = { at: now, list };
    }
    return this.#channels.list;
  }

  /**
   * When the desk's triage went to this channel, as first seen by any replica: kept in the
   * shared store, so the tickets before it get no card wherever the feed runs.
   */
  async #sinceOf(entry: TriageChannel): Promise<number> {
    const key = sinceKey(entry.desk, entry.channel);
    const cached = this.#since.get(key);
    if (cached !== undefined) return cached;
    const since = await triageSince(this.#stores.claims, entry.desk, entry.channel, this.#o.now());
    this.#since.set(key, since);
    return since;
  }

  #windowMs(): number {
    return 2 * Math.max(this.#o.scanPeriodMs, this.#pushed ? this.#o.netPeriodMs : 0) + 60_000;
  }

  /**
   * Lists the triage desks' new tickets once a period (one replica per period),
   * unless the change feed lists them already.
   */
  async #scanIfDue(): Promise<void> {
    if (!this.#poster?.postTriageCard) return;
    const period = this.#pushed ? this.#o.netPeriodMs : this.#o.scanPeriodMs;
    const now = this.#o.now();
    if (now - this.#scannedAt < period) return;
    if (await this.#listedByFeed()) {
      this.#scannedAt = now;
      return;
    }
    const list = await this.#channelList();
    if (list.length === 0) return;
    this.#scannedAt = now;
    // One listing serves every channel: of the one desk triaged, else of all desks (a catch-all
    // takes them all; several desks cost one request, not one each, the others' tickets
    // skipped here).
    const triaged = [...new Set(list.map((one) => one.desk))];
    const desks = triaged.length === 1 && triaged[0] !== TRIAGE_CATCH_ALL ? triaged : [undefined];
    const round = Math.floor(now / period);
    for (const desk of desks) {
      const lease = `triage-scan:${desk ?? TRIAGE_CATCH_ALL}:${round}`;
      const claim = await this.#stores.claims.claim(lease, period);
      if (claim.state !== 'claimed') continue;
      if (this.#pacer && !(await this.#pacer.admits('hinted'))) {
        // Another replica, or this one next period, scans when there is room.
        await this.#stores.claims.release(lease, claim.token);
        this.#scannedAt = now - period + 30_000;
        continue;
      }
      try {
        this.listed(await this.#list(desk, now - this.#windowMs()));
      } catch (error) {
        await this.#stores.claims.release(lease, claim.token).catch(() => undefined);
        throw error;
      }
    }
  }

  async #list(desk: string | undefined, fromMs: number): Promise<Ticket[]> {
    const tickets: Ticket[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const { items, total_count } = await this.#platform.listTickets(
        {
          ...(desk ? { desk_id: desk } : {}),
          created_after: new Date(fromMs).toISOString(),
          page,
          page_size: PAGE,
        },
        BACKGROUND,
      );
      tickets.push(...items);
      if (items.length < PAGE || (total_count !== null && page * PAGE >= total_count)) break;
    }
    return tickets;
  }
}

function parentsOf(desks: readonly Desk[]): Map<string, string> {
  const parents = new Map<string, string>();
  for (const desk of desks) if (desk.parent_slug) parents.set(desk.slug, desk.parent_slug);
  return parents;
}

const sinceKey = (desk: string, channel: string) =>
  `triage-since:${JSON.stringify([desk, channel])}`;

/**
 * When a desk's triage went to a channel, kept once in the shared store: the first to say wins
 * (the command that set it, at that moment; else the first feed to see it), so a ticket filed
 * just after the setting gets its card wherever and whenever the feed reads the channels.
 */
export async function triageSince(
  claims: Pick<ClaimStore, 'claim' | 'complete' | 'get'>,
  desk: string,
  channel: string,
  nowMs: number,
): Promise<number> {
  const key = sinceKey(desk, channel);
  const kept = sinceIn(await claims.get(key));
  if (kept !== undefined) return kept;
  const claim = await claims.claim(key, 60_000);
  if (claim.state === 'claimed') {
    await claims.complete(key, claim.token, { since: nowMs }, SINCE_TTL_MS);
    return nowMs;
  }
  return sinceIn(await claims.get(key)) ?? nowMs;
}

function sinceIn(record: { state: string; result?: unknown } | undefined): number | undefined {
  if (record?.state !== 'done') return undefined;
  const since = (record.result as { since?: unknown } | undefined)?.since;
  return typeof since === 'number' ? since : undefined;
}

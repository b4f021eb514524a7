/**
 * The mirror put together once, as the app runs it and as the mirror benchmark runs it on its
 * simulated clock: the planner, the pacer, the push hints, the change feed and (around the
 * Slack side's poster) the worker, on one set of stores and one clock. It is also the only
 * writer of the mirror's state: the Slack side reaches it through the `Mirror` interface.
 */
import type { Message, Ticket } from '../servicedesk/index.ts';
import type { Stores, Thread } from '../store/types.ts';
import { BudgetPacer } from './budget-pacer.ts';
import { ChangeFeed, type ChangeFeedMode, type ChangeFeedOptions } from './change-feed.ts';
import { readFeedRecord } from './change-feed-record.ts';
import { factsOf } from './change-feed-scan.ts';
import { ClockWatch, type ClockWatchOptions } from './clock-watch.ts';
import { PostBusyError, PostDeferredError } from './errors.ts';
import { timeOf } from './iso-time.ts';
import { type LookEvent, type LookRules, lookRules, nextLook } from './look-policy.ts';
import type { Mirror, MirroredTicket, SlackChange } from './mirror.ts';
import { MIRROR_TUNING } from './mirror-tuning.ts';
import { MirrorWorker, type MirrorWorkerOptions } from './mirror-worker.ts';
import {
  ownMarks,
  ownMessageIdMark,
  ownMessageTextMark,
  PERSON_ASKED_MARK,
  reopenAnnouncedMark,
  reopenToldInMark,
  slackChangeMark,
  triageMessageIdMark,
  type WrittenIn,
} from './own-marks.ts';
import { type PollPlanner, RELAXED_PACE } from './poll-planner.ts';
import { type RelinkPlatform, relinkThread } from './thread-relink.ts';
import { TicketHints } from './ticket-hints.ts';
import { TriageFeed, type TriageFeedOptions, triageSince } from './triage-feed.ts';
import type { ChangeFeedPlatform, MirrorLogger, MirrorPlatform, MirrorPoster } from './types.ts';

/** What the mirror is built from; the pace and the clock are the caller's. */
export interface MirrorComponentOptions {
  platform: MirrorPlatform &
    ChangeFeedPlatform &
    RelinkPlatform &
    Pick<TriageFeedOptions['platform'], 'listDesks'>;
  stores: Pick<Stores, 'claims' | 'links' | 'budget' | 'schedule' | 'mirror' | 'feed'> &
    Partial<Pick<Stores, 'triageChannels' | 'clockSchedule'>>;
  logger: MirrorLogger & { child?(bindings: object): MirrorLogger };
  /**
   * Whether a mirror runs for this app (default true). False (tests of the Slack side alone):
   * no worker, no feed, no pacer, and writes from Slack bring no look forward; their marks and
   * re-links are still kept, and the push hints still schedule.
   */
  runs?: boolean;
  /** When tickets are polled (default: the adaptive rule). */
  planner?: PollPlanner;
  /** Whether the pacer stretches the schedule to the shared budget (default true). */
  paced?: boolean;
  /** How the feed asks what changed; undefined or `off`: no feed. */
  feedMode?: ChangeFeedMode;
  /** The clock every part runs on (default: real time). */
  now?: () => number;
  sleep?: MirrorWorkerOptions['sleep'];
  random?: () => number;
  /** The worker's pace. */
  worker?: Omit<
    MirrorWorkerOptions,
    | 'platform'
    | 'stores'
    | 'poster'
    | 'logger'
    | 'planner'
    | 'rules'
    | 'pacer'
    | 'now'
    | 'sleep'
    | 'random'
  >;
  /**
   * The triage feed's pace and reports (it runs with the mirror wherever the stores hold
   * triage channels); `false`: no triage cards.
   */
  triage?:
    | Omit<
        TriageFeedOptions,
        'platform' | 'stores' | 'logger' | 'pacer' | 'listedByFeed' | 'now' | 'sleep' | 'random'
      >
    | false;
  /**
   * The service-level clock watch (warnings in triage threads): SLA_TARGETS, SLA_WARN_AT and
   * its pace; it runs with the mirror wherever the stores hold a clock schedule. Absent or
   * `false`: no warnings.
   */
  clocks?: Omit<ClockWatchOptions, 'stores' | 'logger' | 'now' | 'sleep'> | false;
  /** The feed's pace. */
  feed?: Omit<
    ChangeFeedOptions,
    | 'platform'
    | 'stores'
    | 'logger'
    | 'mode'
    | 'hints'
    | 'planner'
    | 'rules'
    | 'pacer'
    | 'now'
    | 'sleep'
    | 'random'
  >;
}

/** The mirror: its parts, their start and stop, and the `Mirror` interface to the Slack side. */
export class MirrorComponent implements Mirror {
  /** The rule the schedule follows. */
  readonly planner: PollPlanner;
  /** Slows the schedule when the budget is tight (none when not paced). */
  readonly pacer: BudgetPacer | undefined;
  /** The platform's push hints (the webhook route's) and the feed's. */
  readonly hints: TicketHints;
  /** The look policy's rules, one set for every part (worker, feed, hints, writes). */
  readonly rules: LookRules;
  /** The change feed, when a way is set and the mirror runs. */
  readonly feed: ChangeFeed | undefined;
  /** The triage cards of new tickets, when the mirror runs with triage channels. */
  readonly triage: TriageFeed | undefined;
  /** The warnings of service-level clocks in triage threads, when the mirror runs them. */
  readonly clocks: ClockWatch | undefined;
  readonly #options: MirrorComponentOptions;
  readonly #stores: MirrorComponentOptions['stores'];
  readonly #logger: MirrorLogger;
  readonly #now: () => number;
  readonly #runs: boolean;
  #worker: MirrorWorker | undefined;

  constructor(options: MirrorComponentOptions) {
    const { stores } = options;
    this.#options = options;
    this.#stores = stores;
    this.#runs = options.runs ?? true;
    this.#now = options.now ?? Date.now;
    const clock = {
      ...(options.now ? { now: options.now } : {}),
      ...(options.sleep ? { sleep: options.sleep } : {}),
      ...(options.random ? { random: options.random } : {}),
    };
    const child = (component: string) => options.logger.child?.({ component }) ?? options.logger;
    this.#logger = child('mirror');
    // One set of rules: the feed's trust, if set, is the worker's too.
    const trustMs = options.feed?.trustMs;
    this.rules = lookRules(options.planner, trustMs ? { trustMs } : {});
    this.planner = this.rules.planner;
    // One pacer for the mirror's looks and the feed's scans: both spend the background budget.
    this.pacer =
      this.#runs && options.paced !== false
        ? new BudgetPacer({
            budget: stores.budget,
            schedule: stores.schedule,
            feed: stores.feed,
            ...(options.now ? { now: options.now } : {}),
          })
        : undefined;
    this.hints = new TicketHints({
      stores,
      rules: this.rules,
      ...(options.now ? { now: options.now } : {}),
    });
    const clockSchedule = stores.clockSchedule;
    this.clocks =
      this.#runs && clockSchedule && options.clocks
        ? new ClockWatch({
            stores: { ...stores, clockSchedule },
            logger: child('clock-watch'),
            ...(options.now ? { now: options.now } : {}),
            ...(options.sleep ? { sleep: options.sleep } : {}),
            ...options.clocks,
          })
        : undefined;
    const clocks = this.clocks;
    const triageChannels = stores.triageChannels;
    this.triage =
      this.#runs && triageChannels && options.triage !== false
        ? new TriageFeed({
            platform: options.platform,
            stores: { ...stores, triageChannels },
            logger: child('triage'),
            ...(this.pacer ? { pacer: this.pacer } : {}),
            listedByFeed: () => this.#feedLists(),
            rules: this.rules,
            ...(clocks ? { onCardTicket: (ticket: Ticket) => clocks.cardPosted(ticket) } : {}),
            ...clock,
            ...options.triage,
          })
        : undefined;
    const mode = options.feedMode;
    this.feed =
      !this.#runs || mode === undefined || mode === 'off'
        ? undefined
        : new ChangeFeed({
            platform: options.platform,
            stores,
            logger: child('change-feed'),
            mode,
            hints: this.hints,
            rules: this.rules,
            ...(this.pacer ? { pacer: this.pacer } : {}),
            ...(this.triage || this.clocks
              ? {
                  onListed: (tickets) => {
                    this.triage?.listed(tickets);
                    this.clocks?.listed(tickets);
                  },
                }
              : {}),
            ...clock,
            ...options.feed,
          });
  }

  /**
   * Whether the change feed lists every changed ticket now (by `updated_after`), as this
   * replica's last scan went or, when another replica scans, as the shared record says of a
   * scan in the last ten minutes.
   */
  async #feedLists(): Promise<boolean> {
    if (!this.feed) return false;
    if (this.feed.way === 'filter') return true;
    const state = await this.#stores.feed.state();
    return (
      state !== undefined &&
      this.#now() - state.scannedAt < MIRROR_TUNING.feed.listedRecentMs.value &&
      readFeedRecord(state.data).way === 'filter'
    );
  }

  /** The worker, once `attach` built it. */
  get worker(): MirrorWorker | undefined {
    return this.#worker;
  }

  /**
   * Builds the worker around the Slack side's poster (the Slack app builds it, after the
   * mirror); a mirror that does not run builds none.
   */
  attach(poster: MirrorPoster): MirrorWorker | undefined {
    if (!this.#runs) return undefined;
    const options = this.#options;
    this.#worker = new MirrorWorker({
      platform: options.platform,
      stores: this.#stores,
      poster,
      logger: this.#logger,
      rules: this.rules,
      ...(this.pacer ? { pacer: this.pacer } : {}),
      ...(options.now ? { now: options.now } : {}),
      ...(options.sleep ? { sleep: options.sleep } : {}),
      ...(options.random ? { random: options.random } : {}),
      ...(this.clocks ? { onClockFacts: (id: string) => this.#clocksChanged(id) } : {}),
      ...options.worker,
    });
    this.triage?.attach(poster);
    this.clocks?.attach(poster);
    return this.#worker;
  }

  /** Starts the worker and the feed (a process that runs the mirror). */
  start(): void {
    this.#worker?.start();
    this.feed?.start();
    this.triage?.start();
    this.clocks?.start();
  }

  #clocksChanged(ticketId: string): Promise<void> {
    return this.clocks?.ticketChanged(ticketId) ?? Promise.resolve();
  }

  /** Stops both after the work under way; what is unfinished stays scheduled. */
  async stop(): Promise<void> {
    await Promise.all([
      this.#worker?.stop(),
      this.feed?.stop(),
      this.triage?.stop(),
      this.clocks?.stop(),
    ]);
  }

  async relinkThread(ticketId: string, thread: Thread): Promise<Ticket | undefined> {
    const ticket = await relinkThread(
      { platform: this.#options.platform, stores: this.#stores, now: this.#now, rules: this.rules },
      ticketId,
      thread,
    );
    if (ticket) this.#noteFacts(ticket);
    return ticket;
  }

  rememberOwnMessage(
    ticketId: string,
    authorEmail: string,
    body: string,
    writtenIn?: WrittenIn,
  ): Promise<void> {
    return this.#stores.mirror.rememberOwn(
      ticketId,
      ownMarks(ownMessageTextMark(authorEmail, body), writtenIn),
    );
  }

  rememberOwnMessageId(ticketId: string, messageId: string, writtenIn?: WrittenIn): Promise<void> {
    return this.#stores.mirror.rememberOwn(
      ticketId,
      ownMarks(ownMessageIdMark(messageId), writtenIn),
    );
  }

  rememberTriageMessageId(ticketId: string, messageId: string): Promise<void> {
    return this.#stores.mirror.rememberOwn(ticketId, [triageMessageIdMark(messageId)]);
  }

  ticketFiled(ticket: Ticket): void {
    this.triage?.listed([ticket]);
    this.#noteFacts(ticket);
  }

  /**
   * Keeps where a linked ticket lies in its desk's list (desk, creation), so a sweep finds it
   * on its page rather than learning it with a read. Best effort: the sweep learns what is
   * missing, so a failure is logged, not the filing's.
   */
  #noteFacts(ticket: Ticket): void {
    const updatedAt = timeOf(ticket.updated_at ?? ticket.created_at);
    const facts = updatedAt === undefined ? undefined : factsOf(ticket, updatedAt);
    if (!facts) return;
    this.#stores.feed
      .noteFacts(new Map([[ticket.id, facts]]))
      .catch((error: unknown) =>
        this.#logger.warn({ err: error, ticketId: ticket.id }, 'ticket facts not kept'),
      );
  }

  async messageWritten(ticketId: string, message: Message): Promise<void> {
    const worker = this.#worker;
    if (!worker) return;
    try {
      await worker.postWritten(ticketId, message);
    } catch (error) {
      // Another replica is posting it right now: its post is the one.
      if (error instanceof PostBusyError) return;
      this.#logger.warn(
        { err: error, ticket_id: ticketId, message_id: message.id },
        'message written from Slack not posted at once; the mirror posts it',
      );
      await this.#lookForMessages(ticketId, error).catch((failure: unknown) =>
        this.#logger.warn({ err: failure, ticket_id: ticketId }, 'mirror not told to look'),
      );
    }
  }

  /**
   * Has the mirror read the ticket's messages soon (when Slack allows it again), so a post
   * that failed at once is made by its look rather than waiting for the next routine one.
   */
  async #lookForMessages(ticketId: string, error: unknown): Promise<void> {
    const now = this.#now();
    await this.#stores.mirror.noteHint(ticketId, now, 'message');
    const retryAt = error instanceof PostDeferredError ? error.retryAt : undefined;
    await this.#lookAt(ticketId, { type: 'post-failed', ...(retryAt ? { retryAt } : {}) });
  }

  /** Asks the look policy when to look after `event`, and has the schedule look then. */
  async #lookAt(ticketId: string, event: LookEvent): Promise<void> {
    const state = await this.#stores.mirror.state(ticketId);
    const pace = this.pacer?.pace() ?? RELAXED_PACE;
    const look = nextLook({ event, state, pace, now: this.#now(), rules: this.rules });
    if (look.do !== 'look') return;
    await this.#stores.schedule.pollAt(ticketId, look.at);
    this.#worker?.wake(look.at);
  }

  async slackWrote(ticketId: string): Promise<void> {
    if (!this.#runs) return;
    try {
      const now = this.#now();
      await this.#stores.mirror.noteSlackWrite(ticketId, now);
      // A write from Slack counts as activity: its answer is looked for soon.
      await this.#lookAt(ticketId, { type: 'slack-write', atMs: now });
    } catch (error) {
      this.#logger.warn({ err: error, ticket_id: ticketId }, 'mirror not told about a write');
    }
  }

  async rememberSlackChanges(ticketId: string, changes: readonly SlackChange[]): Promise<void> {
    if (changes.length === 0) return;
    await this.#stores.mirror.rememberOwn(
      ticketId,
      changes.map((change) =>
        slackChangeMark(change.type, change.from, change.to, change.actorEmail),
      ),
    );
  }

  async slackChanged(ticketId: string): Promise<void> {
    if (!this.#runs) return;
    try {
      const now = this.#now();
      // As a hint: the look reads the activity, where the change is, and is not routine. At
      // once: the platform recorded the change before it answered, and the person who made it
      // waits to see its line and the cards follow (posted by the look's claimed posts, once).
      await this.#stores.mirror.noteHint(ticketId, now);
      await this.#lookAt(ticketId, { type: 'slack-change' });
    } catch (error) {
      this.#logger.warn({ err: error, ticket_id: ticketId }, 'mirror not told about a change');
    }
  }

  async triageChannelSet(desk: string, channel: string): Promise<void> {
    // Kept in the shared store whether or not this process runs the feed (a web replica).
    await triageSince(this.#stores.claims, desk, channel, this.#now());
    this.triage?.channelsChanged();
  }

  reopenAnnounced(ticketId: string, messageId: string, toldIn?: WrittenIn): Promise<void> {
    const mark = toldIn ? reopenToldInMark(messageId, toldIn) : reopenAnnouncedMark(messageId);
    return this.#stores.mirror.rememberOwn(ticketId, [mark]);
  }

  personAsked(ticketId: string): Promise<void> {
    return this.#stores.mirror.rememberOwn(ticketId, [PERSON_ASKED_MARK]);
  }

  isPersonAsked(ticketId: string): Promise<boolean> {
    return this.#stores.mirror.isOwn(ticketId, [PERSON_ASKED_MARK]);
  }

  async lastRead(ticketId: string): Promise<MirroredTicket | undefined> {
    const state = await this.#stores.mirror.state(ticketId);
    if (!state) return undefined;
    return {
      status: state.status,
      requesterEmail: state.requesterEmail,
      polledAt: state.lastPolledAt,
    };
  }
}

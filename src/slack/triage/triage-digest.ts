/**
 * The triage channels' morning summary (TRIAGE_DIGEST_AT, TRIAGE_DIGEST_TZ): on weekdays each
 * triage channel gets one message with its open tickets, unassigned, breached and due today,
 * and links to the oldest unassigned (see `digest-schedule.ts` for when, `digest-summary.ts`
 * for what is counted).
 *
 * Exactly once per channel per local day, across replicas and restarts: each channel's summary
 * is claimed in the shared claims under its date, and before posting the channel's messages of
 * the day are looked through for a summary of that date (its metadata), which a holder that
 * died between posting and recording it left there. One replica at a time reads and posts (a
 * lease on the day's run), so the platform is read once, not once per replica.
 *
 * The platform is read a few times a day: the open tickets by status (one list per open status,
 * by desk when one desk is triaged), as background requests inside the shared budget; when the
 * budget has no room, the run waits for it and tries again within the morning, and says so.
 * Each ticket is checked against what was asked, as a platform may ignore a filter.
 *
 * A triage channel carries internal figures: a channel Slack does not call private (made
 * public, the app removed, archived) gets no summary, at error level. Slack's 429 and 5xx are
 * tried again later (after Retry-After); until noon (the day's close), then the day is given up
 * and the error says which channels went without.
 */
import type { WebClient } from '@slack/web-api';
import type { Logger } from 'pino';
import { sleep as realSleep, type Sleep } from '../../clock.ts';
import type { Desk, Ticket } from '../../contract/schemas.ts';
import { hasPlatformClocks, type ServiceTargets } from '../../contract/service-levels.ts';
import { BudgetDeferredError } from '../../mirror/errors.ts';
import { WorkLoop } from '../../mirror/work-loop.ts';
import type { ServiceDeskClient } from '../../servicedesk/index.ts';
import { deskTriageEntry } from '../../store/triage-rules.ts';
import { DAY_MS, type Stores, TRIAGE_CATCH_ALL, type TriageChannel } from '../../store/types.ts';
import { slackRetryAt } from '../app/slack-clients.ts';
import { dashboardLink } from '../builders/ticket-card-builder.ts';
import { buildTriageDigest } from '../builders/triage-digest-builder.ts';
import { isTransient } from '../outbox/transient-errors.ts';
import {
  type ThreadMessage,
  triageDigestDateOf,
  triageDigestMetadata,
} from '../posting/post-metadata.ts';
import { isConversationUnavailable, permalinkOf } from '../posting/slack-posting.ts';
import type { ChannelPrivacy } from './channel-privacy.ts';
import {
  type DigestDay,
  type DigestSchedule,
  digestDay,
  digestDueNow,
  nextDigest,
  wallTime,
} from './digest-schedule.ts';
import { OPEN_STATUSES, summarise } from './digest-summary.ts';

/** What the summary needs. */
export interface TriageDigestOptions {
  schedule: DigestSchedule;
  /** The background Slack client (a 429 comes back at once, with its Retry-After). */
  client: Pick<WebClient, 'chat' | 'conversations'>;
  platform: Pick<ServiceDeskClient, 'listTickets' | 'listDesks'>;
  stores: Pick<Stores, 'triageChannels' | 'claims' | 'links' | 'mirror'>;
  /** Whether a triage channel is private (`TriageChannelPrivacy`). */
  privacy: { privacy(channel: string): Promise<ChannelPrivacy> };
  /** SLA_TARGETS and SLA_WARN_AT, for tickets whose clocks the platform does not give. */
  targets: ServiceTargets;
  warnAt: number;
  dashboardUrl: string | undefined;
  logger: Pick<Logger, 'info' | 'warn' | 'error' | 'debug'>;
  /** How long one channel's claim lasts while its summary is looked for and posted (default 2 min). */
  leaseMs?: number;
  /** How long one replica's run lasts before another may take over (default 5 min). */
  runLeaseMs?: number;
  /** Wait after a failure that says nothing of when to try again (default 1 min). */
  retryMs?: number;
  /** Pages of 100 read per open status at most (default 10). */
  maxPages?: number;
  now?: () => number;
  sleep?: Sleep;
}

/** How one channel's summary went in a run. */
export type DigestOutcome =
  /** Posted now. */
  | 'posted'
  /** Found in the channel, posted earlier (a run that died before recording it). */
  | 'found'
  /** Posted already (or withheld) today, by this replica or another. */
  | 'done'
  /** Not posted today: the channel is not private, or the app cannot post there. */
  | 'withheld'
  /** Not yet: tried again later (Slack or the platform said wait, or another replica runs). */
  | 'waiting';

/** One run of the day's summary. */
export interface DigestRun {
  date: string;
  channels: { channel: string; outcome: DigestOutcome }[];
  /** When a channel still waiting is tried again. */
  retryAt?: number;
}

interface ChannelPlan {
  channel: string;
  desks: string[];
}

const BACKGROUND = { priority: 'background' } as const;
const PAGE = 100;
// A summary is looked for among the channel's messages of the day: at most this many pages.
const HISTORY_PAGES = 3;
// A finished day is remembered for three days: a restart that day sends it no more.
const DONE_KEPT_MS = 3 * DAY_MS;
// The loop looks at the clock at least this often (a clock jump, a new triage channel).
const MAX_SLEEP_MS = 15 * 60_000;
// Another replica runs the day: looked at again this soon.
const BUSY_RETRY_MS = 30_000;

/** The day's claim of a channel's summary. */
export function digestClaimKey(date: string, channel: string): string {
  return `triage-digest:${date}:${channel}`;
}

/** Sends the morning summaries; see the file comment. */
export class TriageDigest {
  readonly #o: Required<
    Pick<TriageDigestOptions, 'leaseMs' | 'runLeaseMs' | 'retryMs' | 'maxPages' | 'now' | 'sleep'>
  >;
  readonly #options: TriageDigestOptions;
  readonly #loop: WorkLoop;
  // The day under way and when it is tried again, when a run left channels waiting.
  #pending: { day: DigestDay; retryAt: number; channels: string[] } | undefined;
  #failures = 0;

  constructor(options: TriageDigestOptions) {
    this.#options = options;
    this.#o = {
      leaseMs: options.leaseMs ?? 120_000,
      runLeaseMs: options.runLeaseMs ?? 300_000,
      retryMs: options.retryMs ?? 60_000,
      maxPages: options.maxPages ?? 10,
      now: options.now ?? Date.now,
      sleep: options.sleep ?? ((ms, signal) => realSleep(ms, signal, { keepsAlive: false })),
    };
    this.#loop = new WorkLoop(() => this.step(), this.#o);
  }

  /** Starts the schedule: today's summary at once when its time has come and its window is open. */
  start(): void {
    const next = nextDigest(this.#o.now(), this.#options.schedule);
    this.#options.logger.info(
      { date: next.date, at: new Date(next.sendAtMs).toISOString() },
      'next triage digest',
    );
    this.#loop.start();
  }

  /** Stops after the run under way. */
  stop(): Promise<void> {
    return this.#loop.stop();
  }

  /**
   * One look at the clock: sends the day's summaries when due (and not yet all sent), says so
   * when a day closed with some unsent; returns how long to wait before the next look.
   */
  async step(): Promise<number> {
    const now = this.#o.now();
    const { schedule } = this.#options;
    const pending = this.#pending;
    if (pending && now >= pending.day.closesAtMs) {
      this.#options.logger.error(
        { date: pending.day.date, channels: pending.channels },
        'triage digest not sent today: its window closed (noon) while Slack or the platform kept it waiting',
      );
      this.#pending = undefined;
    }
    const due = digestDueNow(now, schedule);
    if (!due) return this.#sleepUntil(nextDigest(now, schedule).sendAtMs, now);
    const waiting = this.#pending?.day.date === due.date ? this.#pending : undefined;
    if (waiting && waiting.retryAt > now) return this.#sleepUntil(waiting.retryAt, now);
    let run: DigestRun;
    try {
      run = await this.send(due);
      this.#failures = 0;
    } catch (error) {
      // A store that cannot be reached, or a bug: said, and tried again within the morning.
      this.#failures += 1;
      const retryAt = now + Math.min(this.#o.retryMs * 2 ** (this.#failures - 1), 15 * 60_000);
      this.#options.logger.error(
        { err: error, date: due.date, retry_at: new Date(retryAt).toISOString() },
        'triage digest run failed; will try again',
      );
      this.#pending = { day: due, retryAt, channels: this.#pending?.channels ?? [] };
      return this.#sleepUntil(retryAt, now);
    }
    if (run.retryAt !== undefined) {
      const channels = run.channels.filter((c) => c.outcome === 'waiting').map((c) => c.channel);
      this.#pending = { day: due, retryAt: run.retryAt, channels };
      return this.#sleepUntil(run.retryAt, now);
    }
    this.#pending = undefined;
    return this.#sleepUntil(nextDigest(due.closesAtMs, schedule).sendAtMs, now);
  }

  /**
   * Sends today's summary now, whatever the time and the weekday (the sandbox's button): still
   * once per channel per day, so a channel that had today's gets nothing more.
   */
  sendNow(): Promise<DigestRun> {
    const { schedule } = this.#options;
    return this.send(digestDay(wallTime(this.#o.now(), schedule.timeZone), schedule));
  }

  /** Sends the day's summary in every triage channel that has not had it; see the file comment. */
  async send(day: DigestDay): Promise<DigestRun> {
    const { claims, triageChannels } = this.#options.stores;
    const list = await triageChannels.all();
    const plans = plansOf(list);
    const run: DigestRun = { date: day.date, channels: [] };
    const left: ChannelPlan[] = [];
    for (const plan of plans) {
      const record = await claims.get(digestClaimKey(day.date, plan.channel));
      if (record?.state === 'done') run.channels.push({ channel: plan.channel, outcome: 'done' });
      else left.push(plan);
    }
    if (left.length === 0) return run;
    const runKey = `triage-digest-run:${day.date}`;
    const runClaim = await claims.claim(runKey, this.#o.runLeaseMs);
    if (runClaim.state !== 'claimed') {
      // Another replica is at it (or finished since): looked at again soon.
      for (const plan of left) run.channels.push({ channel: plan.channel, outcome: 'waiting' });
      run.retryAt = this.#o.now() + BUSY_RETRY_MS;
      return run;
    }
    try {
      await this.#sendIn(day, list, left, run);
    } finally {
      await claims.release(runKey, runClaim.token).catch(() => undefined);
    }
    return run;
  }

  async #sendIn(
    day: DigestDay,
    list: readonly TriageChannel[],
    plans: readonly ChannelPlan[],
    run: DigestRun,
  ): Promise<void> {
    const { logger } = this.#options;
    const wait = (channel: string, retryAt: number) => {
      run.channels.push({ channel, outcome: 'waiting' });
      run.retryAt = Math.min(run.retryAt ?? retryAt, retryAt);
    };
    // Privacy first: a channel that may not take it costs no platform read.
    const open: ChannelPlan[] = [];
    for (const plan of plans) {
      const privacy = await this.#privacy(plan.channel, day);
      if (privacy === 'private') open.push(plan);
      else if (privacy === 'withheld') {
        await this.#finish(day, plan.channel, { withheld: true });
        run.channels.push({ channel: plan.channel, outcome: 'withheld' });
      } else wait(plan.channel, privacy.retryAt);
    }
    if (open.length === 0) return;
    let read: { tickets: Ticket[]; partial: boolean; desks: Desk[] };
    try {
      read = await this.#read(list);
    } catch (error) {
      const retryAt =
        error instanceof BudgetDeferredError ? error.retryAt : this.#o.now() + this.#o.retryMs;
      if (error instanceof BudgetDeferredError) {
        logger.warn(
          { date: day.date, retry_at: new Date(retryAt).toISOString(), reason: error.reason },
          'triage digest waits for room in the platform’s rate budget',
        );
      } else {
        logger.warn(
          { err: error, date: day.date, retry_at: new Date(retryAt).toISOString() },
          'triage digest could not read the open tickets; will try again',
        );
      }
      for (const plan of open) wait(plan.channel, retryAt);
      return;
    }
    const byChannel = this.#route(list, read);
    const names = new Map(read.desks.map((desk) => [desk.slug, desk.name]));
    for (const plan of open) {
      const tickets = byChannel.get(plan.channel) ?? [];
      const outcome = await this.#post(day, plan, tickets, read.partial, names);
      if (typeof outcome === 'string') run.channels.push({ channel: plan.channel, outcome });
      else wait(plan.channel, outcome.retryAt);
    }
  }

  /** Whether the channel may take the summary: private, never (withheld), or not known yet. */
  async #privacy(
    channel: string,
    day: DigestDay,
  ): Promise<'private' | 'withheld' | { retryAt: number }> {
    const { logger } = this.#options;
    try {
      const privacy = await this.#options.privacy.privacy(channel);
      if (privacy === 'private') return 'private';
      logger.error(
        { channel, date: day.date, privacy },
        privacy === 'public'
          ? 'triage channel is public: no triage digest posted there today (its figures are for agents only)'
          : 'the app is not in the triage channel (or it was archived): no triage digest posted there today',
      );
      return 'withheld';
    } catch (error) {
      if (!isTransient(error)) {
        logger.error(
          { err: error, channel, date: day.date },
          'Slack will not say whether the triage channel is private: no triage digest posted there today',
        );
        return 'withheld';
      }
      const retryAt = slackRetryAt(error, this.#o.now()) ?? this.#o.now() + this.#o.retryMs;
      logger.warn(
        { err: error, channel, retry_at: new Date(retryAt).toISOString() },
        'could not tell whether the triage channel is private; its digest waits',
      );
      return { retryAt };
    }
  }

  /** Posts one channel's summary once: claimed, looked for, posted, recorded. */
  async #post(
    day: DigestDay,
    plan: ChannelPlan,
    tickets: readonly Ticket[],
    partial: boolean,
    names: ReadonlyMap<string, string>,
  ): Promise<DigestOutcome | { retryAt: number }> {
    const { claims } = this.#options.stores;
    const { logger } = this.#options;
    const { channel } = plan;
    const now = this.#o.now();
    const answered = await this.#answeredAt(tickets);
    const summary = summarise(tickets, {
      nowMs: now,
      endOfDayMs: day.endOfDayMs,
      targets: this.#options.targets,
      warnAt: this.#options.warnAt,
      firstRespondedAtMs: (ticket) => answered.get(ticket.id),
    });
    // Links before the claim: its lease covers only the look and the post.
    const links = new Map<string, string | undefined>();
    for (const ticket of summary.oldestUnassigned) {
      links.set(ticket.id, await this.#linkOf(ticket, channel));
    }
    const message = buildTriageDigest({
      summary,
      dayLabel: dayLabel(day, this.#options.schedule.timeZone),
      scope: scopeOf(plan.desks, names),
      links,
      partial,
    });
    const key = digestClaimKey(day.date, channel);
    const claim = await claims.claim(key, this.#o.leaseMs);
    if (claim.state === 'done') return 'done';
    if (claim.state === 'busy') return { retryAt: now + BUSY_RETRY_MS };
    try {
      const found = await this.#findPosted(channel, day);
      if (found) {
        await claims.complete(key, claim.token, { ts: found }, DONE_KEPT_MS);
        logger.info({ channel, date: day.date, ts: found }, 'triage digest found already posted');
        return 'found';
      }
      const posted = await this.#options.client.chat.postMessage({
        channel,
        ...message,
        metadata: triageDigestMetadata(day.date),
        unfurl_links: false,
        unfurl_media: false,
      });
      await claims.complete(key, claim.token, { ts: posted.ts ?? null }, DONE_KEPT_MS);
      logger.info(
        {
          channel,
          date: day.date,
          open: summary.open,
          unassigned: summary.unassigned,
          breached: summary.breached,
          due_today: summary.dueToday,
        },
        'triage digest posted',
      );
      return 'posted';
    } catch (error) {
      await claims.release(key, claim.token).catch(() => undefined);
      if (isConversationUnavailable(error)) {
        logger.error(
          { err: error, channel, date: day.date },
          'the app cannot post in the triage channel (removed, or archived): no triage digest there today',
        );
        await this.#finish(day, channel, { withheld: true });
        return 'withheld';
      }
      const retryAt =
        slackRetryAt(error, this.#o.now()) ??
        this.#o.now() + (isTransient(error) ? this.#o.retryMs : 5 * this.#o.retryMs);
      const log = isTransient(error) ? logger.warn.bind(logger) : logger.error.bind(logger);
      log(
        { err: error, channel, date: day.date, retry_at: new Date(retryAt).toISOString() },
        'triage digest not posted; will try again',
      );
      return { retryAt };
    }
  }

  /**
   * When the desk last answered each ticket whose clocks come from SLA_TARGETS, as the mirror
   * saw it (a store read each, no platform request): an answered ticket's first response is met.
   */
  async #answeredAt(tickets: readonly Ticket[]): Promise<Map<string, number>> {
    const answered = new Map<string, number>();
    if (this.#options.targets.size === 0) return answered;
    for (const ticket of tickets) {
      if (hasPlatformClocks(ticket) || ticket.first_responded_at) continue;
      const at = (await this.#options.stores.mirror.state(ticket.id))?.lastAnswerAt;
      if (at) answered.set(ticket.id, at);
    }
    return answered;
  }

  /** Records the channel's day as done without a post (withheld): asked no more today. */
  async #finish(day: DigestDay, channel: string, result: { withheld: true }): Promise<void> {
    const { claims } = this.#options.stores;
    const key = digestClaimKey(day.date, channel);
    const claim = await claims.claim(key, this.#o.leaseMs);
    if (claim.state === 'claimed') await claims.complete(key, claim.token, result, DONE_KEPT_MS);
  }

  /** The `ts` of the day's summary if it is in the channel already. */
  async #findPosted(channel: string, day: DigestDay): Promise<string | undefined> {
    let cursor: string | undefined;
    for (let page = 0; page < HISTORY_PAGES; page++) {
      const history = await this.#options.client.conversations.history({
        channel,
        oldest: (day.startOfDayMs / 1000).toFixed(6),
        include_all_metadata: true,
        limit: 200,
        ...(cursor ? { cursor } : {}),
      });
      const found = ((history.messages ?? []) as ThreadMessage[]).find(
        (message) => triageDigestDateOf(message) === day.date,
      );
      if (found?.ts) return found.ts;
      cursor = history.response_metadata?.next_cursor || undefined;
      if (!cursor) return undefined;
    }
    return undefined;
  }

  /** The ticket's triage thread (in this channel first) as a link, else its dashboard page. */
  async #linkOf(ticket: Ticket, channel: string): Promise<string | undefined> {
    const threads = (await this.#options.stores.links.threadsForTicket(ticket.id)).filter(
      (thread) => thread.triage,
    );
    const thread = threads.find((one) => one.channel === channel) ?? threads[0];
    const permalink = thread
      ? await permalinkOf(this.#options.client, thread.channel, thread.threadTs)
      : undefined;
    return permalink ?? dashboardLink(ticket, this.#options.dashboardUrl);
  }

  /**
   * The open tickets, by status (one list each, checked ticket by ticket): of the one desk
   * triaged when no other channel needs the rest, else of every desk.
   */
  async #read(
    list: readonly TriageChannel[],
  ): Promise<{ tickets: Ticket[]; partial: boolean; desks: Desk[] }> {
    const { platform } = this.#options;
    const desks = (await platform.listDesks(BACKGROUND)).items;
    const triaged = [...new Set(list.map((one) => one.desk))];
    const only = triaged.length === 1 ? triaged[0] : undefined;
    // A desk's subdesks' tickets go to its channel too: their lists are the whole platform's.
    const deskId =
      only && only !== TRIAGE_CATCH_ALL && !desks.some((desk) => desk.parent_slug === only)
        ? only
        : undefined;
    const tickets = new Map<string, Ticket>();
    let partial = false;
    for (const status of OPEN_STATUSES) {
      for (let page = 1; ; page++) {
        const { items, total_count } = await platform.listTickets(
          { status, page, page_size: PAGE, ...(deskId ? { desk_id: deskId } : {}) },
          BACKGROUND,
        );
        for (const ticket of items) {
          if (ticket.status !== status) continue;
          if (deskId && ticket.desk_id !== deskId) continue;
          tickets.set(ticket.id, ticket);
        }
        const more = items.length >= PAGE && (total_count === null || page * PAGE < total_count);
        if (!more) break;
        if (page >= this.#o.maxPages) {
          partial = true;
          break;
        }
      }
    }
    return { tickets: [...tickets.values()], partial, desks };
  }

  /** Each channel's tickets, routed as the triage cards are (desk, parent desk, catch-all). */
  #route(
    list: readonly TriageChannel[],
    read: { tickets: readonly Ticket[]; desks: readonly Desk[] },
  ): Map<string, Ticket[]> {
    const parents = new Map<string, string>();
    for (const desk of read.desks) if (desk.parent_slug) parents.set(desk.slug, desk.parent_slug);
    const catchAll = list.find((one) => one.desk === TRIAGE_CATCH_ALL)?.channel;
    const byChannel = new Map<string, Ticket[]>();
    for (const ticket of read.tickets) {
      const channel = deskTriageEntry(list, ticket.desk_id, parents)?.channel ?? catchAll;
      if (!channel) continue;
      const kept = byChannel.get(channel);
      if (kept) kept.push(ticket);
      else byChannel.set(channel, [ticket]);
    }
    return byChannel;
  }

  #sleepUntil(atMs: number, now: number): number {
    return Math.max(1_000, Math.min(MAX_SLEEP_MS, atMs - now));
  }
}

/** The channels and the desks each summarises (several desks may share one). */
function plansOf(list: readonly TriageChannel[]): ChannelPlan[] {
  const plans = new Map<string, ChannelPlan>();
  for (const entry of list) {
    const plan = plans.get(entry.channel);
    if (plan) plan.desks.push(entry.desk);
    else plans.set(entry.channel, { channel: entry.channel, desks: [entry.desk] });
  }
  return [...plans.values()];
}

/** What a channel covers, in words: its desks by name, and the catch-all's tickets. */
export function scopeOf(desks: readonly string[], names: ReadonlyMap<string, string>): string {
  const named = desks
    .filter((desk) => desk !== TRIAGE_CATCH_ALL)
    .map((desk) => names.get(desk) ?? desk)
    .sort((a, b) => a.localeCompare(b));
  const parts = [...named];
  if (desks.includes(TRIAGE_CATCH_ALL)) {
    parts.push(
      named.length > 0
        ? 'tickets on no desk (or a desk without a triage channel)'
        : 'tickets on no desk, or on a desk without a triage channel',
    );
  }
  if (parts.length <= 1) return parts[0] ?? '';
  return `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

/** "Monday 30 November", the day as people read it in the summary's zone. */
function dayLabel(day: DigestDay, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'long',
    day: 'numeric',
    month: 'long',
  }).format(new Date(day.sendAtMs));
}

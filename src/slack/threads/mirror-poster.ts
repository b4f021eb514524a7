/**
 * The Slack side of the mirror: posts ticket messages and changes into linked threads, keeps
 * the ticket's card there up to date (through a `CardUpdater`), and tells requesters when their
 * ticket is resolved or closed. Every post carries metadata
 * `{ticket_id, message_id}` (and `part`, `parts` on a long message's numbered parts), so the
 * app recognises its own posts and can find one again after a crash between posting and
 * recording it.
 */
import type { WebClient } from '@slack/web-api';
import type { Logger } from 'pino';
import type { Activity, Message, Ticket } from '../../contract/schemas.ts';
import { PostDeferredError } from '../../mirror/errors.ts';
import type {
  ClockWarning,
  MirrorPoster,
  PostOutcome,
  RequesterNotice,
  TicketChange,
} from '../../mirror/types.ts';
import type { Thread } from '../../store/types.ts';
import { slackRetryAt } from '../app/slack-clients.ts';
import { buildBreachNotice, buildClockWarningLine } from '../builders/clock-warning-builder.ts';
import { personText, type ShownPerson, teamText } from '../builders/person-text.ts';
import { type SlackMessage, ticketPageUrl } from '../builders/ticket-card-builder.ts';
import {
  buildRequesterNotice,
  buildTicketChangeLine,
  buildTicketMessageParts,
  type PeopleNames,
} from '../builders/ticket-message-builder.ts';
import { buildTriageCard } from '../builders/triage-card-builder.ts';
import { buildTriageMovedPointer } from '../builders/triage-moved-builder.ts';
import type { CardUpdater } from '../cards/card-updater.ts';
import type { DeskFieldsOf, ServiceClockInputs } from '../deps.ts';
import { slackErrorOf } from '../errors.ts';
import { isTransient } from '../outbox/transient-errors.ts';
import { PeopleByEmail } from '../people/people-by-email.ts';
import {
  type PostPart,
  postMetadata,
  type ThreadMessage,
  ticketMetadata,
  triageCardMetadata,
  triageCardTicketOf,
  triageMovedMetadata,
} from '../posting/post-metadata.ts';
import {
  isConversationUnavailable,
  isMessageGone,
  permalinkOf,
  sendDm,
} from '../posting/slack-posting.ts';
import { readThread } from '../posting/thread-reader.ts';
import type { TriageChannelPrivacy } from '../triage/channel-privacy.ts';
import type { RequesterNotices } from './requester-notices.ts';

/** Slack errors meaning "no such person", for a requester the workspace does not know. */
const UNKNOWN_PERSON = new Set(['users_not_found', 'user_not_found', 'user_disabled']);
// A triage channel's recent messages searched for a card posted before a crash: minutes ago.
const TRIAGE_SEARCH_LIMIT = 200;
// When a triage channel's privacy could not be read (Slack failed, no Retry-After): ask again.
const PRIVACY_RETRY_MS = 30_000;

/** What the poster needs. */
export interface SlackMirrorPosterOptions {
  client: WebClient;
  /** Slack people by email, shared with the cards (default: its own, on `client`). */
  byEmail?: PeopleByEmail;
  /** A desk's custom fields, for the values a triage card shows (none when unset). */
  deskFields?: DeskFieldsOf;
  /** Makes the card refreshes, at the pace Slack allows. */
  cards: CardUpdater;
  /**
   * Told the status the mirror saw, when the platform made it, and the requester when it read
   * the ticket, so a reply to a closed ticket is refused without asking.
   */
  onStatus?: (
    ticketId: string,
    status: string,
    seen: { requesterEmail?: string | null | undefined; asOf?: string | null | undefined },
  ) => void;
  /** The dashboard base: a message too long for a post links to its ticket's page there. */
  dashboardUrl?: string | undefined;
  /**
   * Whether the ticket's requester asked for a person from Slack already: the AI's later
   * messages (its "I've passed this to the team") then offer no second "Talk to a person".
   */
  personAsked?: (ticketId: string) => Promise<boolean>;
  /** Keeps the requester's "resolved" notices, whose Reopen goes once the ticket reopens. */
  notices?: RequesterNotices | undefined;
  /**
   * Whether a triage channel is private: a card or a post in a triage thread goes only to one
   * Slack says is (unset: every triage channel is taken as private, as the tests of posting do).
   */
  triagePrivacy?: Pick<TriageChannelPrivacy, 'privacy'> | undefined;
  /** Where a withheld triage post is said (error level for a public channel). */
  logger?: Pick<Logger, 'error' | 'warn'> | undefined;
  /** The inputs of a triage card's service-level clocks, read as it is posted (unset: none). */
  serviceClocks?: ServiceClockInputs | undefined;
  /**
   * The Slack user group on call for each desk (DESK_ONCALL_GROUPS: desk slug or `*` -> S id),
   * mentioned in a breach notice.
   */
  oncallGroups?: ReadonlyMap<string, string> | undefined;
}

// Slack's 429 as the mirror's own "come back later": the ticket is rescheduled for when Slack
// allows, and no replica posts before then.
function deferredIfLimited(error: unknown): unknown {
  const retryAt = slackRetryAt(error, Date.now());
  return retryAt === undefined ? error : new PostDeferredError(retryAt, { cause: error });
}

/** Posts for the mirror through the Slack Web API. */
export class SlackMirrorPoster implements MirrorPoster {
  readonly #client: WebClient;
  readonly #deskFields: DeskFieldsOf | undefined;
  readonly #cards: CardUpdater;
  readonly #dashboardUrl: string | undefined;
  readonly #onStatus: SlackMirrorPosterOptions['onStatus'];
  readonly #notices: RequesterNotices | undefined;
  readonly #personAsked: SlackMirrorPosterOptions['personAsked'];
  readonly #triagePrivacy: SlackMirrorPosterOptions['triagePrivacy'];
  readonly #logger: SlackMirrorPosterOptions['logger'];
  readonly #byEmail: PeopleByEmail;
  readonly #serviceClocks: ServiceClockInputs | undefined;
  readonly #oncallGroups: ReadonlyMap<string, string>;

  constructor(options: SlackMirrorPosterOptions) {
    this.#client = options.client;
    this.#byEmail = options.byEmail ?? new PeopleByEmail({ client: options.client });
    this.#deskFields = options.deskFields;
    this.#cards = options.cards;
    this.#onStatus = options.onStatus;
    this.#dashboardUrl = options.dashboardUrl;
    this.#notices = options.notices;
    this.#personAsked = options.personAsked;
    this.#triagePrivacy = options.triagePrivacy;
    this.#serviceClocks = options.serviceClocks;
    this.#logger = options.logger;
    this.#oncallGroups = options.oncallGroups ?? new Map();
  }

  /**
   * Whether a triage channel may take a card or a post now: only when Slack says it is private.
   * A public one (or one the app left) takes nothing, said at error level each time; when Slack
   * cannot say for now (a 429, a 5xx, no answer), nothing is posted and the post waits
   * (`PostDeferredError`), so it is made once Slack can say the channel is private: nothing is
   * lost. When Slack refuses for good (a missing scope), nothing is posted, at error level.
   */
  async #triageMayTake(
    channel: string,
    ticketId: string,
    what: 'card' | 'card update' | 'post',
  ): Promise<boolean> {
    if (!this.#triagePrivacy) return true;
    let privacy: Awaited<ReturnType<TriageChannelPrivacy['privacy']>>;
    try {
      privacy = await this.#triagePrivacy.privacy(channel);
    } catch (error) {
      if (!isTransient(error)) {
        // Slack will not say, now or later (a missing scope): nothing goes there, and the
        // requester's threads are not held up waiting for an answer that will not come.
        this.#logger?.error(
          { err: error, channel, ticket_id: ticketId },
          `Slack will not say whether the triage channel is private; the ${what} was not posted there`,
        );
        return false;
      }
      const retryAt = slackRetryAt(error, Date.now()) ?? Date.now() + PRIVACY_RETRY_MS;
      this.#logger?.warn(
        { err: error, channel, ticket_id: ticketId, retry_at: new Date(retryAt).toISOString() },
        `could not tell whether the triage channel is private; the ${what} waits`,
      );
      throw new PostDeferredError(retryAt, { cause: error });
    }
    if (privacy === 'private') return true;
    if (privacy === 'public') {
      this.#logger?.error(
        { channel, ticket_id: ticketId },
        `triage channel is public: the ${what} was not posted there (only a private channel may be a triage channel)`,
      );
    }
    return false;
  }

  messageParts(ticketId: string, message: Message): number {
    return this.#messageParts(ticketId, message).length;
  }

  async postMessage(
    thread: Thread,
    ticketId: string,
    message: Message,
    part?: number,
  ): Promise<PostOutcome> {
    // Agents in a triage thread need no "Talk to a person": they are the people.
    const offerPerson =
      !thread.triage &&
      (message.author.type !== 'ai_agent' || !(await this.#personAsked?.(ticketId)));
    const parts = this.#messageParts(ticketId, message, offerPerson);
    const index = part ?? 0;
    const post = parts[index];
    if (!post)
      throw new RangeError(`message ${message.id} has no part ${index} of ${parts.length}`);
    const numbered = parts.length > 1 ? { index, count: parts.length } : undefined;
    return this.#post(thread, post, ticketId, message.id, numbered);
  }

  #messageParts(ticketId: string, message: Message, offerPerson = true): SlackMessage[] {
    return buildTicketMessageParts(ticketId, message, ticketPageUrl(ticketId, this.#dashboardUrl), {
      offerPerson,
    });
  }

  async postChange(thread: Thread, change: TicketChange): Promise<PostOutcome> {
    const { activity } = change;
    if (activity.type === 'status_changed' && activity.to) {
      this.#onStatus?.(change.ticketId, activity.to, { asOf: activity.created_at });
    }
    return this.#post(
      thread,
      buildTicketChangeLine(change.ticketId, activity, await this.#namesIn(activity), {
        fromSlack: change.fromSlack === true,
      }),
      change.ticketId,
      activity.id,
    );
  }

  /**
   * The names of the people a change has by email (who made it, who it is assigned to), from
   * Slack's directory: no request against the platform's shared budget, and a plain name rather
   * than a mention, which would notify the person of every change they make.
   */
  async #namesIn(activity: Activity): Promise<PeopleNames> {
    const emails = [activity.actor, activity.type === 'assigned' ? activity.to : undefined];
    const names: Record<string, string> = {};
    for (const email of emails) {
      if (!email?.includes('@')) continue;
      const name = await this.#slackName(email.toLowerCase());
      if (name) names[email.toLowerCase()] = name;
    }
    return names;
  }

  async #slackName(email: string): Promise<string | undefined> {
    return (await this.#slackPerson(email))?.name;
  }

  /** The Slack user with this email (id and name), cached as names are. */
  #slackPerson(email: string): Promise<ShownPerson | undefined> {
    return this.#byEmail.person(email);
  }

  async notifyRequester(notice: RequesterNotice): Promise<PostOutcome> {
    let userId: string | undefined;
    try {
      const found = await this.#client.users.lookupByEmail({ email: notice.requesterEmail });
      userId = found.user?.id;
    } catch (error) {
      const code = slackErrorOf(error);
      if (code && UNKNOWN_PERSON.has(code)) return 'gone';
      throw error;
    }
    if (!userId) return 'gone';
    const message = buildRequesterNotice(notice.ticketId, notice.status, notice.ticket?.title);
    if (notice.status === 'resolved') {
      // Before the notice: a direct message the person writes on reading it asks about it. A
      // retry keeps it again, as the same one; unkept, such a message is filed as before.
      const resolution = { ticketId: notice.ticketId, title: notice.ticket?.title };
      await this.#notices?.resolvedFor(userId, resolution).catch(() => undefined);
    }
    let posted: { channel: string; ts: string };
    try {
      posted = await sendDm(
        this.#client,
        userId,
        message,
        ticketMetadata(notice.ticketId, notice.activityId),
      );
    } catch (error) {
      if (isConversationUnavailable(error)) return 'gone';
      throw deferredIfLimited(error);
    }
    if (notice.status === 'resolved') {
      // The notice is sent: failing here would send it again. Unkept, it only keeps its button.
      await this.#notices?.record(notice.ticketId, posted).catch(() => undefined);
    }
    return 'posted';
  }

  async refreshCard(thread: Thread, ticket: Ticket): Promise<void> {
    // A triage card shows no more of its ticket once its channel is not private; when Slack
    // cannot say, this refresh fails (only logged) and the next one tries again.
    if (thread.triage && !(await this.#triageMayTake(thread.channel, ticket.id, 'card update')))
      return;
    this.#cards.request(thread, ticket);
  }

  async ticketRead(ticket: Ticket): Promise<void> {
    this.#onStatus?.(ticket.id, ticket.status, {
      requesterEmail: ticket.requester_email,
      asOf: ticket.updated_at,
    });
    // The requester's notice is a view of the ticket too: its Reopen goes once it is open.
    await this.#notices?.refresh(ticket);
  }

  async postTriageCard(
    channel: string,
    ticket: Ticket,
    filedFrom?: Thread,
  ): Promise<{ ts: string } | 'gone'> {
    if (!(await this.#triageMayTake(channel, ticket.id, 'card'))) return 'gone';
    const email = ticket.requester_email?.toLowerCase();
    const person = email ? await this.#slackPerson(email) : undefined;
    // A direct message's link opens for its person alone: only a channel's is worth showing.
    const permalink =
      filedFrom && !filedFrom.channel.startsWith('D')
        ? await permalinkOf(this.#client, filedFrom.channel, filedFrom.threadTs)
        : undefined;
    const card = buildTriageCard(ticket, {
      deskFields: await this.#deskFields?.(ticket.desk_id),
      requester: { userId: person?.userId, name: person?.name },
      assignee: ticket.assignee_email ? await this.#slackPerson(ticket.assignee_email) : undefined,
      dashboardUrl: this.#dashboardUrl,
      slackPermalink: permalink,
      clocks: this.#serviceClocks?.(),
    });
    try {
      const posted = await this.#client.chat.postMessage({
        channel,
        ...card,
        metadata: triageCardMetadata(ticket.id),
        unfurl_links: false,
        unfurl_media: false,
      });
      if (!posted.ts) throw new Error('Slack answered chat.postMessage without a ts');
      return { ts: posted.ts };
    } catch (error) {
      if (isConversationUnavailable(error)) return 'gone';
      throw deferredIfLimited(error);
    }
  }

  async pointTriageCard(from: Thread, to: Thread, ticketId: string): Promise<void> {
    // Only a link to the new card, in a channel that took the card itself: nothing of the
    // ticket's text, so no privacy check beyond the one the card passed.
    const permalink = await permalinkOf(this.#client, to.channel, to.threadTs);
    try {
      await this.#client.chat.update({
        channel: from.channel,
        ts: from.threadTs,
        ...buildTriageMovedPointer(ticketId, to.channel, permalink),
        metadata: triageMovedMetadata(ticketId, to),
      });
    } catch (error) {
      // A card deleted, or a channel archived or left: there is nothing left to point from.
      if (isConversationUnavailable(error) || isMessageGone(error)) return;
      throw deferredIfLimited(error);
    }
  }

  async findTriageCard(channel: string, ticket: Ticket): Promise<string | undefined> {
    const created = Date.parse(ticket.created_at);
    let page: { messages?: unknown[] };
    try {
      page = await this.#client.conversations.history({
        channel,
        include_all_metadata: true,
        limit: TRIAGE_SEARCH_LIMIT,
        // A card is posted after its ticket exists: nothing older can be it.
        ...(Number.isNaN(created) ? {} : { oldest: String(Math.floor(created / 1000) - 60) }),
      });
    } catch (error) {
      throw deferredIfLimited(error);
    }
    const found = ((page.messages ?? []) as ThreadMessage[]).find(
      (message) => triageCardTicketOf(message) === ticket.id,
    );
    return found?.ts;
  }

  async postClockWarning(thread: Thread, warning: ClockWarning): Promise<PostOutcome> {
    const { ticket, clock, level } = warning;
    const line = buildClockWarningLine(
      ticket.id,
      { kind: clock.kind, level, dueAtMs: clock.dueAtMs },
      await this.#holderOf(ticket),
    );
    return this.#post(thread, line, ticket.id, warning.itemId);
  }

  async postBreachNotice(thread: Thread, warning: ClockWarning): Promise<PostOutcome> {
    const { ticket, clock } = warning;
    // The notice names the ticket's title: only a channel Slack calls private takes it.
    if (!(await this.#triageMayTake(thread.channel, ticket.id, 'post'))) return 'gone';
    const cardLink = await permalinkOf(this.#client, thread.channel, thread.threadTs);
    const group =
      (ticket.desk_id ? this.#oncallGroups.get(ticket.desk_id) : undefined) ??
      this.#oncallGroups.get('*');
    const notice = buildBreachNotice(
      { id: ticket.id, title: ticket.title, cardLink },
      clock,
      await this.#holderOf(ticket),
      group,
    );
    try {
      await this.#client.chat.postMessage({
        channel: thread.channel,
        ...notice,
        metadata: ticketMetadata(ticket.id, warning.itemId),
        unfurl_links: false,
        unfurl_media: false,
      });
      return 'posted';
    } catch (error) {
      if (isConversationUnavailable(error)) return 'gone';
      throw deferredIfLimited(error);
    }
  }

  async findBreachNotice(thread: Thread, warning: ClockWarning): Promise<boolean> {
    let page: { messages?: unknown[] };
    try {
      page = await this.#client.conversations.history({
        channel: thread.channel,
        include_all_metadata: true,
        limit: TRIAGE_SEARCH_LIMIT,
        // Posted at the due time or after: nothing older can be it.
        oldest: String(Math.floor(warning.clock.dueAtMs / 1000) - 60),
      });
    } catch (error) {
      throw deferredIfLimited(error);
    }
    return ((page.messages ?? []) as ThreadMessage[]).some((message) => {
      const post = postMetadata(message);
      return post?.ticketId === warning.ticket.id && post.itemId === warning.itemId;
    });
  }

  /** Who has the ticket, as a warning names them: a mention, else a name; a team; or no one. */
  async #holderOf(ticket: Ticket): Promise<string | undefined> {
    const email = ticket.assignee_email?.toLowerCase();
    if (email?.includes('@')) return personText(email, await this.#slackPerson(email));
    if (ticket.team?.trim()) return teamText(ticket.team);
    return undefined;
  }

  async findPosted(
    thread: Thread,
    ticketId: string,
    itemId: string,
    part?: number,
  ): Promise<boolean> {
    let found = false;
    await readThread(this.#client, thread, (messages) => {
      found = messages.some((message) => {
        const post = postMetadata(message);
        return post?.ticketId === ticketId && post.itemId === itemId && post.part === part;
      });
      return found;
    });
    return found;
  }

  async #post(
    thread: Thread,
    message: SlackMessage,
    ticketId: string,
    itemId: string,
    part?: PostPart,
  ): Promise<PostOutcome> {
    // A triage thread in a channel made public takes no more: the thread is unlinked, and what
    // it would have shown stays on the platform.
    if (thread.triage && !(await this.#triageMayTake(thread.channel, ticketId, 'post'))) {
      return 'gone';
    }
    try {
      await this.#client.chat.postMessage({
        channel: thread.channel,
        thread_ts: thread.threadTs,
        ...message,
        metadata: ticketMetadata(ticketId, itemId, part),
        unfurl_links: false,
        unfurl_media: false,
      });
      return 'posted';
    } catch (error) {
      if (isConversationUnavailable(error)) return 'gone';
      throw deferredIfLimited(error);
    }
  }
}

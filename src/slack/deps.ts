/**
 * What the Slack side's listeners and intents are given: built once in createSlackApp. Each part
 * is declared here as the interface its users call, so this file imports no room of the Slack
 * side and every room may import it; the classes behind them live in people/, tickets/, app/,
 * outbox/ and threads/. A listener takes the slice it uses (`Pick<SlackDeps, ...>`).
 */

import type { WebClient } from '@slack/web-api';
import type { Logger } from 'pino';
import type { TriageReactionAction } from '../config.ts';
import type { Asset, CatalogItem, CustomField, Desk, Ticket } from '../contract/schemas.ts';
import type { ClockInputs, ServiceTargets } from '../contract/service-levels.ts';
import type { Mirror } from '../mirror/mirror.ts';
import type { ServiceDeskClient } from '../servicedesk/index.ts';
import type { ChannelMode, EnqueueOutcome, JsonValue, Stores } from '../store/types.ts';
import type { BusyReason } from './builders/busy-builder.ts';
import type { ShownPerson } from './builders/person-text.ts';

/** What the status memo knows about a ticket. */
export interface KnownTicket {
  status: string;
  requesterEmail: string | undefined;
  /** When it was seen (ms since the epoch). */
  at: number;
  /**
   * The platform's time of the version seen (its `updated_at`, ms since the epoch), when known:
   * a read that finishes later but saw an older version must not replace it.
   */
  version?: number | undefined;
}

/** Last seen ticket statuses (`tickets/ticket-status-memo.ts`). */
export interface StatusMemo {
  /** Notes a ticket as read from the platform. */
  remember(ticket: Pick<Ticket, 'id' | 'status' | 'requester_email' | 'updated_at'>): void;
  /** Takes what another source (the mirror's last read) knows, unless the memo knows newer. */
  adopt(ticketId: string, known: KnownTicket): void;
  /** Notes a status the app itself just set. */
  setStatus(
    ticketId: string,
    status: string,
    seen?: { requesterEmail?: string | null | undefined; asOf?: string | null | undefined },
  ): void;
  /** What is known of the ticket, while it is still trusted. */
  get(ticketId: string): KnownTicket | undefined;
  /** Whether the ticket is known to be closed. */
  isClosed(ticketId: string): boolean;
}

/** A Slack person as the app needs them. */
export interface Person {
  id: string;
  name: string;
  email: string | undefined;
  isBot: boolean;
  /** The pronouns on their Slack profile as they wrote them ("she/her"), when they did. */
  pronouns?: string | undefined;
}

/** Slack people by user id (`people/people-directory.ts`). */
export interface Directory {
  /** The person behind a Slack user id. */
  person(userId: string): Promise<Person>;
  /** The person's email, or PersonWithoutEmailError: the platform cannot match them without it. */
  email(userId: string): Promise<string>;
  /**
   * Whether the person is an agent: listed in AGENT_EMAILS or a member of the agents group; on
   * a ticket (`on`), also a member of a private triage channel of its desk (`TriageMembers`).
   */
  isAgent(userId: string, on?: AgentScope): Promise<boolean>;
  /** The Slack user with this email (a ticket's assignee), never failing: undefined if unknown. */
  byEmail?(email: string): Promise<ShownPerson | undefined>;
}

/** The ticket an agent's right is asked on, and what is known of where it is. */
export interface AgentScope {
  ticketId: string;
  /** The ticket's desk slug when read (null: on no desk); undefined when not read. */
  deskId?: string | null | undefined;
  /** The channel the click, reply or form came from, when any. */
  channel?: string | undefined;
}

/** The triage channels a person is an agent in, and where each desk's tickets go. */
export interface DeskChannels {
  channels: ReadonlySet<string>;
  /** The triage channel a ticket on this desk goes to (null: on no desk), if any. */
  routedTo(deskId: string | null | undefined): string | undefined;
}

/** Triage channels' members, the desk agents (`people/triage-membership.ts`). */
export interface TriageMembers {
  /** Whether the person is a member of a private triage channel of the ticket's desk. */
  isDeskAgent(userId: string, scope: AgentScope): Promise<boolean>;
  /**
   * The private triage channels the person is a member of, and which of them each desk's
   * tickets go to (its own, a parent's, else the catch-all's): an agent's queue covers those.
   */
  deskChannels?(userId: string): Promise<DeskChannels>;
  /** Someone joined a channel (`member_joined_channel`). */
  joined(channel: string, userId: string): void;
  /** Someone left a channel (`member_left_channel`): they lose the right at once. */
  left(channel: string, userId: string): void;
}

/**
 * Called before a shared list's read is started for a person's action: takes the read from
 * their fair share, or throws `FairShareSpentError` (`people/fair-share.ts`, `payFrom`).
 */
export type Payer = () => Promise<void>;

/** The platform's desks, kept for a while (`tickets/desk-catalog.ts`). */
export interface Desks {
  /** The desks if a fresh copy is kept, without waiting. */
  peek(): Desk[] | undefined;
  /**
   * The desks, read again when the kept copy is stale; `pay` is called before a read is started
   * (never to join one), and may refuse it by throwing.
   */
  list(pay?: Payer): Promise<Desk[]>;
}

/** A desk's custom fields for a card, none when they cannot be read (`deskFieldsOf`). */
export type DeskFieldsOf = (deskSlug: string | null | undefined) => Promise<CustomField[]>;

/** The desks' custom field definitions, kept per desk (`tickets/desk-fields.ts`). */
export interface DeskFields {
  /** The desk's kept fields (a stale copy too, refreshed behind it), without waiting. */
  peek(deskSlug: string): CustomField[] | undefined;
  /** The desk's fields: a kept copy at once, else one request shared by every caller. */
  get(deskSlug: string, pay?: Payer): Promise<CustomField[]>;
}

/** The service catalog as read: its items, or `absent` on a platform without one. */
export type CatalogRead = { kind: 'items'; items: CatalogItem[] } | { kind: 'absent' };

/** The platform's service catalog, kept for an hour (`tickets/service-catalog.ts`). */
export interface Catalog {
  /** The kept catalog (a stale copy too, refreshed behind it), without waiting. */
  peek(): CatalogRead | undefined;
  /** The catalog: the kept copy at once, else one request shared by every caller. */
  get(pay?: Payer): Promise<CatalogRead>;
  /** The catalog if it can be had within `waitMs`, else `loading` (the load goes on). */
  within(waitMs: number): Promise<CatalogRead | 'loading'>;
}

/**
 * What a person asked for that reads the platform: the create form's lists (`form`), the
 * request form's catalog (`catalog`), a link they shared (`unfurl`).
 */
export type PeopleRequest =
  | 'lookup'
  | 'mine'
  | 'home'
  | 'update'
  | 'form'
  | 'catalog'
  /** A ticket's dashboard link someone posted, unfurled as its card. */
  | 'unfurl'
  /** An agent's queue (App Home, `/ticket queue`). */
  | 'queue';

/** An agent's queue as read (`people/agent-queue.ts`); JSON, so it can be kept in the store. */
export interface AgentQueue {
  /** Open tickets assigned to the agent, as listed (oldest first). */
  assigned: Ticket[];
  /** Whether more are assigned than were read. */
  assignedMore: boolean;
  /** Open unassigned tickets on the agent's desks, oldest first, as many as asked for. */
  unassigned: Ticket[];
  /** How many there are in all, when known (null: at least as many as read). */
  unassignedTotal: number | null;
}

/** Which desks' unassigned tickets an agent sees. */
export interface QueueScope {
  /** What the scope is made of, for the key the queue is kept under (`*`: every desk). */
  key: string;
  /** Whether the ticket is on one of the agent's desks. */
  covers(ticket: Pick<Ticket, 'desk_id'>): boolean;
  /** Every desk (AGENT_EMAILS, the agents' group): no ticket is left out. */
  allDesks: boolean;
}

/** What to read of an agent's queue. */
export interface QueueAsk {
  email: string;
  scope: QueueScope;
  /** How many unassigned tickets can be shown beside this many assigned ones. */
  unassignedRoom(assignedCount: number): number;
}

/** Something read earlier, and when. */
export interface KeptValue<T> {
  value: T;
  keptAt: number;
}

/** The outcome of a read for a person. */
export type PersonRead<T> =
  | { kind: 'read'; value: T; source: 'platform' | 'cache' }
  | {
      kind: 'busy';
      reason: BusyReason;
      /** When asking again should work, ms since the epoch. */
      retryAt: number;
      /** What was read earlier, if anything is still kept. */
      kept: KeptValue<T> | undefined;
    };

/** People's reads of the platform (`people/fair-share.ts`). */
export interface Reads {
  /** The reads' clock, in ms since the epoch. */
  now(): number;
  /** A ticket read for a person; who may see it is the caller's to check. */
  ticket(
    userId: string,
    ticketId: string,
    request: PeopleRequest,
    options?: { fresh?: boolean; freshMs?: number },
  ): Promise<PersonRead<Ticket>>;
  /** The ticket as some earlier read kept it (any age within the keeping), without a read. */
  keptTicket(ticketId: string): Promise<KeptValue<Ticket> | undefined>;
  /** The open tickets a person requested, newest first. */
  openRequested(
    userId: string,
    email: string,
    request: PeopleRequest,
    seen?: (ticket: Ticket) => void,
  ): Promise<PersonRead<Ticket[]>>;
  /** An agent's queue, kept for a minute (`people/agent-queue.ts`). */
  agentQueue(
    userId: string,
    ask: QueueAsk,
    request: PeopleRequest,
  ): Promise<PersonRead<AgentQueue>>;
  /**
   * Moves a ticket the agent just took into their kept queue, when one is kept; `taken` (the
   * ticket as the assignment left it) is listed even when the kept queue had not seen it yet.
   */
  tookFromQueue(
    ask: QueueAsk,
    ticketId: string,
    taken?: Ticket,
  ): Promise<{ queue: AgentQueue; changed: boolean } | undefined>;
  /** The devices assigned to an email, for a form `userId` opened (kept for minutes). */
  devices(userId: string, email: string): Promise<PersonRead<Asset[]>>;
  /** A payer taking a shared list's read from the person's share (see `Payer`). */
  payer(userId: string, request: PeopleRequest): Payer;
  /** Counts an answer given from what was known. */
  answeredFromKnown(request: PeopleRequest): void;
}

/** Work started after Slack is answered, its errors reported (`app/background-tasks.ts`). */
export interface Tasks {
  run(label: string, task: () => Promise<unknown>, context?: Record<string, unknown>): void;
}

/** How an entry's attempt ended, as waiters see it. */
export type Settlement =
  | { state: 'done'; result: JsonValue }
  | { state: 'failed'; error: unknown }
  | { state: 'retrying'; error: unknown; nextAttemptAt: number };

/** The outbox worker, as a modal submission runs its entry at once (`outbox/outbox-worker.ts`). */
export interface IntentSubmitter {
  /** Stores the entry leased to this process, runs it, and waits up to `waitMs` for it. */
  submit(
    deliveryKey: string,
    kind: string,
    payload: JsonValue,
    waitMs: number,
  ): Promise<{ outcome: EnqueueOutcome; settled?: Settlement }>;
}

/** Whether thread links may have been lost with the store (`threads/heal-window.ts`). */
export interface HealCheck {
  isOpen(): Promise<boolean>;
}

/** What the app knows of a thread in a triage channel without asking Slack. */
export type TriageThreadKind =
  | { kind: 'triage'; ticketId: string }
  /** In a direct message, known as no card's, or the links know it as a ticket's ordinary thread. */
  | { kind: 'not_triage' }
  /** Unknown to the links: its parent may be a triage card (whatever channel lists say). */
  | { kind: 'unknown' };

/** Triage threads: the agents' threads under triage cards (`threads/triage-threads.ts`). */
export interface TriageThreads {
  /** What the store says of the thread: no Slack call, so a listener may ask before its ack. */
  classify(channel: string, threadTs: string): Promise<TriageThreadKind>;
  /**
   * The ticket of a triage thread, reading its parent from Slack when the links do not know
   * the thread (the card posted by the bot user `appUserId`); undefined for any other thread.
   */
  ticketForTriageThread(
    channel: string,
    threadTs: string,
    appUserId?: string,
  ): Promise<string | undefined>;
}

/** Triage channels' records pinned in Slack (`tickets/triage-channel-records.ts`). */
export interface TriageRecords {
  /** Posts and pins the record of `desk` in `channel`, set now (by `setBy`, when a person). */
  remember(
    channel: string,
    record: { desk: string; deskName?: string | undefined; setBy?: string | undefined },
  ): Promise<void>;
  /** Unpins the records of `desks` in `channel`; the desks whose record was unpinned. */
  forget(channel: string, desks: readonly string[]): Promise<string[]>;
}

/** Which installation a request came from, as Bolt's context says. */
export interface InstallationRef {
  teamId: string | undefined;
  enterpriseId: string | undefined;
  isEnterpriseInstall: boolean;
}

/** The app's installations, when installed by OAuth (`app/installed-clients.ts`). */
export interface Installs {
  /**
   * Removes the installation (the organization's for an org-wide one) and forgets what was kept
   * for it; `why` is logged (`app_uninstalled`, `tokens_revoked`).
   */
  remove(ref: InstallationRef, why: string): Promise<void>;
}

/** Settings the Slack side reads. */
export interface SlackSettings {
  ticketEmoji: string;
  channelDesks: ReadonlyMap<string, string>;
  /** Channels' default modes (CHANNEL_MODES); an agent's `/ticket channel` wins. Unset: none. */
  channelModes?: ReadonlyMap<string, ChannelMode>;
  /** How long an auto channel's new message waits before it is filed (unset: 3 s). */
  autoChannelHoldMs?: number;
  /**
   * How long after a person's ticket is resolved their direct message to the app asks whether
   * it is about that ticket (unset: 3 days; 0: never).
   */
  reopenWindowMs?: number;
  dashboardUrl: string | undefined;
  /** Hosts whose ticket links unfurl (SERVICE_DESK_DASHBOARD_HOSTS); unset or empty: none. */
  dashboardHosts?: readonly string[];
  /** What an agent's reaction on a triage card does, by emoji name (TRIAGE_REACTIONS; unset: none). */
  triageReactions?: ReadonlyMap<string, TriageReactionAction>;
  /** SLA_TARGETS: the clocks of a ticket the platform gives none (unset: none). */
  slaTargets?: ServiceTargets;
  /** SLA_WARN_AT: the fraction of a target at which its clock warns (unset: 0.8). */
  slaWarnAt?: number;
  /** How long a modal submission waits for the ticket before answering Slack (under 3 s). */
  submitWaitMs: number;
  /**
   * The AI pane's suggested prompts (ASSISTANT_PROMPTS): unset draws them from the catalog and
   * the desks; [] offers none.
   */
  panePrompts?: readonly string[] | undefined;
  /**
   * How long a Workflow Builder step's run waits for the service desk before it ends saying
   * the ticket is still coming (unset: 10 minutes, inside Slack's 15 for a run).
   */
  workflowStepAnswerMs?: number;
  /** The on-call user group a breach notice mentions, by desk slug or `*` (DESK_ONCALL_GROUPS). */
  deskOncallGroups?: ReadonlyMap<string, string>;
}

/**
 * What a card's service-level clocks are computed from, read when the card is built: the
 * targets, the warning point and the app's clock (`cards/service-clocks.ts`).
 */
export type ServiceClockInputs = () => ClockInputs;

/** The dependencies of every listener and intent handler. */
export interface SlackDeps {
  settings: SlackSettings;
  logger: Logger;
  client: WebClient;
  serviceDesk: ServiceDeskClient;
  stores: Stores;
  people: Directory;
  /** Last seen ticket statuses: spares a platform request per thread reply. */
  statuses: StatusMemo;
  desks: Desks;
  /** The desks' custom fields, for the create form. */
  deskFields: DeskFields;
  /** The service catalog, for the request form. */
  catalog: Catalog;
  /** People's reads of the platform: their fair share, a short shared cache, busy answers. */
  reads: Reads;
  tasks: Tasks;
  worker: IntentSubmitter;
  /** Whether thread links may have been lost with the store, so any unknown thread is looked up. */
  healWindow: HealCheck;
  /** The mirror (platform → Slack): told of writes from Slack; its state is its own. */
  mirror: Mirror;
  /** Triage threads: what agents write there is an internal note. */
  triageThreads: TriageThreads;
  /** Triage channels' pinned records in Slack, read back after Redis came back empty. */
  triageRecords: TriageRecords;
  /** Triage channels' members: kept current from Slack's membership events. */
  triageMembers: TriageMembers;
  /** The inputs of the clocks an agent's card shows (unset: no card shows a clock). */
  serviceClocks?: ServiceClockInputs;
  /** Installed by OAuth: the installations (unset with one workspace's SLACK_BOT_TOKEN). */
  installs?: Installs;
}

/**
 * What queued writes (intents) are given: everything but the worker that runs them, the
 * catalog, which only the forms use, and the triage records, which only the command uses. The desk fields may be given: a filing without a form asks
 * for the required ones the platform let it leave out.
 */
export type IntentDeps = Omit<
  SlackDeps,
  'worker' | 'tasks' | 'deskFields' | 'catalog' | 'triageRecords'
> &
  Partial<Pick<SlackDeps, 'deskFields'>>;

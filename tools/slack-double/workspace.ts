/**
 * The state of the double's Slack workspace: people, channels, messages and threads, ephemeral
 * messages, views and trigger ids. The Web API methods and the driver both read and change it,
 * so what a test makes a user do is what the app later reads back.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { type JsonObject, withGeneratedIds } from './block-kit.ts';
import type { ChannelSeed, TeamSeed, UserSeed, WorkspaceSeed } from './default-workspace.ts';

/** A user as `users.info` returns it. */
export interface SlackUser {
  id: string;
  team_id: string;
  name: string;
  deleted: boolean;
  real_name: string;
  tz: string;
  is_admin: boolean;
  is_owner: boolean;
  is_bot: boolean;
  is_app_user: boolean;
  updated: number;
  profile: {
    real_name: string;
    real_name_normalized: string;
    display_name: string;
    display_name_normalized: string;
    email?: string;
    bot_id?: string;
    api_app_id?: string;
    team: string;
  };
}

/** A conversation: public or private channel, DM (`D...`) or group DM. */
export interface Conversation {
  id: string;
  name: string;
  created: number;
  creator: string;
  isPrivate: boolean;
  isIm: boolean;
  isMpim: boolean;
  isArchived: boolean;
  members: string[];
  /** The other person of a DM. */
  imUser?: string;
}

/** Message metadata as the app sends it (`{ event_type, event_payload }`). */
export interface MessageMetadata {
  event_type: string;
  event_payload: JsonObject;
}

/** One emoji reaction on a message. */
export interface Reaction {
  name: string;
  users: string[];
  count: number;
}

/** A stored message, in the shape `conversations.history` and `conversations.replies` return. */
export interface SlackMessage {
  type: 'message';
  ts: string;
  text: string;
  user?: string;
  bot_id?: string;
  app_id?: string;
  team?: string;
  subtype?: string;
  blocks?: unknown[];
  attachments?: unknown[];
  metadata?: MessageMetadata;
  thread_ts?: string;
  parent_user_id?: string;
  reply_count?: number;
  reply_users_count?: number;
  reply_users?: string[];
  latest_reply?: string;
  edited?: { user: string; ts: string };
  reactions?: Reaction[];
  client_msg_id?: string;
  bot_profile?: { id: string; app_id: string; name: string; team_id: string; deleted: boolean };
}

/** What is needed to store a new message; the workspace assigns the `ts`. */
export type NewMessage = Omit<SlackMessage, 'type' | 'ts'>;

/** One suggested prompt of Slack's AI pane. */
export interface AssistantPrompt {
  title: string;
  message: string;
}

/**
 * A conversation in Slack's AI pane: a thread of the person's DM with the app, whose parent
 * Slack posts as the app. What the app set on it is kept, as the pane would show it.
 */
export interface AssistantThread {
  channel: string;
  threadTs: string;
  userId: string;
  /** The status shown under the thread ('' when none); Slack clears it when the app posts there. */
  status: string;
  /** Every status the app set, oldest first ('' for a clear, by the app or by its post). */
  statuses: string[];
  /** The title the app gave it (its History lists it so), if any. */
  title?: string;
  /** The suggested prompts last set, and their heading. */
  prompts: AssistantPrompt[];
  promptsTitle?: string;
}

/** An ephemeral message: seen by one user only, never in history. */
export interface EphemeralMessage {
  channel: string;
  user: string;
  ts: string;
  text: string;
  blocks?: unknown[];
  thread_ts?: string;
  via: 'chat.postEphemeral' | 'response_url';
}

/** `view.state.values`: block_id → action_id → the element's value in Slack's shape. */
export type ViewStateValues = Record<string, Record<string, JsonObject>>;

/** A view (modal or App Home) as Slack returns it from `views.*` and sends it in payloads. */
export interface SlackView {
  id: string;
  team_id: string;
  type: string;
  title: unknown;
  close: unknown;
  submit: unknown;
  blocks: unknown[];
  private_metadata: string;
  callback_id: string;
  external_id: string;
  state: { values: ViewStateValues };
  hash: string;
  clear_on_close: boolean;
  notify_on_close: boolean;
  submit_disabled: boolean;
  root_view_id: string | null;
  previous_view_id: string | null;
  app_id: string;
  app_installed_team_id: string;
  bot_id: string;
}

/** The view fields an app sends to `views.open`, `views.update`, `views.push`, `views.publish`. */
export interface ViewInput {
  type: string;
  title?: unknown;
  close?: unknown;
  submit?: unknown;
  blocks: unknown[];
  private_metadata?: string;
  callback_id?: string;
  external_id?: string;
  clear_on_close?: boolean;
  notify_on_close?: boolean;
  submit_disabled?: boolean;
}

/** Why a trigger id could not be exchanged for a view, in Slack's words. */
export type TriggerRefusal = 'invalid_trigger_id' | 'expired_trigger_id' | 'exchanged_trigger_id';

interface TriggerRecord {
  userId: string;
  issuedAt: number;
  exchanged: boolean;
}

interface ViewRecord {
  view: SlackView;
  userId: string;
}

/** How the workspace tells time and how long trigger ids live. */
export interface WorkspaceOptions {
  /** Milliseconds since the epoch; tests pass a fake clock to expire triggers without waiting. */
  now?: () => number;
  /** Slack's trigger ids expire after 3 seconds. */
  triggerTtlMs?: number;
  /**
   * The last message timestamp handed out, shared by the workspaces of one organization so
   * that a channel they share never gets one `ts` twice.
   */
  timestamps?: { lastMicros: number };
}

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const MAX_MODAL_STACK = 3;

/** A random Slack-looking id: the prefix then upper-case letters and digits. */
export function newSlackId(prefix: string, length = 10): string {
  const bytes = randomBytes(length);
  let id = prefix;
  for (const byte of bytes) id += ID_ALPHABET[byte % ID_ALPHABET.length];
  return id;
}

function tsToMicros(ts: string): number {
  const [seconds = '0', micros = '0'] = ts.split('.');
  return Number(seconds) * 1_000_000 + Number(micros.padEnd(6, '0').slice(0, 6));
}

function toSlackUser(seed: UserSeed, teamId: string): SlackUser {
  const displayName = seed.displayName ?? seed.name;
  const profile: SlackUser['profile'] = {
    real_name: seed.realName,
    real_name_normalized: seed.realName,
    display_name: displayName,
    display_name_normalized: displayName,
    team: teamId,
  };
  if (seed.email !== undefined) profile.email = seed.email;
  if (seed.botId !== undefined) profile.bot_id = seed.botId;
  if (seed.appId !== undefined) profile.api_app_id = seed.appId;
  return {
    id: seed.id,
    team_id: teamId,
    name: seed.name,
    deleted: seed.deleted ?? false,
    real_name: seed.realName,
    tz: seed.tz ?? 'Europe/London',
    is_admin: false,
    is_owner: false,
    is_bot: seed.isBot ?? false,
    is_app_user: false,
    updated: 1_700_000_000,
    profile,
  };
}

/** The workspace of the Slack double. Getters return copies: callers cannot change its state. */
export class Workspace {
  readonly team: TeamSeed;
  /** The organization the workspace belongs to (Enterprise Grid), if any. */
  readonly enterpriseId: string | undefined;
  /** Whether the app is installed org-wide in the workspace's organization (payloads say so). */
  orgWideInstall = false;
  readonly appId: string;
  readonly botUserId: string;
  readonly botId: string;
  readonly botToken: string;
  readonly triggerTtlMs: number;
  readonly #clock: () => number;
  // Put after the user's id in a DM's id (`WorkspaceSeed.imSuffix`).
  readonly #imSuffix: string;
  readonly #users = new Map<string, SlackUser>();
  readonly #conversations = new Map<string, Conversation>();
  readonly #messages = new Map<string, SlackMessage[]>();
  readonly #ephemerals: EphemeralMessage[] = [];
  // Channel id → its pins, oldest first.
  readonly #pins = new Map<string, { ts: string; created: number; createdBy: string }[]>();
  readonly #usergroups = new Map<string, string[]>();
  readonly #views = new Map<string, ViewRecord>();
  readonly #modalStacks = new Map<string, string[]>();
  readonly #homeViews = new Map<string, string>();
  readonly #triggers = new Map<string, TriggerRecord>();
  // "channel ts" → the links on the app's unfurl domains that message's link_shared named.
  readonly #sharedLinks = new Map<string, Set<string>>();
  #unfurlDomains: string[] = [];
  // `channel:thread_ts` → the AI pane's conversation.
  readonly #assistantThreads = new Map<string, AssistantThread>();
  readonly #timestamps: { lastMicros: number };
  #triggerCount = 0;

  constructor(seed: WorkspaceSeed, options: WorkspaceOptions = {}) {
    this.team = { ...seed.team };
    this.enterpriseId = seed.enterpriseId;
    this.appId = seed.appId;
    this.botUserId = seed.botUserId;
    this.botId = seed.botId;
    this.botToken = seed.botToken;
    this.triggerTtlMs = options.triggerTtlMs ?? 3000;
    this.#imSuffix = seed.imSuffix ?? '';
    this.#timestamps = options.timestamps ?? { lastMicros: 0 };
    this.#clock = options.now ?? Date.now;
    for (const user of seed.users) this.#users.set(user.id, toSlackUser(user, seed.team.id));
    for (const channel of seed.channels) this.#addChannel(channel);
    for (const group of seed.usergroups) this.#usergroups.set(group.id, [...group.users]);
  }

  #addChannel(seed: ChannelSeed): void {
    this.#conversations.set(seed.id, {
      id: seed.id,
      name: seed.name,
      created: 1_600_000_000,
      creator: seed.members.find((id) => id !== this.botUserId) ?? this.botUserId,
      isPrivate: seed.isPrivate ?? false,
      isIm: false,
      isMpim: false,
      isArchived: seed.isArchived ?? false,
      members: [...seed.members],
    });
    this.#messages.set(seed.id, []);
  }

  /** The workspace clock, in milliseconds since the epoch. */
  now(): number {
    return this.#clock();
  }

  /**
   * A new message timestamp: `seconds.micros` from the clock, strictly greater than every one
   * before it, as Slack guarantees within a workspace.
   */
  nextTs(): string {
    const micros = Math.max(Math.floor(this.#clock() * 1000), this.#timestamps.lastMicros + 1);
    this.#timestamps.lastMicros = micros;
    const seconds = Math.floor(micros / 1_000_000);
    return `${seconds}.${String(micros % 1_000_000).padStart(6, '0')}`;
  }

  /** A short random id, like those Slack gives blocks and elements that have none. */
  newElementId(): string {
    return newSlackId('', 5);
  }

  // ---- people ---------------------------------------------------------------------------

  /** The user, or undefined. */
  user(userId: string): SlackUser | undefined {
    const user = this.#users.get(userId);
    return user && structuredClone(user);
  }

  /** Every user of the workspace. */
  users(): SlackUser[] {
    return [...this.#users.values()].map((user) => structuredClone(user));
  }

  /** The user with this email (case-insensitive), or undefined. */
  userByEmail(email: string): SlackUser | undefined {
    const wanted = email.trim().toLowerCase();
    for (const user of this.#users.values()) {
      if (user.profile.email?.toLowerCase() === wanted) return structuredClone(user);
    }
    return undefined;
  }

  /** The members of a user group, or undefined when there is no such group. */
  usergroupMembers(groupId: string): string[] | undefined {
    const members = this.#usergroups.get(groupId);
    return members && [...members];
  }

  // ---- conversations --------------------------------------------------------------------

  /** The conversation, or undefined. */
  conversation(channelId: string): Conversation | undefined {
    const conversation = this.#conversations.get(channelId);
    return conversation && structuredClone(conversation);
  }

  /** Whether the user is a member of the conversation. */
  isMember(channelId: string, userId: string): boolean {
    return this.#conversations.get(channelId)?.members.includes(userId) ?? false;
  }

  /**
   * Adds a user (a person, or the app's bot) to a channel, as Slack's /invite does; false when
   * there is no such channel or they were already in it.
   */
  addMember(channelId: string, userId: string): boolean {
    const conversation = this.#conversations.get(channelId);
    if (!conversation || conversation.members.includes(userId)) return false;
    conversation.members.push(userId);
    return true;
  }

  /**
   * Takes a user out of a channel, as leaving it or Slack's /remove does; false when there is
   * no such channel or they were not in it.
   */
  removeMember(channelId: string, userId: string): boolean {
    const conversation = this.#conversations.get(channelId);
    const at = conversation?.members.indexOf(userId) ?? -1;
    if (!conversation || at < 0) return false;
    conversation.members.splice(at, 1);
    return true;
  }

  /**
   * Makes a channel public or private, as a workspace admin's "Change to a public channel"
   * does; false when there is no such channel, or it is a DM or a group DM.
   */
  setPrivate(channelId: string, isPrivate: boolean): boolean {
    const conversation = this.#conversations.get(channelId);
    if (!conversation || conversation.isIm || conversation.isMpim) return false;
    conversation.isPrivate = isPrivate;
    return true;
  }

  /**
   * Makes a channel both workspaces have one and the same, as an org-wide channel (or one
   * shared between an organization's workspaces) is on Grid: one id, one member list (both
   * workspaces' members), one history, whichever workspace's token reads or writes it. False
   * when either workspace lacks it.
   */
  shareConversation(channelId: string, other: Workspace): boolean {
    const mine = this.#conversations.get(channelId);
    const theirs = other.#conversations.get(channelId);
    if (!mine || !theirs || mine.isIm || theirs.isIm) return false;
    for (const member of mine.members) {
      if (!theirs.members.includes(member)) theirs.members.push(member);
    }
    this.#conversations.set(channelId, theirs);
    this.#messages.set(channelId, other.#messageList(channelId));
    let pins = other.#pins.get(channelId);
    if (!pins) {
      pins = [];
      other.#pins.set(channelId, pins);
    }
    this.#pins.set(channelId, pins);
    return true;
  }

  /** The DM between the bot and the user, made on first use; its `D...` id never changes. */
  openIm(userId: string): string {
    const id = `D${userId.replace(/^[UW]/, '')}${this.#imSuffix}`;
    if (!this.#conversations.has(id)) {
      this.#conversations.set(id, {
        id,
        name: id,
        created: Math.floor(this.#clock() / 1000),
        creator: userId,
        isPrivate: true,
        isIm: true,
        isMpim: false,
        isArchived: false,
        members: [userId, this.botUserId],
        imUser: userId,
      });
      this.#messages.set(id, []);
    }
    return id;
  }

  /** The group DM of the bot and these users, made on first use, with a stable `G...` id. */
  openMpim(userIds: readonly string[]): string {
    const members = [...new Set([...userIds, this.botUserId])].sort();
    const digest = createHash('sha256').update(members.join(',')).digest('hex');
    const id = `G${digest.slice(0, 10).toUpperCase()}`;
    if (!this.#conversations.has(id)) {
      const names = members.map((member) => this.#users.get(member)?.name ?? member);
      this.#conversations.set(id, {
        id,
        name: `mpdm-${names.join('--')}-1`,
        created: Math.floor(this.#clock() / 1000),
        creator: this.botUserId,
        isPrivate: true,
        isIm: false,
        isMpim: true,
        isArchived: false,
        members,
      });
      this.#messages.set(id, []);
    }
    return id;
  }

  // ---- unfurls --------------------------------------------------------------------------

  /** The app's `unfurl_domains` (lower case): links on them (or their subdomains) are shared. */
  get unfurlDomains(): readonly string[] {
    return [...this.#unfurlDomains];
  }

  /** Sets the app's `unfurl_domains`, as the manifest the admin pasted names them. */
  setUnfurlDomains(domains: readonly string[]): void {
    this.#unfurlDomains = domains.map((domain) => domain.toLowerCase());
  }

  /**
   * The links of a message's text on the unfurl domains, each once, in order, as Slack finds
   * them: `<https://…>` and `<https://…|label>` as clients send them, and bare URLs.
   */
  linksToUnfurl(text: string): { domain: string; url: string }[] {
    const found: { domain: string; url: string }[] = [];
    const seen = new Set<string>();
    for (const match of text.matchAll(
      /<(https?:\/\/[^>|\s]+)(?:\|[^>]*)?>|(https?:\/\/[^\s<>|]+)/g,
    )) {
      const url = match[1] ?? match[2];
      if (url === undefined || seen.has(url)) continue;
      let host: string;
      try {
        host = new URL(url).hostname.toLowerCase();
      } catch {
        continue;
      }
      const domain = this.#unfurlDomains.find((d) => host === d || host.endsWith(`.${d}`));
      if (domain === undefined) continue;
      seen.add(url);
      found.push({ domain, url });
    }
    return found;
  }

  /** Notes the links a message's link_shared named: only those may be unfurled on it. */
  noteSharedLinks(channelId: string, ts: string, urls: readonly string[]): void {
    this.#sharedLinks.set(`${channelId} ${ts}`, new Set(urls));
  }

  /** The links a message's link_shared named (none when there was no such event). */
  sharedLinks(channelId: string, ts: string): ReadonlySet<string> {
    return new Set(this.#sharedLinks.get(`${channelId} ${ts}`) ?? []);
  }

  // ---- messages -------------------------------------------------------------------------

  /**
   * Stores a message with a new ts. A reply (`thread_ts`) lands in the thread of the message it
   * names (the parent's thread when that is itself a reply) and updates the parent's
   * `reply_count`, `reply_users` and `latest_reply`.
   */
  postMessage(channelId: string, message: NewMessage): SlackMessage {
    const list = this.#messageList(channelId);
    const stored: SlackMessage = {
      type: 'message',
      ...structuredClone(message),
      ts: this.nextTs(),
    };
    if (stored.blocks) stored.blocks = withGeneratedIds(stored.blocks, () => this.newElementId());
    if (stored.thread_ts !== undefined) {
      const named = list.find((m) => m.ts === stored.thread_ts);
      const parent =
        named?.thread_ts !== undefined && named.thread_ts !== named.ts
          ? list.find((m) => m.ts === named.thread_ts)
          : named;
      if (parent) {
        stored.thread_ts = parent.ts;
        if (parent.user !== undefined) stored.parent_user_id = parent.user;
        parent.thread_ts = parent.ts;
        parent.reply_count = (parent.reply_count ?? 0) + 1;
        const author = stored.user ?? stored.bot_id ?? '';
        const repliers = new Set([...(parent.reply_users ?? []), author]);
        parent.reply_users = [...repliers].slice(0, 5);
        parent.reply_users_count = repliers.size;
        parent.latest_reply = stored.ts;
      }
    }
    list.push(stored);
    // Slack ends the pane's status when the app answers in the thread.
    const pane =
      stored.thread_ts !== undefined
        ? this.#assistantThreads.get(`${channelId}:${stored.thread_ts}`)
        : undefined;
    if (pane && stored.user === this.botUserId && pane.status !== '') {
      pane.status = '';
      pane.statuses.push('');
    }
    return structuredClone(stored);
  }

  // ---- Slack's AI pane ------------------------------------------------------------------

  /**
   * The user opens the app in Slack's AI pane (or a new chat there): a new thread in their DM
   * with the app, whose parent Slack posts as the app.
   */
  openAssistantThread(userId: string): AssistantThread {
    const channel = this.openIm(userId);
    const root = this.postMessage(channel, {
      user: this.botUserId,
      bot_id: this.botId,
      app_id: this.appId,
      text: 'New chat',
    });
    const thread: AssistantThread = {
      channel,
      threadTs: root.ts,
      userId,
      status: '',
      statuses: [],
      prompts: [],
    };
    this.#assistantThreads.set(`${channel}:${root.ts}`, thread);
    return structuredClone(thread);
  }

  /** A person's pane conversations, oldest first. */
  assistantThreadsOf(userId: string): AssistantThread[] {
    return structuredClone([...this.#assistantThreads.values()].filter((t) => t.userId === userId));
  }

  /** The pane's conversation of this thread, or undefined. */
  assistantThread(channelId: string, threadTs: string): AssistantThread | undefined {
    const found = this.#assistantThreads.get(`${channelId}:${threadTs}`);
    return found && structuredClone(found);
  }

  /** Changes what the pane shows of a conversation; false when there is no such conversation. */
  changeAssistantThread(
    channelId: string,
    threadTs: string,
    change:
      | { status: string }
      | { title: string }
      | { prompts: AssistantPrompt[]; promptsTitle?: string | undefined },
  ): boolean {
    const thread = this.#assistantThreads.get(`${channelId}:${threadTs}`);
    if (!thread) return false;
    if ('status' in change) {
      thread.status = change.status;
      thread.statuses.push(change.status);
    } else if ('title' in change) {
      thread.title = change.title;
    } else {
      thread.prompts = structuredClone(change.prompts);
      if (change.promptsTitle !== undefined) thread.promptsTitle = change.promptsTitle;
      else delete thread.promptsTitle;
    }
    return true;
  }

  /** The stored message, or undefined. */
  message(channelId: string, ts: string): SlackMessage | undefined {
    const found = this.#messages.get(channelId)?.find((m) => m.ts === ts);
    return found && structuredClone(found);
  }

  /** Every message of the channel, replies included, oldest first. */
  messages(channelId: string): SlackMessage[] {
    return structuredClone(this.#messages.get(channelId) ?? []);
  }

  /** The channel's history as Slack shows it: top-level messages and broadcasts, oldest first. */
  history(channelId: string): SlackMessage[] {
    return this.messages(channelId).filter(
      (m) => m.thread_ts === undefined || m.thread_ts === m.ts || m.subtype === 'thread_broadcast',
    );
  }

  /**
   * A thread, parent first then replies oldest first; `ts` may name the parent or any reply.
   * Undefined when no such message exists.
   */
  thread(channelId: string, ts: string): SlackMessage[] | undefined {
    const list = this.#messages.get(channelId) ?? [];
    const named = list.find((m) => m.ts === ts);
    if (!named) return undefined;
    const rootTs = named.thread_ts ?? named.ts;
    return structuredClone(list.filter((m) => m.ts === rootTs || m.thread_ts === rootTs));
  }

  /** Changes a stored message in place (text, blocks, metadata, edited...); undefined if absent. */
  updateMessage(
    channelId: string,
    ts: string,
    patch: Partial<NewMessage>,
  ): SlackMessage | undefined {
    const found = this.#messages.get(channelId)?.find((m) => m.ts === ts);
    if (!found) return undefined;
    Object.assign(found, structuredClone(patch));
    if (patch.blocks) found.blocks = withGeneratedIds(patch.blocks, () => this.newElementId());
    return structuredClone(found);
  }

  /** Removes a stored message; false when it was not there. */
  deleteMessage(channelId: string, ts: string): boolean {
    const list = this.#messages.get(channelId);
    const index = list?.findIndex((m) => m.ts === ts) ?? -1;
    if (!list || index < 0) return false;
    list.splice(index, 1);
    return true;
  }

  /** Adds a reaction by a user, as Slack does once per user and emoji. */
  addReaction(
    channelId: string,
    ts: string,
    name: string,
    userId: string,
  ): 'ok' | 'already_reacted' | 'message_not_found' {
    const found = this.#messages.get(channelId)?.find((m) => m.ts === ts);
    if (!found) return 'message_not_found';
    found.reactions ??= [];
    let reaction = found.reactions.find((r) => r.name === name);
    if (!reaction) {
      reaction = { name, users: [], count: 0 };
      found.reactions.push(reaction);
    }
    if (reaction.users.includes(userId)) return 'already_reacted';
    reaction.users.push(userId);
    reaction.count = reaction.users.length;
    return 'ok';
  }

  /**
   * Pins a message to its conversation, as `pins.add` does: at most once, and only a message
   * of that conversation.
   */
  pin(
    channelId: string,
    ts: string,
    userId: string,
  ): 'ok' | 'already_pinned' | 'message_not_found' {
    const found = this.#messages.get(channelId)?.find((m) => m.ts === ts);
    if (!found) return 'message_not_found';
    const pins = this.#pins.get(channelId) ?? [];
    if (pins.some((p) => p.ts === ts)) return 'already_pinned';
    pins.push({ ts, created: Math.floor(this.now() / 1000), createdBy: userId });
    this.#pins.set(channelId, pins);
    return 'ok';
  }

  /** Unpins a message, as `pins.remove` does; `no_pin` when it was not pinned. */
  unpin(channelId: string, ts: string): 'ok' | 'no_pin' {
    const pins = this.#pins.get(channelId) ?? [];
    const index = pins.findIndex((p) => p.ts === ts);
    if (index < 0) return 'no_pin';
    pins.splice(index, 1);
    return 'ok';
  }

  /** The conversation's pinned messages, newest pin first, as `pins.list` lists them. */
  pinned(channelId: string): { message: SlackMessage; created: number; createdBy: string }[] {
    const list = this.#messages.get(channelId) ?? [];
    return (this.#pins.get(channelId) ?? [])
      .map((pin) => ({ pin, message: list.find((m) => m.ts === pin.ts) }))
      .filter((found) => found.message !== undefined)
      .map(({ pin, message }) => ({
        message: structuredClone(message as SlackMessage),
        created: pin.created,
        createdBy: pin.createdBy,
      }))
      .reverse();
  }

  /** Every conversation the user is a member of, in the order they were made. */
  conversationsOf(userId: string): Conversation[] {
    return [...this.#conversations.values()]
      .filter((c) => c.members.includes(userId))
      .map((c) => structuredClone(c));
  }

  /** The message's permalink, with the thread for a reply; undefined when absent. */
  permalink(channelId: string, ts: string): string | undefined {
    const found = this.#messages.get(channelId)?.find((m) => m.ts === ts);
    if (!found) return undefined;
    const base = `https://${this.team.domain}.slack.com/archives/${channelId}/p${ts.replace('.', '')}`;
    const inThread = found.thread_ts !== undefined && found.thread_ts !== found.ts;
    return inThread ? `${base}?thread_ts=${found.thread_ts}&cid=${channelId}` : base;
  }

  /** Stores an ephemeral message for one user. */
  postEphemeral(message: Omit<EphemeralMessage, 'ts'>): EphemeralMessage {
    const stored: EphemeralMessage = { ...structuredClone(message), ts: this.nextTs() };
    if (stored.blocks) stored.blocks = withGeneratedIds(stored.blocks, () => this.newElementId());
    this.#ephemerals.push(stored);
    return structuredClone(stored);
  }

  /** Ephemeral messages, oldest first, optionally only one channel's or one user's. */
  ephemerals(filter: { channel?: string; user?: string } = {}): EphemeralMessage[] {
    return structuredClone(
      this.#ephemerals.filter(
        (e) =>
          (filter.channel === undefined || e.channel === filter.channel) &&
          (filter.user === undefined || e.user === filter.user),
      ),
    );
  }

  /** The ephemeral message with this ts, or undefined. */
  ephemeral(ts: string): EphemeralMessage | undefined {
    const found = this.#ephemerals.find((e) => e.ts === ts);
    return found && structuredClone(found);
  }

  /** Replaces an ephemeral message's content (a `replace_original` through its response_url). */
  replaceEphemeral(ts: string, content: { text: string; blocks?: unknown[] }): boolean {
    const found = this.#ephemerals.find((e) => e.ts === ts);
    if (!found) return false;
    found.text = content.text;
    if (content.blocks) found.blocks = withGeneratedIds(content.blocks, () => this.newElementId());
    else delete found.blocks;
    return true;
  }

  /** Removes an ephemeral message (a `delete_original` through its response_url). */
  deleteEphemeral(ts: string): boolean {
    const index = this.#ephemerals.findIndex((e) => e.ts === ts);
    if (index < 0) return false;
    this.#ephemerals.splice(index, 1);
    return true;
  }

  #messageList(channelId: string): SlackMessage[] {
    let list = this.#messages.get(channelId);
    if (!list) {
      list = [];
      this.#messages.set(channelId, list);
    }
    return list;
  }

  // ---- trigger ids ----------------------------------------------------------------------

  /** A new trigger id for an interaction by this user, as Slack puts in interactive payloads. */
  issueTrigger(userId: string): string {
    this.#triggerCount += 1;
    const id = `${Math.floor(this.#clock() / 1000)}${this.#triggerCount}.${this.team.id.slice(1)}.${randomBytes(16).toString('hex')}`;
    this.#triggers.set(id, { userId, issuedAt: this.#clock(), exchanged: false });
    return id;
  }

  /** Whether this workspace issued the trigger id (spent or not): an org-wide token acts here. */
  issuedTrigger(triggerId: string): boolean {
    return this.#triggers.has(triggerId);
  }

  /** Spends a trigger id: the user it was issued to, or why Slack would refuse it. */
  exchangeTrigger(triggerId: string): { userId: string } | { refusal: TriggerRefusal } {
    const trigger = this.#triggers.get(triggerId);
    if (!trigger) return { refusal: 'invalid_trigger_id' };
    if (trigger.exchanged) return { refusal: 'exchanged_trigger_id' };
    if (this.#clock() - trigger.issuedAt > this.triggerTtlMs) {
      return { refusal: 'expired_trigger_id' };
    }
    trigger.exchanged = true;
    return { userId: trigger.userId };
  }

  // ---- views ----------------------------------------------------------------------------

  #newView(input: ViewInput, ids: { id?: string; root?: string | null; previous?: string | null }) {
    const id = ids.id ?? newSlackId('V');
    const view: SlackView = {
      id,
      team_id: this.team.id,
      type: input.type,
      title: input.title ?? null,
      close: input.close ?? null,
      submit: input.submit ?? null,
      blocks: withGeneratedIds(input.blocks, () => this.newElementId()),
      private_metadata: input.private_metadata ?? '',
      callback_id: input.callback_id ?? '',
      external_id: input.external_id ?? '',
      state: { values: {} },
      hash: `${Math.floor(this.#clock() / 1000)}.${randomBytes(4).toString('hex')}`,
      clear_on_close: input.clear_on_close ?? false,
      notify_on_close: input.notify_on_close ?? false,
      submit_disabled: input.submit_disabled ?? false,
      root_view_id: ids.root === undefined ? id : ids.root,
      previous_view_id: ids.previous ?? null,
      app_id: this.appId,
      app_installed_team_id: this.team.id,
      bot_id: this.botId,
    };
    return view;
  }

  /** Opens a modal for the user: a new stack with this view at its root. */
  openModal(userId: string, input: ViewInput): SlackView {
    const view = this.#newView(input, {});
    this.#views.set(view.id, { view, userId });
    this.#modalStacks.set(userId, [view.id]);
    return structuredClone(view);
  }

  /** Pushes a modal onto the user's stack; Slack allows three views in a stack. */
  pushModal(userId: string, input: ViewInput): SlackView | 'push_limit_reached' {
    const stack = this.#modalStacks.get(userId) ?? [];
    if (stack.length >= MAX_MODAL_STACK) return 'push_limit_reached';
    const top = stack.at(-1);
    const root = stack[0];
    const view = this.#newView(input, { root: root ?? null, previous: top ?? null });
    if (root === undefined) view.root_view_id = view.id;
    this.#views.set(view.id, { view, userId });
    this.#modalStacks.set(userId, [...stack, view.id]);
    return structuredClone(view);
  }

  /** Replaces a view's content, keeping its id and place in the stack, with a new hash. */
  updateView(viewId: string, input: ViewInput): SlackView | undefined {
    const record = this.#views.get(viewId);
    if (!record) return undefined;
    const old = record.view;
    const view = this.#newView(
      { ...input, external_id: input.external_id ?? old.external_id },
      { id: old.id, root: old.root_view_id, previous: old.previous_view_id },
    );
    record.view = view;
    return structuredClone(view);
  }

  /** Records what the user has entered in the view (before a submission or an action). */
  setViewState(viewId: string, values: ViewStateValues): void {
    const record = this.#views.get(viewId);
    if (record) record.view.state = { values: structuredClone(values) };
  }

  /** Closes a modal and any pushed above it. */
  closeView(viewId: string): void {
    const record = this.#views.get(viewId);
    if (!record) return;
    const stack = this.#modalStacks.get(record.userId) ?? [];
    const index = stack.indexOf(viewId);
    if (index >= 0) this.#modalStacks.set(record.userId, stack.slice(0, index));
  }

  /** Closes every modal the user has open (`response_action: clear`). */
  clearModals(userId: string): void {
    this.#modalStacks.set(userId, []);
  }

  /** Publishes the user's App Home; the home view keeps its id across publishes. */
  publishHome(userId: string, input: ViewInput): SlackView {
    const existing = this.#homeViews.get(userId);
    const view = this.#newView(input, existing ? { id: existing } : {});
    this.#views.set(view.id, { view, userId });
    this.#homeViews.set(userId, view.id);
    return structuredClone(view);
  }

  /** A view by id, or undefined. */
  view(viewId: string): SlackView | undefined {
    const record = this.#views.get(viewId);
    return record && structuredClone(record.view);
  }

  /** The user a view belongs to, or undefined. */
  viewOwner(viewId: string): string | undefined {
    return this.#views.get(viewId)?.userId;
  }

  /** A view by the app's `external_id`, or undefined. */
  viewByExternalId(externalId: string): SlackView | undefined {
    for (const { view } of this.#views.values()) {
      if (view.external_id === externalId) return structuredClone(view);
    }
    return undefined;
  }

  /** The user's open modals, root first. */
  modalStack(userId: string): SlackView[] {
    const stack = this.#modalStacks.get(userId) ?? [];
    return stack.flatMap((id) => {
      const record = this.#views.get(id);
      return record ? [structuredClone(record.view)] : [];
    });
  }

  /** The user's published App Home, or undefined. */
  homeView(userId: string): SlackView | undefined {
    const id = this.#homeViews.get(userId);
    return id === undefined ? undefined : this.view(id);
  }
}

/** Compares two message timestamps numerically: negative when `a` is older. */
export function compareTs(a: string, b: string): number {
  return tsToMicros(a) - tsToMicros(b);
}

/** A client message id, as Slack's clients put on what people type. */
export function newClientMessageId(): string {
  return randomUUID();
}

/**
 * Where each conversation and person lives, for an app installed in several workspaces of an
 * Enterprise Grid organization. Grid's channel and user ids are unique across the organization,
 * so the id a Slack call names tells the workspace whose token must make it. Every request
 * tells us one: its channel and its user live in the workspace it came from (the recorder
 * below). The store (`ConversationHomes`) is read through a small in-process copy, so a call
 * costs no Redis read most of the time, and written only with what is new or changed.
 */
import type { AnyMiddlewareArgs, Middleware } from '@slack/bolt';
import type { Logger } from 'pino';
import type { Now } from '../../clock.ts';
import type {
  ChannelModeStore,
  ConversationHomes,
  ThreadLinks,
  TriageChannels,
} from '../../store/types.ts';

// How long a home read from the store is trusted: another replica may note a person anew in
// another workspace; a stale home only means one call made with the other token first.
const KNOWN_KEPT_MS = 60_000;
// An id with no home is asked again soon: the triage channel just set in another replica.
const UNKNOWN_KEPT_MS = 2_000;
// How long a home written is not written again (a replica may have changed it meanwhile).
const WRITTEN_KEPT_MS = 10 * 60_000;
// Ids kept in memory before the copy starts afresh: an organization's channels and people.
const MAX_KEPT = 20_000;

interface Kept {
  home: string | undefined;
  readAt: number;
  writtenAt?: number;
}

/** The homes of conversations and people, read through an in-process copy. */
export class ConversationHomeBook {
  readonly #store: ConversationHomes;
  readonly #now: Now;
  readonly #kept = new Map<string, Kept>();

  constructor(options: { homes: ConversationHomes; now?: Now }) {
    this.#store = options.homes;
    this.#now = options.now ?? Date.now;
  }

  /** Notes that `id` lives in `workspace`; writes only what is new or changed. */
  async note(id: string, workspace: string): Promise<void> {
    const now = this.#now();
    const kept = this.#kept.get(id);
    if (
      kept?.home === workspace &&
      kept.writtenAt !== undefined &&
      now - kept.writtenAt < WRITTEN_KEPT_MS
    ) {
      return;
    }
    // Seen by this process's calls at once; marked written only once the store has it, so a
    // failed write is tried again with the next request.
    this.#keep(id, { home: workspace, readAt: now });
    await this.#store.note(id, workspace);
    this.#keep(id, { home: workspace, readAt: now, writtenAt: now });
  }

  /** The workspace `id` lives in, if known. */
  async homeOf(id: string): Promise<string | undefined> {
    const now = this.#now();
    const kept = this.#kept.get(id);
    if (kept && now - kept.readAt < (kept.home ? KNOWN_KEPT_MS : UNKNOWN_KEPT_MS)) {
      return kept.home;
    }
    const home = await this.#store.homeOf(id);
    this.#keep(id, {
      home,
      readAt: now,
      ...(kept && kept.home === home && kept.writtenAt !== undefined
        ? { writtenAt: kept.writtenAt }
        : {}),
    });
    return home;
  }

  /** Notes `workspace` as the home of each id that has none yet (records made before homes). */
  async adopt(ids: readonly string[], workspace: string): Promise<number> {
    const noted = await this.#store.adopt(ids, workspace);
    for (const id of ids) this.#kept.delete(id);
    return noted;
  }

  /** Forgets the homes in `workspace` (it uninstalled the app); the ids that lived there. */
  async forget(workspace: string): Promise<string[]> {
    const ids = await this.#store.forget(workspace);
    for (const [id, kept] of this.#kept) if (kept.home === workspace) this.#kept.delete(id);
    for (const id of ids) this.#kept.delete(id);
    return ids;
  }

  #keep(id: string, kept: Kept): void {
    if (this.#kept.size >= MAX_KEPT && !this.#kept.has(id)) this.#kept.clear();
    this.#kept.set(id, kept);
  }
}

/** The conversation and the person a request names, as far as its body tells them. */
export function conversationAndUserOf(body: unknown): { channel?: string; user?: string } {
  const b = body as Record<string, unknown> | null;
  if (!b || typeof b !== 'object') return {};
  const found: { channel?: string; user?: string } = {};
  const event = b.event as Record<string, unknown> | undefined;
  if (event && typeof event === 'object') {
    const channel = event.channel;
    const item = event.item as Record<string, unknown> | undefined;
    const id =
      typeof channel === 'string'
        ? channel
        : typeof (channel as { id?: unknown } | undefined)?.id === 'string'
          ? (channel as { id: string }).id
          : typeof item?.channel === 'string'
            ? item.channel
            : undefined;
    if (id) found.channel = id;
    if (typeof event.user === 'string') found.user = event.user;
    return found;
  }
  // A slash command.
  if (typeof b.channel_id === 'string') found.channel = b.channel_id;
  if (typeof b.user_id === 'string') found.user = b.user_id;
  // An interaction (an action, a shortcut, a view, an options request).
  const channel = (b.channel as { id?: unknown } | undefined)?.id;
  if (typeof channel === 'string') found.channel = channel;
  const container = (b.container as { channel_id?: unknown } | undefined)?.channel_id;
  if (!found.channel && typeof container === 'string') found.channel = container;
  const user = (b.user as { id?: unknown } | undefined)?.id;
  if (typeof user === 'string') found.user = user;
  return found;
}

// A Slack id of a conversation or a person (C, G, D; U, W), not a name or anything else.
const SLACK_ID = /^[CGDUW][A-Z0-9]{2,}$/;

/**
 * Bolt global middleware (OAuth mode): notes the conversation and the person of each request
 * as living in the workspace it came from (the installation `authorize` found: the team, or
 * the organization for an org-wide install). A failed note is logged and the request goes on:
 * a home is a hint for later work, never a reason to refuse a person.
 */
export function recordHomes(
  book: ConversationHomeBook,
  logger: Logger,
): Middleware<AnyMiddlewareArgs> {
  return async ({ body, context, next }) => {
    const workspace = context.isEnterpriseInstall
      ? context.enterpriseId
      : (context.teamId ?? context.enterpriseId);
    if (workspace) {
      const { channel, user } = conversationAndUserOf(body);
      const ids = [channel, user ?? context.userId].filter(
        (id): id is string => typeof id === 'string' && SLACK_ID.test(id),
      );
      try {
        for (const id of ids) await book.note(id, workspace);
      } catch (error) {
        logger.warn(
          { err: error, workspace },
          'conversation home not noted; later work may use another token',
        );
      }
    }
    await next();
  };
}

/**
 * Every channel today's records name: thread links, triage channels set by command and channel
 * modes. Not the triage channels of DESK_TRIAGE_CHANNELS: configuration is no sign of where a
 * channel lives (it may name another workspace's), so their home is found by asking Slack
 * (`InstalledTokens.locate`).
 */
export async function channelsOfRecords(stores: {
  links: Pick<ThreadLinks, 'channels'>;
  triageChannels: Pick<TriageChannels, 'all'>;
  channelModes: Pick<ChannelModeStore, 'channels'>;
}): Promise<string[]> {
  const [linked, triage, modes] = await Promise.all([
    stores.links.channels(),
    stores.triageChannels.all(),
    stores.channelModes.channels(),
  ]);
  const set = triage.filter((each) => each.origin !== 'default').map((each) => each.channel);
  return [...new Set([...linked, ...set, ...modes])].sort();
}

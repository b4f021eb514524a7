/**
 * Desk agents by triage channel: a member of a desk's private triage channel is an agent of that
 * desk, alongside AGENT_EMAILS and the agents' user group. Whoever can read a ticket's internal
 * notes in Slack (its triage thread's channel) may write them and use the card's buttons there.
 *
 * Which channels count for a ticket: the channels of its triage threads (the links), the triage
 * channel its desk routes to (its own, else its nearest parent desk's as far as the desks kept at
 * hand say, else the catch-all's) when the desk is known, and the channel a click or reply came
 * from when that channel is a triage channel. Each counts only
 * while Slack says it is private (`TriageChannelPrivacy`): a public channel makes nobody an agent.
 *
 * Members are read with `conversations.members` (Slack's Tier 4) once per channel per `ttlMs`
 * (default 5 min), one read at a time per channel, and kept current in between by
 * `member_joined_channel` and `member_left_channel`: a person who leaves loses the right at once.
 * A failed read is not kept: the caller sees Slack's error.
 */
import type { WebClient } from '@slack/web-api';
import { deskTriageEntry } from '../../store/triage-rules.ts';
import { type Stores, TRIAGE_CATCH_ALL, type TriageChannel } from '../../store/types.ts';
import type { AgentScope, DeskChannels, Desks, TriageMembers } from '../deps.ts';
import type { TriageChannelPrivacy } from '../triage/channel-privacy.ts';

/** Options of the membership. */
export interface TriageMembershipOptions {
  client: Pick<WebClient, 'conversations'>;
  stores: Pick<Stores, 'links' | 'triageChannels'>;
  privacy: Pick<TriageChannelPrivacy, 'privacy'>;
  /** The platform's desks as kept (a subdesk's ticket routes to its parent's channel). */
  desks?: Pick<Desks, 'peek'> | undefined;
  /** How long a channel's members are kept between reads (default 5 min). */
  ttlMs?: number;
  /** How long the list of triage channels is kept (default 5 s). */
  channelsTtlMs?: number;
  /** Most pages of members read per channel (default 20, 20,000 people). */
  maxPages?: number;
  now?: () => number;
}

const PAGE = 1_000;

/** Whether the error is the Web API client's (Slack answered an error, or could not be reached). */
function isSlackError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('slack_');
}

/** Keeps triage channels' members and answers who is a desk agent; see the file comment. */
export class TriageMembership implements TriageMembers {
  readonly #client: TriageMembershipOptions['client'];
  readonly #stores: TriageMembershipOptions['stores'];
  readonly #privacy: TriageMembershipOptions['privacy'];
  readonly #desks: TriageMembershipOptions['desks'];
  readonly #ttlMs: number;
  readonly #channelsTtlMs: number;
  readonly #maxPages: number;
  readonly #now: () => number;
  readonly #members = new Map<string, { at: number; members: Promise<Set<string>> }>();
  #channels: { at: number; list: Promise<TriageChannel[]> } | undefined;

  constructor(options: TriageMembershipOptions) {
    this.#client = options.client;
    this.#stores = options.stores;
    this.#privacy = options.privacy;
    this.#desks = options.desks;
    this.#ttlMs = options.ttlMs ?? 5 * 60_000;
    this.#channelsTtlMs = options.channelsTtlMs ?? 5_000;
    this.#maxPages = options.maxPages ?? 20;
    this.#now = options.now ?? Date.now;
  }

  /** Whether the person is a member of a private triage channel of the ticket; see the file comment. */
  async isDeskAgent(userId: string, scope: AgentScope): Promise<boolean> {
    for (const channel of await this.#channelsOf(scope)) {
      if (!(await this.members(channel)).has(userId)) continue;
      if ((await this.#privacy.privacy(channel)) === 'private') return true;
    }
    return false;
  }

  /**
   * The private triage channels the person is a member of, and where each desk's tickets go:
   * the desks of an agent's queue. One members read per triage channel, kept as any other.
   */
  async deskChannels(userId: string): Promise<DeskChannels> {
    const list = await this.#channelList();
    const channels = new Set<string>();
    for (const channel of new Set(list.map((entry) => entry.channel))) {
      try {
        if (!(await this.members(channel)).has(userId)) continue;
        if ((await this.#privacy.privacy(channel)) === 'private') channels.add(channel);
      } catch (error) {
        // A channel Slack will not list (the app removed from it, archived): it makes nobody a
        // desk agent, and the person's other channels still count.
        if (!isSlackError(error)) throw error;
      }
    }
    const parents = this.#parents();
    const catchAll = list.find((entry) => entry.desk === TRIAGE_CATCH_ALL)?.channel;
    return {
      channels,
      routedTo: (deskId) => deskTriageEntry(list, deskId, parents)?.channel ?? catchAll,
    };
  }

  /** The channel's members, at most `ttlMs` old and with every join and leave since applied. */
  members(channel: string): Promise<ReadonlySet<string>> {
    const kept = this.#members.get(channel);
    if (kept && this.#now() - kept.at < this.#ttlMs) return kept.members;
    const members = this.#read(channel);
    this.#members.set(channel, { at: this.#now(), members });
    members.catch(() => {
      if (this.#members.get(channel)?.members === members) this.#members.delete(channel);
    });
    return members;
  }

  /** Adds a person to the kept members of a channel (`member_joined_channel`). */
  joined(channel: string, userId: string): void {
    this.#apply(channel, (members) => members.add(userId));
  }

  /** Takes a person out of the kept members of a channel (`member_left_channel`). */
  left(channel: string, userId: string): void {
    this.#apply(channel, (members) => members.delete(userId));
  }

  // Applied after a read under way too, so a join or leave during the read is not lost.
  #apply(channel: string, change: (members: Set<string>) => unknown): void {
    const kept = this.#members.get(channel);
    if (!kept) return;
    kept.members = kept.members.then((members) => {
      change(members);
      return members;
    });
    kept.members.catch(() => {
      if (this.#members.get(channel) === kept) this.#members.delete(channel);
    });
  }

  async #read(channel: string): Promise<Set<string>> {
    const members = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; page < this.#maxPages; page++) {
      const answer = await this.#client.conversations.members({
        channel,
        limit: PAGE,
        ...(cursor ? { cursor } : {}),
      });
      for (const id of answer.members ?? []) members.add(id);
      cursor = answer.response_metadata?.next_cursor || undefined;
      if (!cursor) break;
    }
    return members;
  }

  /** The triage channels whose members are the ticket's desk agents; see the file comment. */
  async #channelsOf(scope: AgentScope): Promise<Set<string>> {
    const channels = new Set<string>();
    for (const thread of await this.#stores.links.threadsForTicket(scope.ticketId)) {
      if (thread.triage) channels.add(thread.channel);
    }
    const list = await this.#channelList();
    const routed =
      scope.deskId === undefined
        ? undefined
        : (deskTriageEntry(list, scope.deskId, this.#parents()) ??
          list.find((entry) => entry.desk === TRIAGE_CATCH_ALL));
    if (routed) channels.add(routed.channel);
    // Where the click or reply came from: a triage channel (its desk's, when the desk is known).
    const from = scope.channel;
    if (from && (routed ? routed.channel === from : list.some((e) => e.channel === from))) {
      channels.add(from);
    }
    return channels;
  }

  /** Each subdesk's parent, from the desks kept at hand (no read of its own: a check waits on none). */
  #parents(): Map<string, string> | undefined {
    const desks = this.#desks?.peek();
    if (!desks) return undefined;
    return new Map(
      desks.flatMap((desk) => (desk.parent_slug ? [[desk.slug, desk.parent_slug]] : [])),
    );
  }

  #channelList(): Promise<TriageChannel[]> {
    const now = this.#now();
    if (!this.#channels || now - this.#channels.at >= this.#channelsTtlMs) {
      const list = this.#stores.triageChannels.all();
      this.#channels = { at: now, list };
      list.catch(() => {
        if (this.#channels?.list === list) this.#channels = undefined;
      });
    }
    return this.#channels.list;
  }
}

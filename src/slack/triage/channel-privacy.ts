/**
 * Whether a triage channel is private, as Slack's `conversations.info` says, kept a short while
 * (default 2 minutes) so a channel made public stops receiving cards and notes within that time.
 * A triage channel carries every ticket's text and every internal note, so only a private
 * channel the app is in may be one. Slack sends no event when a private channel is made public
 * (its Events API description lists none), so the kept answer is the only thing that ages.
 *
 * A failed look (a 429, a 500, a network error) is not kept and not guessed at: the caller
 * learns it failed and posts nothing (fail closed), and asks again later.
 */
import type { WebClient } from '@slack/web-api';

/** What the app may do with a triage channel: post (`private`), or nothing. */
export type ChannelPrivacy =
  /** Private, and the app is in it. */
  | 'private'
  /** Anyone in the workspace can read it: no card or note goes there. */
  | 'public'
  /** The app is not in it, it was archived, or Slack does not show it to the app. */
  | 'absent';

/** Options of the privacy check. */
export interface TriageChannelPrivacyOptions {
  client: Pick<WebClient, 'conversations'>;
  /** How long an answer is kept (default 2 min). */
  ttlMs?: number;
  now?: () => number;
}

// Slack's answers meaning the app cannot use the channel: a fact, not a failure.
const ABSENT = new Set(['channel_not_found', 'not_in_channel', 'is_archived']);

/** Tells private triage channels from the others; see the file comment. */
export class TriageChannelPrivacy {
  readonly #client: TriageChannelPrivacyOptions['client'];
  readonly #ttlMs: number;
  readonly #now: () => number;
  readonly #kept = new Map<string, { at: number; privacy: Promise<ChannelPrivacy> }>();

  constructor(options: TriageChannelPrivacyOptions) {
    this.#client = options.client;
    this.#ttlMs = options.ttlMs ?? 2 * 60_000;
    this.#now = options.now ?? Date.now;
  }

  /** The channel's privacy, at most `ttlMs` old; rejects with Slack's error when it cannot tell. */
  privacy(channel: string): Promise<ChannelPrivacy> {
    const kept = this.#kept.get(channel);
    if (kept && this.#now() - kept.at < this.#ttlMs) return kept.privacy;
    const privacy = this.#ask(channel);
    this.#kept.set(channel, { at: this.#now(), privacy });
    // A failed look is not kept: the next post asks again.
    privacy.catch(() => {
      if (this.#kept.get(channel)?.privacy === privacy) this.#kept.delete(channel);
    });
    return privacy;
  }

  async #ask(channel: string): Promise<ChannelPrivacy> {
    try {
      const info = await this.#client.conversations.info({ channel });
      return privacyOf(info.channel);
    } catch (error) {
      const code = (error as { data?: { error?: string } } | null)?.data?.error;
      if (code && ABSENT.has(code)) return 'absent';
      throw error;
    }
  }
}

/** The privacy of a conversation object as `conversations.info` returns it. */
export function privacyOf(conversation: unknown): ChannelPrivacy {
  const found = conversation as
    | { is_member?: unknown; is_private?: unknown; is_archived?: unknown }
    | undefined;
  // Anything short of Slack saying "private" is public: fail closed.
  if (found?.is_private !== true) return 'public';
  if (found.is_member !== true || found.is_archived === true) return 'absent';
  return 'private';
}

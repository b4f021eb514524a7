/**
 * The Slack side of the mirror: posts ticket messages and changes into linked threads and
 * tells requesters when their ticket is resolved or closed. Every post carries metadata
 * `{ticket_id, message_id}`, so the app recognises its own posts and can find one again after
 * a crash between posting and recording it.
 */
import type { ChatPostMessageArguments, WebClient } from '@slack/web-api';
import type { MirrorPoster, PostOutcome, RequesterNotice, TicketChange } from '../mirror/types.ts';
import type { Message } from '../servicedesk/schemas.ts';
import type { Thread } from '../store/types.ts';
import type { SlackMessage } from './builders/ticket-card-builder.ts';
import {
  buildRequesterNotice,
  buildTicketChangeLine,
  buildTicketMessagePost,
} from './builders/ticket-message-builder.ts';
import { isConversationUnavailable, sendDm } from './slack-posting.ts';

/** The metadata event type of the app's posts about a ticket. */
export const TICKET_EVENT_TYPE = 'servicedesk_ticket';

/** Slack errors meaning "no such person", for a requester the workspace does not know. */
const UNKNOWN_PERSON = new Set(['users_not_found', 'user_not_found', 'user_disabled']);
// How many pages of a thread are read looking for an earlier post (200 replies each).
const MAX_REPLY_PAGES = 5;

/** What the poster needs. */
export interface SlackMirrorPosterOptions {
  client: WebClient;
  /** Told the status the mirror saw, so a reply to a closed ticket is refused without asking. */
  onStatus?: (ticketId: string, status: string) => void;
}

/** Metadata naming the ticket and the platform item (message or activity) a post is about. */
export function mirrorMetadata(
  ticketId: string,
  itemId: string,
): ChatPostMessageArguments['metadata'] {
  return {
    event_type: TICKET_EVENT_TYPE,
    event_payload: { ticket_id: ticketId, message_id: itemId },
  };
}

function slackError(error: unknown): string | undefined {
  return (error as { data?: { error?: string } } | null)?.data?.error;
}

/** Posts for the mirror through the Slack Web API. */
export class SlackMirrorPoster implements MirrorPoster {
  readonly #client: WebClient;
  readonly #onStatus: ((ticketId: string, status: string) => void) | undefined;

  constructor(options: SlackMirrorPosterOptions) {
    this.#client = options.client;
    this.#onStatus = options.onStatus;
  }

  postMessage(thread: Thread, ticketId: string, message: Message): Promise<PostOutcome> {
    return this.#post(thread, buildTicketMessagePost(ticketId, message), ticketId, message.id);
  }

  postChange(thread: Thread, change: TicketChange): Promise<PostOutcome> {
    const { activity } = change;
    if (activity.type === 'status_changed' && activity.to) {
      this.#onStatus?.(change.ticketId, activity.to);
    }
    return this.#post(
      thread,
      buildTicketChangeLine(change.ticketId, activity),
      change.ticketId,
      activity.id,
    );
  }

  async notifyRequester(notice: RequesterNotice): Promise<PostOutcome> {
    let userId: string | undefined;
    try {
      const found = await this.#client.users.lookupByEmail({ email: notice.requesterEmail });
      userId = found.user?.id;
    } catch (error) {
      const code = slackError(error);
      if (code && UNKNOWN_PERSON.has(code)) return 'gone';
      throw error;
    }
    if (!userId) return 'gone';
    const message = buildRequesterNotice(notice.ticketId, notice.status, notice.ticket?.title);
    try {
      await sendDm(
        this.#client,
        userId,
        message,
        mirrorMetadata(notice.ticketId, notice.activityId),
      );
    } catch (error) {
      if (isConversationUnavailable(error)) return 'gone';
      throw error;
    }
    return 'posted';
  }

  async findPosted(thread: Thread, ticketId: string, itemId: string): Promise<boolean> {
    let cursor: string | undefined;
    for (let page = 0; page < MAX_REPLY_PAGES; page++) {
      const replies = await this.#client.conversations.replies({
        channel: thread.channel,
        ts: thread.threadTs,
        include_all_metadata: true,
        limit: 200,
        ...(cursor ? { cursor } : {}),
      });
      const found = (replies.messages ?? []).some((reply) => {
        const metadata = reply.metadata as
          | { event_type?: string; event_payload?: Record<string, unknown> }
          | undefined;
        return (
          metadata?.event_type === TICKET_EVENT_TYPE &&
          metadata.event_payload?.ticket_id === ticketId &&
          metadata.event_payload?.message_id === itemId
        );
      });
      if (found) return true;
      cursor = replies.response_metadata?.next_cursor || undefined;
      if (!cursor) return false;
    }
    return false;
  }

  async #post(
    thread: Thread,
    message: SlackMessage,
    ticketId: string,
    itemId: string,
  ): Promise<PostOutcome> {
    try {
      await this.#client.chat.postMessage({
        channel: thread.channel,
        thread_ts: thread.threadTs,
        ...message,
        metadata: mirrorMetadata(ticketId, itemId),
        unfurl_links: false,
        unfurl_media: false,
      });
      return 'posted';
    } catch (error) {
      if (isConversationUnavailable(error)) return 'gone';
      throw error;
    }
  }
}

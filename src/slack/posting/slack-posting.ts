/** Posting helpers with the fallbacks a person expects: a DM when a channel cannot take it. */

import type { ChatPostMessageArguments, WebClient } from '@slack/web-api';
import type { SlackMessage } from '../builders/ticket-card-builder.ts';
import { DmNotOpenedError, slackErrorOf } from '../errors.ts';
import { postMetadata, type ThreadMessage } from './post-metadata.ts';

// Slack errors meaning "this conversation will not take the app's message".
const UNAVAILABLE = new Set([
  'not_in_channel',
  'channel_not_found',
  'is_archived',
  'restricted_action',
  'restricted_action_read_only_channel',
  'restricted_action_thread_only_channel',
  'restricted_action_non_threadable_channel',
  'ekm_access_denied',
]);

/** Whether a Slack error says the conversation cannot take the app's message. */
export function isConversationUnavailable(error: unknown): boolean {
  const slackError = slackErrorOf(error);
  return slackError !== undefined && UNAVAILABLE.has(slackError);
}

/** Whether a Slack error says the message to change is gone (deleted) or not the app's. */
export function isMessageGone(error: unknown): boolean {
  const code = slackErrorOf(error);
  return code === 'message_not_found' || code === 'cant_update_message';
}

/**
 * Whether the app is a member of a conversation, and so hears the replies in its threads:
 * false when it is not (with `chat:write.public` Slack would still take a post in a public
 * channel, but a reply there would never reach the ticket), undefined when Slack will not say
 * (a missing scope), in which case the post itself is the test.
 */
export async function appIsIn(client: WebClient, channel: string): Promise<boolean | undefined> {
  // A user id stands for the app's own direct message with that person.
  if (/^[UWD]/.test(channel)) return true;
  try {
    const info = await client.conversations.info({ channel });
    const conversation = info.channel as { is_member?: boolean; is_im?: boolean } | undefined;
    return conversation?.is_im === true || conversation?.is_member === true;
  } catch (error) {
    const code = slackErrorOf(error);
    if (code === 'channel_not_found') return false;
    if (code === 'missing_scope') return undefined;
    throw error;
  }
}

/** A message's permalink, or undefined when Slack does not give one: a link is never worth a failure. */
export function permalinkOf(
  client: Pick<WebClient, 'chat'>,
  channel: string,
  ts: string,
): Promise<string | undefined> {
  return client.chat
    .getPermalink({ channel, message_ts: ts })
    .then((r) => r.permalink)
    .catch(() => undefined);
}

/** Opens (or finds) the app's direct message with a person. */
export async function openDm(client: WebClient, userId: string): Promise<string> {
  const opened = await client.conversations.open({ users: userId });
  const id = opened.channel?.id;
  if (!id) throw new DmNotOpenedError();
  return id;
}

/** Sends a direct message from the app to a person; returns where it landed. */
export async function sendDm(
  client: WebClient,
  userId: string,
  message: SlackMessage,
  metadata?: ChatPostMessageArguments['metadata'],
): Promise<{ channel: string; ts: string }> {
  const channel = await openDm(client, userId);
  const posted = await client.chat.postMessage({
    channel,
    ...message,
    ...(metadata ? { metadata } : {}),
  });
  return { channel, ts: posted.ts as string };
}

/** Where one of the app's posts about a ticket was found. */
export interface FoundPost {
  channel: string;
  ts: string;
  /** The thread it is in, or its own ts when it starts one. */
  threadTs: string;
}

// Recent messages searched for an earlier post: a retry comes minutes after it, not days.
const SEARCH_LIMIT = 100;

/**
 * The app's own post about `ticketId` (its card or thread confirmation, not a mirrored
 * message) in a thread, or among a conversation's recent messages; undefined when there is
 * none. Asked only before posting again what an earlier run may already have posted.
 */
export async function findTicketPost(
  client: WebClient,
  where: { channel: string; threadTs?: string | undefined },
  ticketId: string,
): Promise<FoundPost | undefined> {
  const page = where.threadTs
    ? await client.conversations.replies({
        channel: where.channel,
        ts: where.threadTs,
        include_all_metadata: true,
        limit: SEARCH_LIMIT,
      })
    : await client.conversations.history({
        channel: where.channel,
        include_all_metadata: true,
        limit: SEARCH_LIMIT,
      });
  const found = ((page.messages ?? []) as ThreadMessage[]).find((message) => {
    const post = postMetadata(message);
    return post?.ticketId === ticketId && post.itemId === undefined;
  });
  if (!found?.ts) return undefined;
  return { channel: where.channel, ts: found.ts, threadTs: where.threadTs ?? found.ts };
}

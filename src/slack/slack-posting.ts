/** Posting helpers with the fallbacks a person expects: a DM when a channel cannot take it. */
import type { ChatPostMessageArguments, WebClient } from '@slack/web-api';
import type { SlackMessage } from './builders/ticket-card-builder.ts';

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
  const slackError = (error as { data?: { error?: string } } | null)?.data?.error;
  return slackError !== undefined && UNAVAILABLE.has(slackError);
}

/** Metadata that marks a message as the app's own post about a ticket (never echoed back). */
export function ticketMetadata(ticketId: string): ChatPostMessageArguments['metadata'] {
  return { event_type: 'servicedesk_ticket', event_payload: { ticket_id: ticketId } };
}

/** Opens (or finds) the app's direct message with a person. */
export async function openDm(client: WebClient, userId: string): Promise<string> {
  const opened = await client.conversations.open({ users: userId });
  const id = opened.channel?.id;
  if (!id) throw new Error('conversations.open returned no channel id');
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

/** Posts in a channel, or in the person's DM with the app when the channel cannot take it. */
export async function postOrDm(
  client: WebClient,
  target: { channel: string; userId: string },
  message: SlackMessage,
  metadata?: ChatPostMessageArguments['metadata'],
): Promise<{ channel: string; ts: string }> {
  try {
    const posted = await client.chat.postMessage({
      channel: target.channel,
      ...message,
      ...(metadata ? { metadata } : {}),
    });
    return { channel: target.channel, ts: posted.ts as string };
  } catch (error) {
    if (!isConversationUnavailable(error)) throw error;
    return sendDm(client, target.userId, message, metadata);
  }
}

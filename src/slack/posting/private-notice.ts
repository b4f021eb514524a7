/**
 * Telling one person something privately, wherever they acted: through the interaction's
 * response_url, as an ephemeral message in the conversation (in the thread when there is one),
 * or, when the conversation will not take it, as a direct message from the app.
 */
import type { WebClient } from '@slack/web-api';
import type { SlackMessage } from '../builders/ticket-card-builder.ts';
import { ResponseUrlRefusedError } from '../errors.ts';
import { sendDm } from './slack-posting.ts';

/** Where the person acted. */
export interface PrivateTarget {
  userId: string;
  channel?: string | undefined;
  threadTs?: string | undefined;
  /** An interaction's response_url (valid 30 minutes, five uses). */
  responseUrl?: string | undefined;
}

/** Posts a body to a response_url (Slack's own URL for answering one interaction). */
export async function postToResponseUrl(url: string, body: Record<string, unknown>): Promise<void> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(5_000),
  });
  // The URL is Slack's; its status is all that matters and the body is not needed.
  await response.body?.cancel();
  if (!response.ok) throw new ResponseUrlRefusedError(response.status);
}

/** Tells the person privately, falling back to a direct message. */
export async function tellPrivately(
  client: WebClient,
  target: PrivateTarget,
  message: SlackMessage,
): Promise<void> {
  if (target.responseUrl) {
    try {
      await postToResponseUrl(target.responseUrl, {
        response_type: 'ephemeral',
        replace_original: false,
        ...(target.threadTs ? { thread_ts: target.threadTs } : {}),
        ...message,
      });
      return;
    } catch {
      // Expired or used up: the ephemeral or DM below still reaches the person.
    }
  }
  if (target.channel) {
    try {
      await client.chat.postEphemeral({
        channel: target.channel,
        user: target.userId,
        ...(target.threadTs ? { thread_ts: target.threadTs } : {}),
        ...message,
      });
      return;
    } catch {
      // Not a member, or the conversation is gone: a DM still reaches them.
    }
  }
  await sendDm(client, target.userId, message);
}

/**
 * Reading a thread's messages with their metadata, the one way the app finds its own posts in
 * a thread again: the card to update, a post made before a crash, the ticket of a thread Redis
 * forgot (see `post-metadata.ts` for what each post carries).
 */
import type { WebClient } from '@slack/web-api';
import type { Thread } from '../../store/types.ts';
import type { ThreadMessage } from './post-metadata.ts';

// Pages of a thread read (200 messages each): the app's posts are near its start.
const MAX_PAGES = 5;

/**
 * Reads the thread page by page (at most five), handing each page to `visit` until it returns
 * true; Slack's errors are the caller's to judge.
 */
export async function readThread(
  client: Pick<WebClient, 'conversations'>,
  thread: Thread,
  visit: (messages: readonly ThreadMessage[]) => boolean | undefined,
): Promise<void> {
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const replies = await client.conversations.replies({
      channel: thread.channel,
      ts: thread.threadTs,
      include_all_metadata: true,
      limit: 200,
      ...(cursor ? { cursor } : {}),
    });
    if (visit((replies.messages ?? []) as ThreadMessage[])) return;
    cursor = replies.response_metadata?.next_cursor || undefined;
    if (!cursor) return;
  }
}

/**
 * One message as Slack has it now (edits included), and its thread's parent when it is a reply:
 * Slack answers the window [ts, ts] with the thread's parent first, so two messages hold both.
 * `threadTs`, when known, names the thread to read; Slack's errors are the caller's to judge.
 */
export async function readMessageAt(
  client: Pick<WebClient, 'conversations'>,
  at: { channel: string; ts: string; threadTs?: string | undefined },
): Promise<{ message: ThreadMessage | undefined; parent: ThreadMessage | undefined }> {
  const replies = await client.conversations.replies({
    channel: at.channel,
    ts: at.threadTs ?? at.ts,
    oldest: at.ts,
    latest: at.ts,
    inclusive: true,
    limit: 2,
  });
  const messages = (replies.messages ?? []) as ThreadMessage[];
  const message = messages.find((m) => m.ts === at.ts);
  const parent = message?.thread_ts
    ? messages.find((m) => m.ts !== at.ts && m.ts === message.thread_ts)
    : undefined;
  return { message, parent };
}

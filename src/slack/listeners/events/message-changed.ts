/**
 * An edit of a message in a linked thread (`message_changed`): added to the ticket as an
 * "edited:" message from its author, keyed by the edit's event, so Slack's retries and other
 * replicas add it once. Changes that are not a person editing their words (link unfurls, a
 * parent's reply count, the app's own card updates, other bots) are ignored.
 */
import type { SlackDeps } from '../../deps.ts';
import type { AddMessagePayload, QueuedReply } from '../../intents/add-message.ts';
import { messageBody, type PersonMessage, slackToPlain } from '../../tickets/message-text.ts';

/** The parts of a message_changed event the edit needs. */
export interface MessageChangedEvent {
  channel: string;
  channel_type?: string | undefined;
  message?: Partial<PersonMessage> & { subtype?: string };
  previous_message?: Partial<PersonMessage>;
}

/** The prefix that marks an edit on the ticket. */
export const EDITED_PREFIX = 'edited: ';

/** What the edit should add to the ticket, or undefined when it is not a person's edit. */
export function editedBody(event: MessageChangedEvent): string | undefined {
  const message = event.message;
  if (!message?.user || !message.ts || message.bot_id) return undefined;
  if (message.subtype === 'bot_message') return undefined;
  const before = event.previous_message;
  const sameText =
    slackToPlain(before?.text ?? '').trim() === slackToPlain(message.text ?? '').trim();
  const sameFiles =
    (before?.files ?? []).map((f) => f.permalink).join('\n') ===
    (message.files ?? []).map((f) => f.permalink).join('\n');
  if (sameText && sameFiles) return undefined;
  const body = messageBody({
    ...message,
    user: message.user,
    ts: message.ts,
    channel: event.channel,
  });
  return body ? `${EDITED_PREFIX}${body}` : undefined;
}

/**
 * Queues the edit as a ticket message when it is a person's edit in a linked thread. In a
 * thread the links do not know that may be the app's (`appThread`: the app's bot user, when the
 * caller found the thread may be), queued for its ticket to be found from the thread when it
 * runs, as an unknown thread's reply is.
 */
export async function messageChanged(
  deps: Pick<SlackDeps, 'stores'>,
  event: MessageChangedEvent,
  key: string,
  enqueue: (key: string, payload: QueuedReply) => Promise<void>,
  appThread?: { appUserId: string } | undefined,
): Promise<void> {
  const body = editedBody(event);
  const message = event.message;
  if (!body || !message?.user || !message.ts) return;
  // A reply's thread is its parent; a root message (a DM or reacted message that filed the
  // ticket) is the parent of its own thread.
  const threadTs = message.thread_ts ?? message.ts;
  const ticketId = await deps.stores.links.ticketForThread(event.channel, threadTs);
  if (!ticketId) {
    // Redis may have lost the link: the thread's own posts tell, and its writer is answered.
    if (appThread && threadTs !== message.ts) {
      const reply = {
        userId: message.user,
        body,
        channel: event.channel,
        threadTs,
        ts: message.ts,
      };
      await enqueue(key, { ...reply, appUserId: appThread.appUserId });
    }
    return;
  }
  const payload: AddMessagePayload = {
    ticketId,
    userId: message.user,
    body,
    channel: event.channel,
    threadTs,
    ts: message.ts,
  };
  await enqueue(key, payload);
}

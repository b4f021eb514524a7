/**
 * A message in a conversation of Slack's AI pane (a thread of the person's DM with the app that
 * `assistant_thread_started` announced) whose thread is no ticket's yet. The conversation's
 * first message files a ticket, as a direct message does, keyed by that message so Slack's
 * retries and other replicas file it once; the pane shows "Looking into it…" meanwhile. A
 * message written before that ticket exists waits for it and then goes on it.
 */
import type { SlackDeps } from '../../deps.ts';
import { addMessage, type UnlinkedReplyPayload } from '../../intents/add-message.ts';
import { createTicket, paneFiling } from '../../intents/create-ticket.ts';
import { threadMessageKey } from '../../outbox/delivery-keys.ts';
import { enqueueIntent } from '../../outbox/intent-definition.ts';
import { firstPaneMessage, isPaneThread, showPaneStatus } from '../../threads/pane-threads.ts';
import type { PersonMessage } from '../../tickets/message-text.ts';

/** What a pane message's handling uses. */
type PaneDeps = Pick<SlackDeps, 'client' | 'logger' | 'settings' | 'stores' | 'tasks'>;

/** A person's reply in a DM thread the links do not know. */
export interface PaneReply {
  message: PersonMessage & { user: string; ts: string; thread_ts: string };
  body: string;
  /** The event's delivery key. */
  key: string;
  appUserId: string | undefined;
}

/** Takes the reply when its thread is a pane conversation; false leaves it to the DM's way. */
export async function takePaneMessage(deps: PaneDeps, reply: PaneReply): Promise<boolean> {
  const { message } = reply;
  if (message.channel_type !== 'im') return false;
  const thread = { channel: message.channel, threadTs: message.thread_ts };
  if (!(await isPaneThread(deps.stores.claims, thread))) return false;
  const first = await firstPaneMessage(deps.stores.claims, thread, message.ts);
  if (first === message.ts) {
    const filing = await enqueueIntent(
      deps,
      threadMessageKey(message.channel, message.ts),
      createTicket,
      paneFiling(message),
    );
    // Slack's retry of the message, or another replica's delivery: the status is set already.
    if (!filing.enqueued) return true;
    deps.tasks.run('show-pane-status', () => showPaneStatus(deps, thread), {
      channel: thread.channel,
      thread_ts: thread.threadTs,
    });
    return true;
  }
  if (!reply.appUserId) return false;
  const payload: UnlinkedReplyPayload = {
    appUserId: reply.appUserId,
    userId: message.user,
    body: reply.body,
    channel: message.channel,
    threadTs: message.thread_ts,
    ts: message.ts,
    filingKey: threadMessageKey(message.channel, first),
  };
  await enqueueIntent(deps, reply.key, addMessage, payload);
  return true;
}

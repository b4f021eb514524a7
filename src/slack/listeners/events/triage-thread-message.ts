/**
 * Replies and edits in a triage thread (a triage card's thread, the agents' room): queued as an
 * internal note by their writer, never as a public message, whichever way the links know the
 * thread. Only the store is asked here, so the ack never waits on Slack; a thread under an app
 * post outside a DM that the links do not know (whatever the store lists as triage channels:
 * an emptied Redis lost those too) is queued for its card to be read when the note runs.
 * Everything else is left to the ordinary thread handling.
 */
import type { SlackDeps } from '../../deps.ts';
import { addTriageNote, type TriageNotePayload } from '../../intents/add-triage-note.ts';
import { enqueueIntent } from '../../outbox/intent-definition.ts';
import { editedBody, type MessageChangedEvent } from './message-changed.ts';

/** What this file uses of the app's parts. */
type Deps = Pick<SlackDeps, 'logger' | 'stores' | 'triageThreads'>;

/** A person's reply in a thread, as the message listener has it. */
export interface ThreadReply {
  userId: string;
  body: string;
  channel: string;
  threadTs: string;
  ts: string;
  /** Who wrote the thread's parent, as Slack says on the reply. */
  parentUserId?: string | undefined;
}

/**
 * Queues the reply as a triage note when its thread is (or may be) a triage thread; true when it
 * was taken, so the caller does nothing more with it.
 */
export async function takeTriageReply(
  deps: Deps,
  reply: ThreadReply,
  key: string,
  appUserId: string | undefined,
): Promise<boolean> {
  const ticketId = await triageTicket(deps, reply, appUserId);
  if (ticketId === false) return false;
  const { parentUserId: _parent, ...rest } = reply;
  const payload: TriageNotePayload = {
    ...rest,
    ...(ticketId ? { ticketId } : {}),
    ...(appUserId ? { appUserId } : {}),
  };
  await enqueueIntent(deps, key, addTriageNote, payload);
  return true;
}

/**
 * Queues an edit of a reply in a triage thread as an "edited: ..." triage note; true when the
 * edit was in a triage thread (taken, even when it was no person's edit and adds nothing).
 */
export async function takeTriageEdit(
  deps: Deps,
  event: MessageChangedEvent,
  key: string,
  appUserId: string | undefined,
): Promise<boolean> {
  const message = event.message;
  const threadTs = message?.thread_ts;
  // A thread's parent (the card itself, updated) is no one's reply.
  if (!message?.ts || !threadTs || threadTs === message.ts) return false;
  const place = {
    channel: event.channel,
    threadTs,
    parentUserId: (message as { parent_user_id?: string }).parent_user_id,
  };
  const ticketId = await triageTicket(deps, place, appUserId);
  if (ticketId === false) return false;
  const body = editedBody(event);
  if (!body || !message.user) return true;
  const payload: TriageNotePayload = {
    userId: message.user,
    body,
    channel: event.channel,
    threadTs,
    ts: message.ts,
    ...(ticketId ? { ticketId } : {}),
    ...(appUserId ? { appUserId } : {}),
  };
  await enqueueIntent(deps, key, addTriageNote, payload);
  return true;
}

/**
 * The ticket of a triage thread; undefined when the thread may be one (its card is read when
 * the note runs); false when it is not one.
 */
async function triageTicket(
  deps: Deps,
  place: { channel: string; threadTs: string; parentUserId?: string | undefined },
  appUserId: string | undefined,
): Promise<string | undefined | false> {
  const known = await deps.triageThreads.classify(place.channel, place.threadTs);
  if (known.kind === 'triage') return known.ticketId;
  if (known.kind === 'not_triage') return false;
  // Only a thread under the app's own post may be a card's; Slack names the parent's writer.
  if (!appUserId || (place.parentUserId && place.parentUserId !== appUserId)) return false;
  return undefined;
}

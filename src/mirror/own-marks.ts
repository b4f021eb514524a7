/**
 * The marks the mirror keeps of what the app itself did from Slack, so it never echoes it: the
 * messages it added, the changes it made, a reopening the thread was already told of, and a
 * person asked for. The store keeps them as opaque strings; their meaning is the mirror's.
 */
import { createHash } from 'node:crypto';

/**
 * The mark of a message from Slack whose reopening of its ticket the thread was already told
 * (in the app's own words, at once): the mirror then posts no second line for that change.
 */
export function reopenAnnouncedMark(messageId: string): string {
  return `reopened-by:${messageId}`;
}

/**
 * The mark of a change made from Slack, by what it changed (the activity type, from and to) and
 * who made it: the mirror's line for it then says "from Slack". A change is named by its values
 * because the app never learns its activity id.
 */
export function slackChangeMark(
  type: string,
  from: string | null | undefined,
  to: string | null | undefined,
  actorEmail: string,
): string {
  const digest = createHash('sha256')
    .update([type, from ?? '', to ?? '', actorEmail].map((v) => v.trim().toLowerCase()).join('\n'))
    .digest('hex');
  return `change:${digest.slice(0, 32)}`;
}

/** The mark that the ticket's requester asked for a person from Slack ("Talk to a person"). */
export const PERSON_ASKED_MARK = 'person-asked';

/** The mark of a platform message id in the own-messages set. */
export function ownMessageIdMark(messageId: string): string {
  return `id:${messageId}`;
}

/**
 * The mark of a message by its author and text, recorded before the add is sent: the platform
 * may hold the message before the app learns its id (a slow or lost answer), and a poll in
 * that gap must still know it for the app's own.
 */
export function ownMessageTextMark(authorEmail: string | undefined, body: string): string {
  const digest = createHash('sha256')
    .update(`${(authorEmail ?? '').trim().toLowerCase()}\n${body}`)
    .digest('hex');
  return `text:${digest.slice(0, 32)}`;
}

/**
 * The mark of a platform message written from a ticket's triage thread (an agent's note or
 * reply there): not echoed into that thread, while a public one still reaches the requester's.
 */
export function triageMessageIdMark(messageId: string): string {
  return `triage-id:${messageId}`;
}

/** The thread a message or announcement was written in from Slack (a linked thread). */
export interface WrittenIn {
  channel: string;
  threadTs: string;
}

/** The mark that the message with this own-mark was written in this thread. */
export function writtenInThreadMark(ownMark: string, thread: WrittenIn): string {
  return `in:${ownMark}:${thread.channel}:${thread.threadTs}`;
}

/** The mark that a message with this own-mark is to reach the ticket's other threads. */
export function spreadMark(ownMark: string): string {
  return `spread:${ownMark}`;
}

/**
 * The mark that the thread `thread` was told at once that this message reopened the ticket:
 * its other linked threads still get the mirror's line for the change.
 */
export function reopenToldInMark(messageId: string, thread: WrittenIn): string {
  return `reopened-in:${messageId}:${thread.channel}:${thread.threadTs}`;
}

/**
 * The marks to keep of a message added from Slack: its own-mark (`ownMessageIdMark` or
 * `ownMessageTextMark`), and when it was written in a linked thread, that it still belongs in
 * the ticket's other threads.
 */
export function ownMarks(ownMark: string, writtenIn?: WrittenIn): string[] {
  return writtenIn
    ? [ownMark, spreadMark(ownMark), writtenInThreadMark(ownMark, writtenIn)]
    : [ownMark];
}

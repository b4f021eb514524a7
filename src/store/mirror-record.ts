/** The record of a ticket the mirror has read nothing of. */
import type { MirrorRecord } from './types.ts';

/**
 * The record of a ticket nothing has been read of: also what a ticket only noted so far (a write
 * from Slack, a hint) reads as, since the Redis store reads an absent field as 0 or none alike.
 */
export function emptyMirrorRecord(): MirrorRecord {
  return {
    activityCursor: 0,
    messageCursor: 0,
    messagesAnnounced: 0,
    lastActivityAt: 0,
    lastAnswerAt: 0,
    lastPolledAt: 0,
    backoffStep: 0,
    status: undefined,
    settledAt: undefined,
    requesterEmail: undefined,
    ticket: undefined,
    firstResponseAt: 0,
    slackWriteAt: 0,
    hintedAt: 0,
    messageHintedAt: 0,
    announcedAt: 0,
  };
}

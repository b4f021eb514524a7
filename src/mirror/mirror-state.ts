/**
 * Where the mirror stands with one ticket, and the state of a ticket not yet read. The store
 * keeps it as its `MirrorRecord` (same fields: cursors and times only move forward there); what
 * each field means is the mirror's.
 */

/** Where the mirror stands with one ticket. */
export interface MirrorState {
  /** Activity entries already read (the offset of the next Get-activity request). */
  activityCursor: number;
  /** Messages already read (their index in the ticket's conversation). */
  messageCursor: number;
  /** `message_added` entries read from the activity: more than `messageCursor` means unread. */
  messagesAnnounced: number;
  /** The latest thing that happened to the ticket (platform activity or a Slack write), ms. */
  lastActivityAt: number;
  /** The latest public message that did not come from Slack (an answer from the desk), ms. */
  lastAnswerAt: number;
  /** When the ticket was last polled, ms. */
  lastPolledAt: number;
  /** Failed polls in a row. */
  backoffStep: number;
  /** The ticket's last known status. */
  status: string | undefined;
  /** When it became resolved or closed, ms. */
  settledAt: number | undefined;
  requesterEmail: string | undefined;
  /** The last time a person wrote to the ticket from Slack (set by `noteSlackWrite`), ms. */
  slackWriteAt: number;
  /** The last time the platform hinted that the ticket changed (set by `noteHint`), ms. */
  hintedAt: number;
  /**
   * The last time the platform hinted that a message was added, and nothing else (set by
   * `noteHint(..., 'message')`), ms: the messages alone tell what changed.
   */
  messageHintedAt: number;
}

/** The mirror state of a ticket nothing has been read of yet. */
export function initialMirrorState(): MirrorState {
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
    slackWriteAt: 0,
    hintedAt: 0,
    messageHintedAt: 0,
  };
}

/**
 * The mirror as the Slack side sees it: what a write from Slack tells it, and the little it may
 * ask. The mirror's state (cursors, own-message marks, the poll schedule) is written only by
 * the mirror; the Slack side holds this interface, never the mirror's stores.
 */
import type { Message, Ticket } from '../servicedesk/index.ts';
import type { Thread } from '../store/types.ts';
import type { WrittenIn } from './own-marks.ts';

/** A change about to be made from Slack, as the platform's activity will record it. */
export interface SlackChange {
  type: 'status_changed' | 'priority_changed' | 'assigned';
  from: string | null | undefined;
  to: string | null | undefined;
  /** Who makes it: the person in Slack, as the platform knows them. */
  actorEmail: string;
}

/** What the mirror last read of a ticket: its status and requester, and when. */
export interface MirroredTicket {
  status: string | undefined;
  requesterEmail: string | undefined;
  /** When the mirror last read the ticket, ms (0: never; only a write from Slack is known). */
  polledAt: number;
}

/** The mirror's interface to the Slack side. */
export interface Mirror {
  /**
   * Links a thread found from its messages (the store came back empty) to its ticket again and
   * has the mirror look at it. A ticket the mirror never read resumes from what the platform
   * holds now, not from the start (which would post its whole history again); the ticket read
   * for that comes back.
   */
  relinkThread(ticketId: string, thread: Thread): Promise<Ticket | undefined>;
  /**
   * A message by this author with this text is about to be added from Slack: the app's own,
   * never echoed, even if a poll sees it before its id comes back. Written in a linked thread
   * (`writtenIn`), it is not echoed there but still reaches the ticket's other threads.
   */
  rememberOwnMessage(
    ticketId: string,
    authorEmail: string,
    body: string,
    writtenIn?: WrittenIn,
  ): Promise<void>;
  /** The message with this id was added from Slack: as `rememberOwnMessage`, by its id. */
  rememberOwnMessageId(ticketId: string, messageId: string, writtenIn?: WrittenIn): Promise<void>;
  /**
   * The message with this id was written from the ticket's triage thread: not echoed there; a
   * public one still reaches the requester's threads (do not call `rememberOwnMessageId` too).
   */
  rememberTriageMessageId?(ticketId: string, messageId: string): Promise<void>;
  /**
   * The platform just returned this message, added from Slack (after its own marks were kept):
   * it is posted at once into the ticket's linked threads that should show it, each post
   * claimed as the mirror's own, so the mirror's later look never posts it again. Best effort:
   * a post Slack refuses now is left to the mirror's next look, brought forward.
   */
  messageWritten?(ticketId: string, message: Message): Promise<void>;
  /**
   * A person just wrote to the ticket from Slack: its answer is looked for soon. Best effort:
   * the write is made, so a failure here is logged and the regular schedule finds it later.
   */
  slackWrote(ticketId: string): Promise<void>;
  /** A ticket was just filed from Slack, as the platform returned it: its triage card reads nothing. */
  ticketFiled(ticket: Ticket): void;
  /** These changes are about to be made from Slack: their lines in the thread say so. */
  rememberSlackChanges(ticketId: string, changes: readonly SlackChange[]): Promise<void>;
  /** A person just changed the ticket from Slack: the change is looked for soon (best effort). */
  slackChanged(ticketId: string): Promise<void>;
  /**
   * The thread was already told that this message reopened the ticket: no second line there
   * (`toldIn`), while the ticket's other threads get the change's line; without `toldIn`, none.
   */
  reopenAnnounced(ticketId: string, messageId: string, toldIn?: WrittenIn): Promise<void>;
  /** The requester asked for a person from Slack. */
  personAsked(ticketId: string): Promise<void>;
  /** Whether the requester asked for a person from Slack. */
  isPersonAsked(ticketId: string): Promise<boolean>;
  /**
   * A desk's triage (or the catch-all's, `TRIAGE_CATCH_ALL`) went to this channel from Slack
   * just now: every ticket filed from now on gets its card there, however soon it comes.
   */
  triageChannelSet(desk: string, channel: string): Promise<void>;
  /** What the mirror last read of the ticket (shared by every replica), if anything. */
  lastRead(ticketId: string): Promise<MirroredTicket | undefined>;
}

/**
 * Errors of the Slack side, one class per case with a string code. Anything not listed here
 * is unexpected and goes to Bolt's `app.error` (or, after an ack, to the same reporter).
 */
import { CodedError } from '../coded-error.ts';

/** The string codes of the Slack side's errors, one per class below. */
export const SLACK_ERROR_CODES = {
  personWithoutEmail: 'slack_person_without_email',
  unknownIntent: 'slack_unknown_intent',
  invalidIntent: 'slack_invalid_intent',
  messageNotFound: 'slack_message_not_found',
  ticketClosed: 'slack_ticket_closed',
  changeRefused: 'slack_change_refused',
  ticketNotPosted: 'slack_ticket_not_posted',
  ticketPostDelayed: 'slack_ticket_post_delayed',
  appNotInChannel: 'slack_app_not_in_channel',
  leaseRunningOut: 'slack_lease_running_out',
  responseUrlRefused: 'slack_response_url_refused',
  dmNotOpened: 'slack_dm_not_opened',
  detailsNotKept: 'slack_details_not_kept',
  fairShareSpent: 'slack_fair_share_spent',
  notFiledYet: 'slack_not_filed_yet',
  workspaceUnknown: 'slack_workspace_unknown',
  workspaceUninstalled: 'slack_workspace_uninstalled',
} as const;

/** A code of the Slack side's errors. */
export type SlackErrorCode = (typeof SLACK_ERROR_CODES)[keyof typeof SLACK_ERROR_CODES];

/** The Web API's error of a Slack call it refused (`data.error`, such as `channel_not_found`). */
export function slackErrorOf(error: unknown): string | undefined {
  const slackError = (error as { data?: { error?: unknown } } | null)?.data?.error;
  return typeof slackError === 'string' ? slackError : undefined;
}

/** Base class of the Slack side's own errors. */
export class SlackAppError extends CodedError<SlackErrorCode> {}

/** The person's Slack profile shows no email, so the platform cannot know who they are. */
export class PersonWithoutEmailError extends SlackAppError {
  /** The Slack user id. */
  readonly userId: string;

  constructor(userId: string) {
    super(
      SLACK_ERROR_CODES.personWithoutEmail,
      `Slack user ${userId} has no email in their profile`,
    );
    this.userId = userId;
  }
}

/** An outbox entry whose kind no handler knows: a deploy mixed versions, or a bug. */
export class UnknownIntentError extends SlackAppError {
  constructor(kind: string) {
    super(SLACK_ERROR_CODES.unknownIntent, `No handler for outbox entries of kind "${kind}"`);
  }
}

/** An outbox entry's payload that does not parse: written by another version, or corrupted. */
export class InvalidIntentError extends SlackAppError {
  constructor(kind: string, detail: string) {
    super(
      SLACK_ERROR_CODES.invalidIntent,
      `Outbox entry of kind "${kind}" does not parse: ${detail}`,
    );
  }
}

/** The message a reaction or shortcut points at is gone (deleted, or not visible to the app). */
export class MessageNotFoundError extends SlackAppError {
  constructor(channel: string, ts: string) {
    super(SLACK_ERROR_CODES.messageNotFound, `Message ${ts} in ${channel} could not be read`);
  }
}

/** A reply or change aimed at a ticket that is closed: closed is final on the platform. */
export class ClosedTicketError extends SlackAppError {
  /** The closed ticket. */
  readonly ticketId: string;

  constructor(ticketId: string) {
    super(SLACK_ERROR_CODES.ticketClosed, `Ticket ${ticketId} is closed`);
    this.ticketId = ticketId;
  }
}

/** Why a person may not make a change: see `ticket-access.ts`. */
export type RefusalReason =
  | 'not_visible'
  | 'agents_only'
  | 'closed'
  | 'no_email'
  /** A reply that would reopen a resolved ticket, from someone who is not its requester or an agent. */
  | 'reopen_not_allowed';

/** A change the person is not allowed to make; refused before any platform write. */
export class ChangeRefusedError extends SlackAppError {
  /** Why it was refused. */
  readonly reason: RefusalReason;
  /** The ticket the change was aimed at. */
  readonly ticketId: string;

  constructor(ticketId: string, reason: RefusalReason) {
    super(SLACK_ERROR_CODES.changeRefused, `Change to ${ticketId} refused: ${reason}`);
    this.ticketId = ticketId;
    this.reason = reason;
  }
}

/**
 * A ticket the platform has filed whose card or confirmation Slack would not take anywhere:
 * the person is told the ticket exists (never "not filed"), with its ID.
 */
export class TicketNotPostedError extends SlackAppError {
  /** The filed ticket. */
  readonly ticketId: string;

  constructor(ticketId: string, options?: ErrorOptions) {
    super(
      SLACK_ERROR_CODES.ticketNotPosted,
      `Ticket ${ticketId} was filed but could not be posted`,
      options,
    );
    this.ticketId = ticketId;
  }
}

/**
 * A filed ticket whose card or confirmation Slack has not taken yet (a 429, a 5xx, no answer):
 * the post is tried again later, and meanwhile the person is told the ticket exists, with its
 * ID and the real cause. Should Slack never take it, it fails for good as a not-posted ticket.
 */
export class TicketPostDelayedError extends SlackAppError {
  /** The filed ticket. */
  readonly ticketId: string;

  constructor(ticketId: string, options: ErrorOptions) {
    super(
      SLACK_ERROR_CODES.ticketPostDelayed,
      `Ticket ${ticketId} was filed; Slack has not taken its post yet`,
      options,
    );
    this.ticketId = ticketId;
  }
}

/** The app is not in the conversation a person acted in, so it cannot read or post there. */
export class AppNotInChannelError extends SlackAppError {
  /** The conversation. */
  readonly channel: string;

  constructor(channel: string, options?: ErrorOptions) {
    super(SLACK_ERROR_CODES.appNotInChannel, `The app is not in ${channel}`, options);
    this.channel = channel;
  }
}

/**
 * An outbox entry's lease has too little time left for a post to finish inside it: the entry
 * is tried again later rather than risk a second worker posting the same thing meanwhile.
 */
export class LeaseRunningOutError extends SlackAppError {
  constructor(entryId: string, leftMs: number) {
    super(
      SLACK_ERROR_CODES.leaseRunningOut,
      `Outbox entry ${entryId} has ${Math.max(0, leftMs)} ms of its lease left, too little to post`,
    );
  }
}

/**
 * A request channel's message is not filed yet, so an edit of it has no ticket to go on: the
 * edit waits in the outbox and is tried again once the filing is done.
 */
export class NotFiledYetError extends SlackAppError {
  constructor(channel: string, ts: string) {
    super(SLACK_ERROR_CODES.notFiledYet, `The message ${channel}/${ts} is not filed yet`);
  }
}

/**
 * Slack's response_url refused a message (expired, used up, or Slack failing). Not one of the
 * app's own refusals: like any failed Slack call it may go through when tried again.
 */
export class ResponseUrlRefusedError extends CodedError<SlackErrorCode> {
  /** The HTTP status Slack answered with. */
  readonly status: number;

  constructor(status: number) {
    super(SLACK_ERROR_CODES.responseUrlRefused, `response_url answered HTTP ${status}`);
    this.status = status;
  }
}

/**
 * conversations.open answered without a channel id, which Slack's API never should: like any
 * failed Slack call, it may go through when tried again.
 */
export class DmNotOpenedError extends CodedError<SlackErrorCode> {
  constructor() {
    super(SLACK_ERROR_CODES.dmNotOpened, 'conversations.open returned no channel id');
  }
}

/**
 * A refused filing could not be kept for its desk's fields yet (another run holds its key for a
 * moment): tried again, it is kept and the person asked, never asked with nothing to find.
 */
export class DetailsNotKeptError extends CodedError<SlackErrorCode> {
  constructor(key: string) {
    super(SLACK_ERROR_CODES.detailsNotKept, `the filing under ${key} is being kept elsewhere`);
  }
}

/**
 * A read a person's action would start was not made: their fair share is spent until `retryAt`.
 * Not a failure: the caller answers without the read, saying when to try again.
 */
export class FairShareSpentError extends SlackAppError {
  /** Whose share it is. */
  readonly userId: string;
  /** When the person's share has room again (ms since the epoch). */
  readonly retryAt: number;

  constructor(userId: string, retryAt: number) {
    super(SLACK_ERROR_CODES.fairShareSpent, `the fair share of ${userId} is spent for now`);
    this.userId = userId;
    this.retryAt = retryAt;
  }
}

/**
 * A Slack method still inside the Retry-After of a 429 (see `slack-method-holds.ts`): nothing
 * was sent. It carries Slack's own rate-limit code and the seconds left, so every caller treats
 * it as the 429 Slack would have answered.
 */
export class SlackMethodHeldError extends CodedError<'slack_webapi_rate_limited_error'> {
  /** The held Web API method. */
  readonly method: string;
  /** Seconds until the method may be called again, as Slack's `retryAfter`. */
  readonly retryAfter: number;

  constructor(method: string, retryAfter: number) {
    super(
      'slack_webapi_rate_limited_error',
      `${method} is held for Slack's Retry-After: ${retryAfter} s left`,
    );
    this.method = method;
    this.retryAfter = retryAfter;
  }
}

/**
 * Installed by OAuth, a Slack call made outside any request (the outbox worker, the mirror, a
 * timer) cannot tell which workspace's token to use: no installation, or several and the work
 * does not yet carry its workspace. Retried by the outbox like any failure.
 */
export class WorkspaceUnknownError extends CodedError<typeof SLACK_ERROR_CODES.workspaceUnknown> {
  override readonly name = 'WorkspaceUnknownError';
  /** How many installations there are. */
  readonly installations: number;
  /** The channel the call named, when each installation was asked and none knew it. */
  readonly channel: string | undefined;

  constructor(installations: number, channel?: string) {
    super(
      SLACK_ERROR_CODES.workspaceUnknown,
      installations === 0
        ? 'the app is installed in no workspace yet: install it at /slack/install'
        : channel !== undefined
          ? `channel ${channel} was found in none of the ${installations} workspaces the app is installed in: install the app in the channel's workspace, or invite it to the channel`
          : `the app is installed in ${installations} workspaces and this Slack call, made outside a request, does not carry its workspace`,
    );
    this.installations = installations;
    this.channel = channel;
  }
}

/**
 * Whether the error says the app is installed in no workspace yet (OAuth mode before the first
 * install): background work waits for an install rather than report a failure.
 */
export function isInstalledNowhere(error: unknown): boolean {
  return error instanceof WorkspaceUnknownError && error.installations === 0;
}

/** Whether the error is the Web API client's: Slack refused, failed or did not answer a call. */
export function isSlackFailure(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('slack_webapi_');
}

/**
 * Installed by OAuth, a Slack call names a conversation or person of a workspace that has
 * uninstalled the app (or whose installation is gone): no token may act there any more. Not
 * retried: the write's platform side stands, and the person is told its Slack side failed.
 */
export class WorkspaceUninstalledError extends SlackAppError {
  /** The conversation or person the call named. */
  readonly id: string;
  /** The workspace (team id, or enterprise id of an org-wide install) it lived in. */
  readonly workspace: string;

  constructor(id: string, workspace: string) {
    super(
      SLACK_ERROR_CODES.workspaceUninstalled,
      `${id} lives in workspace ${workspace}, which has no installation of the app any more`,
    );
    this.id = id;
    this.workspace = workspace;
  }
}

/**
 * Errors of the Slack double and its driver. These are mistakes in a test's own script (a user
 * that is not seeded, a view that was never opened) or a wait that ran out; what the app under
 * test gets wrong is answered the way Slack answers it, never thrown.
 */
import { CodedError } from '../../src/coded-error.ts';

/** The string codes of the Slack double's errors, one per class below. */
export const SLACK_DOUBLE_ERROR_CODES = {
  waitTimeout: 'wait_timeout',
  doubleClosed: 'double_closed',
  unknownUser: 'unknown_user',
  unknownChannel: 'unknown_channel',
  unknownMessage: 'unknown_message',
  unknownView: 'unknown_view',
  unknownAction: 'unknown_action',
  userNotInChannel: 'user_not_in_channel',
  requiredInputMissing: 'required_input_missing',
  unknownOption: 'unknown_option',
  unknownInput: 'unknown_input',
  retryLimit: 'retry_limit',
  appUnreachable: 'app_unreachable',
  appTimeout: 'app_timeout',
  notMessageAuthor: 'not_message_author',
  missingContainer: 'missing_container',
  noSocketConnection: 'no_socket_connection',
  socketAckTimeout: 'socket_ack_timeout',
  apiDescriptionMissing: 'api_description_missing',
  contractViolation: 'contract_violation',
} as const;

/** A code of the Slack double's errors. */
export type SlackDoubleErrorCode =
  (typeof SLACK_DOUBLE_ERROR_CODES)[keyof typeof SLACK_DOUBLE_ERROR_CODES];

/** The base of every error thrown by the Slack double and its driver. */
export class SlackDoubleError extends CodedError<SlackDoubleErrorCode> {}

/** A bounded wait (`waitForCall`, `waitForResponseUrlPost`) ended before anything matched. */
export class WaitTimeoutError extends SlackDoubleError {
  constructor(what: string, timeoutMs: number) {
    super(SLACK_DOUBLE_ERROR_CODES.waitTimeout, `no ${what} within ${timeoutMs} ms`);
  }
}

/** The double was closed while someone was still waiting on it. */
export class DoubleClosedError extends SlackDoubleError {
  constructor(what: string) {
    super(
      SLACK_DOUBLE_ERROR_CODES.doubleClosed,
      `the Slack double closed while waiting for ${what}`,
    );
  }
}

/** The script named a user the workspace does not have. */
export class UnknownUserError extends SlackDoubleError {
  constructor(userId: string) {
    super(SLACK_DOUBLE_ERROR_CODES.unknownUser, `the workspace has no user ${userId}`);
  }
}

/** The script named a channel the workspace does not have. */
export class UnknownChannelError extends SlackDoubleError {
  constructor(channelId: string) {
    super(SLACK_DOUBLE_ERROR_CODES.unknownChannel, `the workspace has no channel ${channelId}`);
  }
}

/** The script named a message that is not stored in the channel. */
export class UnknownMessageError extends SlackDoubleError {
  constructor(channelId: string, ts: string) {
    super(SLACK_DOUBLE_ERROR_CODES.unknownMessage, `channel ${channelId} has no message ${ts}`);
  }
}

/** The script named a view the app never opened, pushed or published. */
export class UnknownViewError extends SlackDoubleError {
  constructor(viewId: string) {
    super(SLACK_DOUBLE_ERROR_CODES.unknownView, `no view ${viewId} was opened`);
  }
}

/** The script acted on an element (`action_id`) the message or view does not contain. */
export class UnknownActionError extends SlackDoubleError {
  constructor(actionId: string, where: string) {
    super(
      SLACK_DOUBLE_ERROR_CODES.unknownAction,
      `${where} has no interactive element with action_id ${actionId}`,
    );
  }
}

/** A user tried to post in a channel they are not a member of, which Slack's client forbids. */
export class UserNotInChannelError extends SlackDoubleError {
  constructor(userId: string, channelId: string) {
    super(
      SLACK_DOUBLE_ERROR_CODES.userNotInChannel,
      `user ${userId} is not a member of ${channelId}`,
    );
  }
}

/** A submission left a required input empty; Slack's client would not have sent it. */
export class RequiredInputMissingError extends SlackDoubleError {
  /** The input block left empty, where Slack's client shows its "required" error. */
  readonly blockId: string;

  constructor(blockId: string) {
    super(
      SLACK_DOUBLE_ERROR_CODES.requiredInputMissing,
      `the required input in block ${blockId} has no value`,
    );
    this.blockId = blockId;
  }
}

/** A submission or action chose an option the select menu does not offer. */
export class UnknownOptionError extends SlackDoubleError {
  constructor(actionId: string, value: string) {
    super(
      SLACK_DOUBLE_ERROR_CODES.unknownOption,
      `the menu ${actionId} has no option with value ${value}`,
    );
  }
}

/** A submission gave a value for an element that is not an input of the view. */
export class UnknownInputError extends SlackDoubleError {
  constructor(key: string, viewId: string) {
    super(SLACK_DOUBLE_ERROR_CODES.unknownInput, `view ${viewId} has no input element ${key}`);
  }
}

/** More deliveries of one event were asked for than Slack ever makes (one plus three retries). */
export class RetryLimitError extends SlackDoubleError {
  constructor(requested: number) {
    super(
      SLACK_DOUBLE_ERROR_CODES.retryLimit,
      `Slack delivers an event at most 4 times (1 + 3 retries); ${requested} were asked`,
    );
  }
}

/** The driver could not reach the app at all (refused, reset, DNS). */
export class AppUnreachableError extends SlackDoubleError {
  constructor(appUrl: string, cause: unknown) {
    super(SLACK_DOUBLE_ERROR_CODES.appUnreachable, `could not reach the app at ${appUrl}`, {
      cause,
    });
  }
}

/** The app did not answer within the driver's request timeout. */
export class AppTimeoutError extends SlackDoubleError {
  constructor(appUrl: string, timeoutMs: number) {
    super(
      SLACK_DOUBLE_ERROR_CODES.appTimeout,
      `the app at ${appUrl} did not answer within ${timeoutMs} ms`,
    );
  }
}

/** A user tried to edit a message someone else wrote, which Slack's client forbids. */
export class NotMessageAuthorError extends SlackDoubleError {
  constructor(userId: string, ts: string) {
    super(SLACK_DOUBLE_ERROR_CODES.notMessageAuthor, `user ${userId} did not write message ${ts}`);
  }
}

/** An interaction names no place to happen: a block action needs a view or a message. */
export class MissingContainerError extends SlackDoubleError {
  constructor() {
    super(
      SLACK_DOUBLE_ERROR_CODES.missingContainer,
      'a block action needs a viewId, or a channelId and a messageTs',
    );
  }
}

/** A Socket Mode delivery was asked for while the app had no open connection. */
export class NoSocketConnectionError extends SlackDoubleError {
  constructor() {
    super(
      SLACK_DOUBLE_ERROR_CODES.noSocketConnection,
      'the app has no Socket Mode connection open',
    );
  }
}

/** The app did not acknowledge a Socket Mode envelope in time. */
export class SocketAckTimeoutError extends SlackDoubleError {
  constructor(envelopeId: string, timeoutMs: number) {
    super(
      SLACK_DOUBLE_ERROR_CODES.socketAckTimeout,
      `envelope ${envelopeId} was not acknowledged within ${timeoutMs} ms`,
    );
  }
}

/**
 * Slack's Web API description (`vendor/slack/slack-api-specs.trimmed.json`) is missing or not
 * one: the double refuses to start rather than answer every call with 500.
 */
export class ApiDescriptionMissingError extends SlackDoubleError {
  /** The file the double tried to read. */
  readonly path: string;

  constructor(path: string, cause: unknown) {
    const why =
      typeof cause === 'string'
        ? cause
        : (cause as NodeJS.ErrnoException)?.code === 'ENOENT'
          ? 'it is not there'
          : `it cannot be read: ${(cause as Error)?.message ?? String(cause)}`;
    super(
      SLACK_DOUBLE_ERROR_CODES.apiDescriptionMissing,
      `the Slack double cannot start: it needs Slack's Web API description at ${path}, and ${why}. ` +
        'It is part of the repository (vendor/slack/): restore it with `git checkout -- vendor/slack`, ' +
        'or make it again with scripts/trim-slack-api-specs.ts as vendor/slack/README.md says.',
      { cause },
    );
    this.path = path;
  }
}

/** The app sent calls Slack's description does not know; listed when the double closes. */
export class ContractViolationError extends SlackDoubleError {
  /** One line per call: the method and what was wrong. */
  readonly violations: readonly string[];

  constructor(violations: readonly string[]) {
    super(
      SLACK_DOUBLE_ERROR_CODES.contractViolation,
      `calls Slack's Web API description does not know:\n${violations.join('\n')}`,
    );
    this.violations = violations;
  }
}

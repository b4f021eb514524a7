/**
 * Plays Slack toward an app in Socket Mode: the same slash command forms and event envelopes
 * the HTTP driver signs and posts, delivered instead as envelopes over the app's WebSocket.
 */
import type { JsonObject } from './block-kit.ts';
import { UnknownChannelError, UnknownUserError, UserNotInChannelError } from './errors.ts';
import type { SlackDouble } from './slack-double-server.ts';
import {
  eventEnvelope,
  newEventId,
  type PayloadContext,
  slashCommandForm,
} from './slack-payloads.ts';
import type { SocketAck } from './socket-mode.ts';

/** A slash command's ack, with the trigger and response_url it carried. */
export interface SocketSlashCommandResult extends SocketAck {
  triggerId: string;
  responseUrl: string;
}

/** Sends Slack's deliveries to an app connected over Socket Mode. */
export class SocketModeDriver {
  readonly double: SlackDouble;
  readonly #context: PayloadContext;

  constructor(double: SlackDouble, options: { verificationToken?: string } = {}) {
    this.double = double;
    this.#context = {
      workspace: double.workspace,
      verificationToken: options.verificationToken ?? 'dbl-verification-token',
    };
  }

  /** A user runs a slash command (`/ticket` by default) in a channel they are in. */
  async slashCommand(input: {
    userId: string;
    channelId: string;
    text?: string;
    command?: string;
  }): Promise<SocketSlashCommandResult> {
    const workspace = this.double.workspace;
    if (!workspace.user(input.userId)) throw new UnknownUserError(input.userId);
    const conversation = workspace.conversation(input.channelId);
    if (!conversation) throw new UnknownChannelError(input.channelId);
    if (!conversation.members.includes(input.userId)) {
      throw new UserNotInChannelError(input.userId, input.channelId);
    }
    const triggerId = this.double.issueTrigger(input.userId);
    const responseUrl = this.double.issueResponseUrl({
      source: 'slash_command',
      userId: input.userId,
      channelId: conversation.id,
    });
    const form = slashCommandForm(this.#context, {
      userId: input.userId,
      conversation,
      command: input.command ?? '/ticket',
      text: input.text ?? '',
      triggerId,
      responseUrl,
    });
    const ack = await this.double.socketMode.deliver('slash_commands', form);
    return { ...ack, triggerId, responseUrl };
  }

  /** Delivers one event in an `events_api` envelope carrying the `event_callback` body. */
  event(event: JsonObject, eventId: string = newEventId()): Promise<SocketAck> {
    const body = eventEnvelope(this.#context, event, eventId);
    return this.double.socketMode.deliver('events_api', { ...body });
  }

  /** Delivers an interaction payload (shortcut, block action, view submission) as is. */
  interaction(payload: JsonObject): Promise<SocketAck> {
    return this.double.socketMode.deliver('interactive', payload);
  }
}

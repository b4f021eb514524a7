/**
 * What agents see when they write from a triage thread: the "Reply to requester" modal (one
 * multiline text, kept in the modal on any failure), what it carries, and the private lines that
 * say where their words went or why they did not go.
 */
import type { ModalView } from '@slack/types';
import { z } from 'zod';
import { REPLY_FIELDS, VIEWS } from '../ids.ts';
import type { ViewStateValues } from './create-modal-builder.ts';
import { parseJsonAs } from './json-value.ts';
import { LIMITS, md, plain, safeMrkdwn, truncate } from './mrkdwn.ts';
import { buildFailureNotice } from './notice-builder.ts';
import type { SlackMessage } from './ticket-card-builder.ts';

/** Longest reply the modal takes (Slack's limit on a plain-text input). */
export const REPLY_MAX_LENGTH = 3_000;

const metadataSchema = z.object({
  ticketId: z.string(),
  /** Where the button was clicked: a later failure is told there, with the agent's words. */
  channel: z.string().optional(),
  threadTs: z.string().optional(),
});
/** What the reply modal carries. */
export type ReplyModalMetadata = z.infer<typeof metadataSchema>;

/** Decodes the modal's metadata; undefined when it is not the reply modal's. */
export function decodeReplyMetadata(raw: string | undefined): ReplyModalMetadata | undefined {
  return parseJsonAs(metadataSchema, raw);
}

/** The "Reply to requester" modal of a ticket. */
export function buildReplyModal(metadata: ReplyModalMetadata): ModalView {
  const id = safeMrkdwn(metadata.ticketId, 40);
  return {
    type: 'modal',
    callback_id: VIEWS.replyToRequester,
    private_metadata: JSON.stringify(metadata),
    title: plain('Reply to requester', LIMITS.modalTitle),
    submit: plain('Send', LIMITS.modalSubmit),
    close: plain('Cancel', LIMITS.modalSubmit),
    blocks: [
      {
        type: 'section',
        text: md(
          `Your reply is added to *${id}* as a public message from you: the requester sees it in Slack and in the portal.`,
        ),
      },
      {
        type: 'input',
        block_id: REPLY_FIELDS.text.block,
        label: plain('Reply', LIMITS.optionText),
        element: {
          type: 'plain_text_input',
          action_id: REPLY_FIELDS.text.action,
          multiline: true,
          max_length: REPLY_MAX_LENGTH,
          placeholder: plain('Write to the requester', LIMITS.optionText),
        },
      },
    ],
  };
}

/** The reply typed in a submitted modal, trimmed; empty when there is none. */
export function readReplyText(values: ViewStateValues): string {
  const value = values[REPLY_FIELDS.text.block]?.[REPLY_FIELDS.text.action]?.value;
  return typeof value === 'string' ? value.trim() : '';
}

/**
 * Shown in the modal when the reply is saved but the service desk has not taken it yet: it will
 * go, and the agent hears privately if it does not, with their words.
 */
export function replySavedText(ticketId: string): string {
  return `:hourglass_flowing_sand: Your reply to *${safeMrkdwn(ticketId, 40)}* is saved and will be sent as soon as the service desk answers; if it cannot be sent, you will be told here in Slack with your words. You can close this window.`;
}

/** Why only agents may write from a triage thread. */
export const AGENTS_ROOM_TEXT =
  ":no_entry: This thread is the service-desk agents' room for this ticket, so what is written here goes only to the agents. Your message was not added to the ticket. To write to the service desk, reply in your own ticket's thread or use `/ticket`.";

/** Told privately to someone who is not an agent and wrote in a triage thread (their words kept). */
export function buildAgentsRoomNotice(body: string | undefined): SlackMessage {
  return buildFailureNotice(AGENTS_ROOM_TEXT, body);
}

/**
 * Why "Send to requester" or "Reply to requester" did nothing: `agents_only` is the card's
 * button's, `send_agents_only` the message shortcut's (offered by Slack on every message, to
 * everyone, so its refusal says what it is for).
 */
export type SendRefusal =
  | 'agents_only'
  | 'send_agents_only'
  | 'not_triage_thread'
  | 'not_own_message'
  | 'empty';

/** Told privately when "Send to requester" or "Reply to requester" is refused. */
export function buildSendRefusal(reason: SendRefusal): SlackMessage {
  const text =
    reason === 'agents_only'
      ? ':no_entry: Only service-desk agents can answer a ticket’s requester from a triage card.'
      : reason === 'send_agents_only'
        ? ':no_entry: *Send to requester* is for agents answering from a triage thread: it sends their own message there to the ticket’s requester. Nothing was sent.'
        : reason === 'not_triage_thread'
          ? ':no_entry: *Send to requester* works on your own message in a triage thread (the thread of a ticket’s triage card). Nothing was sent.'
          : reason === 'not_own_message'
            ? ':no_entry: *Send to requester* sends only your own message, as from you. Nothing was sent.'
            : ':no_entry: This message has no text to send. Nothing was sent.';
  return { text, blocks: [{ type: 'section', text: md(text) }] };
}

/** Told privately once a message from a triage thread is added for the requester to read. */
export function buildSentToRequester(ticketId: string): SlackMessage {
  const text = `:incoming_envelope: Sent to the requester of *${safeMrkdwn(ticketId, 40)}* as a public message from you.`;
  return {
    text: truncate(text, LIMITS.messageText),
    blocks: [{ type: 'section', text: md(text) }],
  };
}

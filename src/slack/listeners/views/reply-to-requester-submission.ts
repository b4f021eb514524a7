/**
 * The "Reply to requester" modal's submission (agents only, checked again here). The reply is
 * made durable in the outbox (keyed by the modal, so a double click sends once), and the answer
 * to Slack waits briefly for it: a failure shows on the text, which stays in the modal; a slow
 * platform gets a "saved" view, and a later failure is told privately with the agent's words.
 */
import type { AllMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction } from '@slack/bolt';
import type { ViewStateValues } from '../../builders/create-modal-builder.ts';
import { buildStatusModal } from '../../builders/create-modal-builder.ts';
import { describeFailure } from '../../builders/failure-reason-builder.ts';
import { buildRefusal } from '../../builders/refusal-builder.ts';
import {
  buildSendRefusal,
  decodeReplyMetadata,
  readReplyText,
  replySavedText,
} from '../../builders/triage-reply-builder.ts';
import type { SlackDeps } from '../../deps.ts';
import { ChangeRefusedError, ClosedTicketError } from '../../errors.ts';
import { REPLY_FIELDS } from '../../ids.ts';
import { type SendToRequesterPayload, sendToRequester } from '../../intents/send-to-requester.ts';
import { submitModalIntent } from '../../modals/modal-submission.ts';

/** What this file's listeners use of the app's parts. */
type ListenerDeps = Pick<SlackDeps, 'people' | 'settings' | 'worker'>;

type Args = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

// Slack shows an input's error as plain text, on one short line.
const ERROR_MAX = 300;

/** The error shown on the reply's text, as plain text (the mrkdwn reason's emoji and bold gone). */
export function replyError(reasonMrkdwn: string): string {
  const plainText = reasonMrkdwn
    .replace(/:[a-z0-9_+-]+:\s*/g, '')
    .replace(/[*_`]/g, '')
    .trim();
  const line = `${plainText} Your text is still here: try Send again.`;
  return line.length <= ERROR_MAX ? line : `${line.slice(0, ERROR_MAX - 1)}…`;
}

/** Builds the reply modal's submission handler. */
export function replyToRequesterSubmission(deps: ListenerDeps) {
  return async ({ ack, body, view }: Args): Promise<void> => {
    const metadata = decodeReplyMetadata(view.private_metadata);
    if (!metadata) {
      await ack();
      return;
    }
    const text = readReplyText(view.state.values as ViewStateValues);
    if (!text) {
      await ack({
        response_action: 'errors',
        errors: { [REPLY_FIELDS.text.block]: 'Write something to send.' },
      });
      return;
    }
    const userId = body.user.id;
    if (
      !(await deps.people.isAgent(userId, {
        ticketId: metadata.ticketId,
        channel: metadata.channel,
      }))
    ) {
      await ack({
        response_action: 'update',
        view: buildStatusModal('Not sent', buildSendRefusal('agents_only').text ?? ''),
      });
      return;
    }
    const payload: SendToRequesterPayload = {
      ticketId: metadata.ticketId,
      userId,
      body: text,
      ...(metadata.channel ? { channel: metadata.channel } : {}),
      ...(metadata.threadTs ? { threadTs: metadata.threadTs } : {}),
      viewId: view.id,
    };
    const { outcome, settled } = await submitModalIntent(
      deps,
      `view:${view.id}`,
      sendToRequester,
      payload,
      { text },
    );
    if (!outcome.enqueued && outcome.state === 'done') {
      await ack();
      return;
    }
    if (!outcome.enqueued && outcome.state === 'failed') {
      await ack({
        response_action: 'errors',
        errors: { [REPLY_FIELDS.text.block]: replyError(outcome.error ?? 'This was refused.') },
      });
      return;
    }
    if (settled?.state === 'done') {
      await ack();
      return;
    }
    if (settled?.state === 'failed') {
      await ack({
        response_action: 'errors',
        errors: {
          [REPLY_FIELDS.text.block]: replyError(reasonOf(settled.error, metadata.ticketId)),
        },
      });
      return;
    }
    await ack({
      response_action: 'update',
      view: buildStatusModal('Reply saved', replySavedText(metadata.ticketId)),
    });
  };
}

function reasonOf(error: unknown, ticketId: string): string {
  if (error instanceof ClosedTicketError) return buildRefusal('closed', ticketId).text ?? '';
  if (error instanceof ChangeRefusedError) return buildSendRefusal('agents_only').text ?? '';
  return describeFailure(error, `reply to the requester of ${ticketId}`);
}

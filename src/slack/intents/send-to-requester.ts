/**
 * The send-to-requester intent: an agent's words from a triage card ("Reply to requester") or
 * their own message in a triage thread ("Send to requester") become a public message on the
 * ticket, written as that agent. It is posted at once, through the mirror's claimed posts, to
 * the requester's thread or DM like any answer from the desk (it is not marked as the app's
 * own), and to the triage thread once: a modal's reply is not there yet; a message sent with
 * the shortcut is there already, so the mirror is told to leave that thread out.
 * Agents only, checked again when it runs. Keyed by the modal or the shortcut's click, so one
 * submission adds one message; the agent's words come back to them on any failure.
 */
import { z } from 'zod';
import { hashIdempotencyKey } from '../../servicedesk/index.ts';
import type { JsonValue } from '../../store/types.ts';
import { describeFailure } from '../builders/failure-reason-builder.ts';
import { buildDelayedNotice, buildFailureNotice } from '../builders/notice-builder.ts';
import { buildRefusal } from '../builders/refusal-builder.ts';
import { buildSendRefusal, buildSentToRequester } from '../builders/triage-reply-builder.ts';
import type { IntentDeps } from '../deps.ts';
import { ChangeRefusedError } from '../errors.ts';
import { defineIntent, type IntentRunner } from '../outbox/intent-definition.ts';
import { busyForMs } from '../outbox/transient-errors.ts';
import { tellPrivately } from '../posting/private-notice.ts';
import {
  isClosedRefusal,
  lastKnownStatus,
  refuseIfKnownClosed,
} from '../tickets/closed-ticket-rules.ts';

/** The payload queued for a message to the requester. */
export const sendToRequesterPayloadSchema = z.object({
  ticketId: z.string(),
  userId: z.string(),
  body: z.string().min(1),
  /** Where the agent acted (the triage thread), where they are told what happened. */
  channel: z.string().optional(),
  threadTs: z.string().optional(),
  /** The modal that is waiting to show the outcome itself; absent for the shortcut. */
  viewId: z.string().optional(),
  /** The words are a message in the triage thread already (the shortcut's). */
  inTriageThread: z.boolean().optional(),
});
/** The payload of a message to the requester. */
export type SendToRequesterPayload = z.infer<typeof sendToRequesterPayloadSchema>;

/** Adds an agent's words from a triage thread to the ticket as a public message. */
export const sendToRequester = defineIntent<SendToRequesterPayload>({
  kind: 'send_to_requester',
  schema: sendToRequesterPayloadSchema,
  runner: sendToRequesterRunner,
});

function sendToRequesterRunner(deps: IntentDeps): IntentRunner<SendToRequesterPayload> {
  return {
    async run(payload, entry): Promise<JsonValue> {
      const on = { ticketId: payload.ticketId, channel: payload.channel };
      if (!(await deps.people.isAgent(payload.userId, on)))
        throw new ChangeRefusedError(payload.ticketId, 'agents_only');
      refuseIfKnownClosed(payload.ticketId, await lastKnownStatus(deps, payload.ticketId));
      const email = await deps.people.email(payload.userId);
      const message = await deps.serviceDesk.addMessage(
        payload.ticketId,
        { body: payload.body, author_email: email, internal: false },
        { idempotencyKey: hashIdempotencyKey(entry.deliveryKey), priority: 'interactive' },
      );
      if (payload.inTriageThread)
        await deps.mirror.rememberTriageMessageId?.(payload.ticketId, message.id);
      // Posted at once, by the mirror's own claimed posts, in each linked thread that should
      // show it (the requester's, and the triage thread unless it is there already): the
      // mirror's later look finds them done. Then its answer is looked for soon.
      await deps.mirror.messageWritten?.(payload.ticketId, message);
      await deps.mirror.slackWrote(payload.ticketId);
      deps.logger.info(
        {
          ticket_id: payload.ticketId,
          message_id: message.id,
          from: payload.viewId ? 'modal' : 'shortcut',
        },
        'agent reply sent to the requester from triage',
      );
      if (!payload.viewId) {
        // Best effort: the message is added; failing here would only add nothing again.
        await tellPrivately(deps.client, payload, buildSentToRequester(payload.ticketId)).catch(
          (error: unknown) =>
            deps.logger.warn(
              { err: error, ticket_id: payload.ticketId },
              'could not confirm the message sent to the requester',
            ),
        );
      }
      return { ticketId: payload.ticketId, messageId: message.id };
    },

    async failed(payload, error, context) {
      // A modal whose submission is still waiting shows the failure itself, text kept.
      if (context.awaited && payload.viewId) return;
      if (error instanceof ChangeRefusedError && error.reason === 'agents_only') {
        const refusal = payload.inTriageThread ? 'send_agents_only' : 'agents_only';
        await tellPrivately(deps.client, payload, buildSendRefusal(refusal));
        return;
      }
      const reason = (await isClosedRefusal(deps, payload.ticketId, error))
        ? (buildRefusal('closed', payload.ticketId).text ?? '')
        : describeFailure(error, `reply to the requester of ${payload.ticketId}`);
      await tellPrivately(deps.client, payload, buildFailureNotice(reason, payload.body));
    },

    async delayed(payload, error, context) {
      if (context.awaited && payload.viewId) return;
      await tellPrivately(
        deps.client,
        payload,
        buildDelayedNotice(`reply to the requester of ${payload.ticketId}`, busyForMs(error)),
      );
    },

    logFields(payload) {
      return { ticket_id: payload.ticketId, channel: payload.channel, thread_ts: payload.threadTs };
    },
  };
}

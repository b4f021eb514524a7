/**
 * The add-triage-note intent: an agent's reply (or edit) in a triage thread becomes an internal
 * note on the ticket, written as that agent; the requester never sees it. Keyed by the Slack
 * event, so Slack's retries and other replicas add it once; queued in the outbox, so a platform
 * outage loses nothing. Someone who is not an agent is told privately that the thread is the
 * agents' and nothing is written. A reply under the app's post in a thread the links do not
 * know (outside a DM, whatever channels the store lists as triage) is queued without its ticket: the thread's parent (the triage card) names it when it runs; when
 * the parent is no triage card (an ordinary ticket's card whose link Redis lost), the reply goes
 * the ordinary way (`add-message.ts`).
 */

import { z } from 'zod';
import { hashIdempotencyKey } from '../../servicedesk/index.ts';
import type { JsonValue } from '../../store/types.ts';
import { describeFailure } from '../builders/failure-reason-builder.ts';
import { buildDelayedNotice, buildFailureNotice } from '../builders/notice-builder.ts';
import { buildAgentsRoomNotice } from '../builders/triage-reply-builder.ts';
import type { IntentDeps } from '../deps.ts';
import { ChangeRefusedError } from '../errors.ts';
import { defineIntent, type IntentRunner } from '../outbox/intent-definition.ts';
import { busyForMs } from '../outbox/transient-errors.ts';
import { tellPrivately } from '../posting/private-notice.ts';
import { addMessage } from './add-message.ts';

/** The payload queued for a triage note. */
export const triageNotePayloadSchema = z.object({
  /** Absent when the links did not know the thread: its card names the ticket. */
  ticketId: z.string().optional(),
  /** The app's bot user, whose card the thread's parent must be when the ticket is looked up. */
  appUserId: z.string().optional(),
  userId: z.string(),
  /** The reply as plain text, file links included ("edited: ..." for an edit). */
  body: z.string(),
  channel: z.string(),
  threadTs: z.string(),
  ts: z.string(),
});
/** The payload of a triage note. */
export type TriageNotePayload = z.infer<typeof triageNotePayloadSchema>;

/** Adds an agent's words in a triage thread to its ticket as an internal note. */
export const addTriageNote = defineIntent<TriageNotePayload>({
  kind: 'add_triage_note',
  schema: triageNotePayloadSchema,
  runner: addTriageNoteRunner,
});

function addTriageNoteRunner(deps: IntentDeps): IntentRunner<TriageNotePayload> {
  const ordinary = addMessage.runner(deps);

  return {
    async run(payload, entry): Promise<JsonValue> {
      const ticketId =
        payload.ticketId ??
        (await deps.triageThreads.ticketForTriageThread(
          payload.channel,
          payload.threadTs,
          payload.appUserId,
        ));
      if (!ticketId) {
        // Not a triage card's thread: an ordinary thread under the app's post, found as any.
        if (!payload.appUserId) return { ticketId: null };
        const { ticketId: _none, appUserId, ...reply } = payload;
        return ordinary.run({ ...reply, appUserId }, entry);
      }
      // Checked when it runs: the agents group, or the triage channel's members, may have
      // changed since the reply was queued. A member of the (private) channel the reply was
      // written in reads its notes there, so may write them.
      const on = { ticketId, channel: payload.channel };
      if (!(await deps.people.isAgent(payload.userId, on)))
        throw new ChangeRefusedError(ticketId, 'agents_only');
      const email = await deps.people.email(payload.userId);
      const message = await deps.serviceDesk.addMessage(
        ticketId,
        { body: payload.body, author_email: email, internal: true },
        { idempotencyKey: hashIdempotencyKey(entry.deliveryKey), priority: 'interactive' },
      );
      // Written in the triage thread: the mirror brings it there no second time (an internal
      // note goes to no requester's thread anyway). By its id, never its text: a text mark
      // would also hide the same words sent to the requester later (Send to requester).
      await deps.mirror.rememberTriageMessageId?.(ticketId, message.id);
      deps.logger.info(
        {
          ticket_id: ticketId,
          channel: payload.channel,
          thread_ts: payload.threadTs,
          message_id: message.id,
        },
        'triage thread reply added to ticket as an internal note',
      );
      return { ticketId, messageId: message.id };
    },

    async failed(payload, error, context) {
      if (error instanceof ChangeRefusedError && error.reason === 'agents_only') {
        await tellPrivately(deps.client, payload, buildAgentsRoomNotice(payload.body));
        return;
      }
      if (!payload.ticketId && payload.appUserId) {
        // Its thread may have been an ordinary one: said as a reply's failure is.
        const { ticketId: _none, appUserId, ...reply } = payload;
        await ordinary.failed({ ...reply, appUserId }, error, context);
        return;
      }
      const what = payload.ticketId ? `note on ${payload.ticketId}` : 'note';
      await tellPrivately(
        deps.client,
        payload,
        buildFailureNotice(describeFailure(error, what), payload.body),
      );
    },

    async delayed(payload, error) {
      await tellPrivately(deps.client, payload, buildDelayedNotice('note', busyForMs(error)));
    },

    logFields(payload, result) {
      const done = result as { ticketId?: string | null } | null | undefined;
      return {
        ticket_id: payload.ticketId ?? done?.ticketId ?? undefined,
        channel: payload.channel,
        thread_ts: payload.threadTs,
      };
    },
  };
}

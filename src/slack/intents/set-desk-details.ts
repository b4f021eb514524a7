/**
 * The set-desk-details intent: the desk fields a person added, from the details form, to a
 * ticket their filing without a form had filed without them (on a platform that files a ticket
 * lacking its required fields and asks for them later). Update ticket merges `custom_fields`
 * (the contract's Update a ticket), so a retry whose first write landed changes nothing.
 */
import { z } from 'zod';
import type { JsonValue } from '../../store/types.ts';
import { buildStatusModal } from '../builders/create-modal-builder.ts';
import { describeFailure } from '../builders/failure-reason-builder.ts';
import { buildFailureNotice } from '../builders/notice-builder.ts';
import type { IntentDeps } from '../deps.ts';
import { defineIntent, type IntentRunner } from '../outbox/intent-definition.ts';
import { tellPrivately } from '../posting/private-notice.ts';

/** The payload queued for a set-desk-details intent. */
export const setDeskDetailsPayloadSchema = z.object({
  ticketId: z.string(),
  /** Who filed the ticket and added the details: the change is recorded as them. */
  actorUserId: z.string(),
  /** The desk's fields by key, as the platform takes them. */
  customFields: z.record(z.string(), z.union([z.string(), z.number(), z.array(z.string())])),
  /** Where the person filed: a failure is told there, privately. */
  channel: z.string().optional(),
  threadTs: z.string().optional(),
  /** The details form, whose submission may still be waiting to show the outcome. */
  viewId: z.string().optional(),
});
/** The payload of a set-desk-details intent. */
export type SetDeskDetailsPayload = z.infer<typeof setDeskDetailsPayloadSchema>;

/** Adds a filed ticket's missing desk fields. */
export const setDeskDetails = defineIntent({
  kind: 'set_desk_details',
  schema: setDeskDetailsPayloadSchema,
  runner: setDeskDetailsRunner,
});

function setDeskDetailsRunner(deps: IntentDeps): IntentRunner<SetDeskDetailsPayload> {
  return {
    async run(payload) {
      const email = await deps.people.email(payload.actorUserId);
      const ticket = await deps.serviceDesk.updateTicket(
        payload.ticketId,
        { custom_fields: payload.customFields, actor_email: email },
        { priority: 'interactive' },
      );
      deps.logger.info(
        { ticket_id: ticket.id, fields: Object.keys(payload.customFields) },
        'desk details added to a ticket filed without them',
      );
      return { ticketId: ticket.id } as JsonValue;
    },

    async failed(payload, error, context) {
      // A form whose submission is still waiting shows the failure on its inputs.
      if (context.awaited && payload.viewId) return;
      const reason = describeFailure(error, 'details');
      if (payload.viewId) {
        // The person may have closed it long ago: the private notice below reaches them anyway.
        await deps.client.views
          .update({ view_id: payload.viewId, view: buildStatusModal('Details not added', reason) })
          .catch(() => undefined);
      }
      const typed = Object.entries(payload.customFields)
        .map(([key, value]) => `${key}: ${Array.isArray(value) ? value.join(', ') : value}`)
        .join('\n');
      await tellPrivately(
        deps.client,
        { userId: payload.actorUserId, channel: payload.channel, threadTs: payload.threadTs },
        buildFailureNotice(reason, typed),
      );
    },

    logFields: (payload) => ({ ticket_id: payload.ticketId, channel: payload.channel }),
  };
}

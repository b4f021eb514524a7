/**
 * The update-ticket intent: a change made from Slack (the update modal, "Assign to me", "Mark
 * resolved", "Reopen", a 🔼 on a triage card). It runs from the outbox, so a platform outage
 * delays it and loses nothing; and it decides with the ticket as it is when the write is made,
 * so a person never makes a change that is not theirs to make, and a retry whose first write
 * landed is a no-op. Its steps live in `update-ticket/`, in the order `run` takes them.
 */
import type { JsonValue } from '../../store/types.ts';
import { refreshCard } from '../cards/card-refresh.ts';
import type { IntentDeps } from '../deps.ts';
import { defineIntent, type IntentRunner } from '../outbox/intent-definition.ts';
import { homeFollowsTaking } from '../posting/home-publisher.ts';
import {
  type UpdateTicketPayload,
  type UpdateTicketResult,
  updateTicketPayloadSchema,
} from './payloads.ts';
import { decideUpdate } from './update-ticket/decide-change.ts';
import { makeChange } from './update-ticket/make-change.ts';
import { tellAlreadySo, tellDelayed, tellFailed } from './update-ticket/tell-actor.ts';

export type { UpdateTicketPayload, UpdateTicketResult } from './payloads.ts';

/** Makes a change asked for from Slack, with the rules applied to the ticket as it is then. */
export const updateTicket = defineIntent({
  kind: 'update_ticket',
  schema: updateTicketPayloadSchema,
  runner: updateTicketRunner,
});

function updateTicketRunner(deps: IntentDeps): IntentRunner<UpdateTicketPayload> {
  return {
    async run(payload, entry) {
      // 1. The ticket as it is now, who asks, and the rules' decision (a refusal is thrown).
      const decided = await decideUpdate(deps, payload, entry.deliveryKey);
      // 2. The change made on the platform as the person, when there is one to make.
      const updated = await makeChange(deps, payload, decided);
      const changed = decided.decision.outcome === 'change';
      // 3. The person told when it already was so, and the card they acted on refreshed.
      await tellAlreadySo(deps, payload, decided.request, updated, changed);
      await refreshCard(deps, payload.card, updated, decided.actor, changed);
      // 4. An agent who took it finds it in their Home's queue at once, however they took it.
      if (changed && payload.request.kind === 'assign_to_me')
        await homeFollowsTaking(deps, payload.actorUserId, updated);
      const result: UpdateTicketResult = {
        ticketId: updated.id,
        status: updated.status,
        changed,
      };
      return result as unknown as JsonValue;
    },

    async failed(payload, error, context) {
      await tellFailed(deps, payload, error, context);
    },

    async delayed(payload, error, context) {
      await tellDelayed(deps, payload, error, context);
    },

    logFields(payload) {
      return { ticket_id: payload.ticketId, request: payload.request.kind };
    },
  };
}

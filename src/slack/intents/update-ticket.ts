/**
 * The update-ticket intent: a change made from Slack (the update modal, "Assign to me", "Mark
 * resolved", "Reopen"). It runs from the outbox, so a platform outage delays it and loses
 * nothing; and it decides with the ticket as it is when the write is made, so a person never
 * makes a change that is not theirs to make, and a retry whose first write landed is a no-op.
 */
import { z } from 'zod';
import type { SlackChange } from '../../mirror/mirror.ts';
import {
  NotFoundError,
  TICKET_PRIORITIES,
  TICKET_STATUSES,
  type Ticket,
  type UpdateTicketInput,
} from '../../servicedesk/index.ts';
import type { JsonValue } from '../../store/types.ts';
import { cardRefSchema } from '../builders/card-ref.ts';
import { buildStatusModal } from '../builders/create-modal-builder.ts';
import { describeFailure } from '../builders/failure-reason-builder.ts';
import { buildDelayedNotice, buildFailureNotice } from '../builders/notice-builder.ts';
import { buildAlreadyOpen, buildRefusal } from '../builders/refusal-builder.ts';
import type { SlackMessage } from '../builders/ticket-card-builder.ts';
import { buildAlreadyUrgent } from '../builders/triage-reaction-builder.ts';
import { refreshCard } from '../cards/card-refresh.ts';
import type { IntentDeps } from '../deps.ts';
import { ChangeRefusedError, PersonWithoutEmailError } from '../errors.ts';
import { ACTIONS, TRIAGE_REACTION_ACTIONS } from '../ids.ts';
import { defineIntent, type IntentRunner } from '../outbox/intent-definition.ts';
import { busyForMs } from '../outbox/transient-errors.ts';
import { isFirstRefusal } from '../people/refusal-once.ts';
import { actorOf, type ChangeRequest, decideChange } from '../people/ticket-access.ts';
import { tellPrivately } from '../posting/private-notice.ts';
import { pinnedRaiseFrom } from '../tickets/priority-raise.ts';

/** The change asked for; the modal's assignee is a Slack person, matched by email when it runs. */
export const changeRequestSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('fields'),
    status: z.enum(TICKET_STATUSES).optional(),
    priority: z.enum(TICKET_PRIORITIES).optional(),
    assigneeUserId: z.string().optional(),
  }),
  z.object({ kind: z.literal('assign_to_me') }),
  z.object({ kind: z.literal('resolve') }),
  z.object({ kind: z.literal('reopen') }),
  // One step up from the priority the ticket has when it first runs (a 🔼 on its triage card).
  z.object({ kind: z.literal('raise_priority') }),
]);

/** The payload queued for an update-ticket intent. */
export const updateTicketPayloadSchema = z.object({
  ticketId: z.string(),
  /** Who asked: the rules are applied to them, and they are told the outcome. */
  actorUserId: z.string(),
  request: changeRequestSchema,
  /** The message the change came from, refreshed afterwards. */
  card: cardRefSchema.optional(),
  /** The update modal whose submission may still be waiting to show the outcome. */
  viewId: z.string().optional(),
});
/** The payload of an update-ticket intent. */
export type UpdateTicketPayload = z.infer<typeof updateTicketPayloadSchema>;

// The button each request comes from: a refusal is told once per person, ticket and button,
// whether the click's listener or this intent refuses it.
const BUTTON_OF: Record<UpdateTicketPayload['request']['kind'], string> = {
  fields: ACTIONS.openUpdate,
  assign_to_me: ACTIONS.assignToMe,
  resolve: ACTIONS.markResolved,
  reopen: ACTIONS.reopenTicket,
  raise_priority: TRIAGE_REACTION_ACTIONS.raise,
};

/** What the intent remembers against the delivery key. */
export interface UpdateTicketResult {
  ticketId: string;
  status: string;
  changed: boolean;
}

/** Makes a change asked for from Slack, with the rules applied to the ticket as it is then. */
export const updateTicket = defineIntent({
  kind: 'update_ticket',
  schema: updateTicketPayloadSchema,
  runner: updateTicketRunner,
});

function updateTicketRunner(deps: IntentDeps): IntentRunner<UpdateTicketPayload> {
  async function currentTicket(ticketId: string): Promise<Ticket> {
    try {
      const ticket = await deps.serviceDesk.getTicket(ticketId, { priority: 'interactive' });
      deps.statuses.remember(ticket);
      return ticket;
    } catch (error) {
      // Gone, or never was: said exactly like a ticket that is not the person's.
      if (error instanceof NotFoundError) throw new ChangeRefusedError(ticketId, 'not_visible');
      throw error;
    }
  }

  async function changeRequest(
    payload: UpdateTicketPayload,
    ticket: Ticket,
    deliveryKey: string,
  ): Promise<ChangeRequest> {
    const request = payload.request;
    if (request.kind === 'raise_priority') {
      const from = await pinnedRaiseFrom(deps.stores.claims, deliveryKey, ticket.priority);
      return { kind: 'raise_priority', from };
    }
    if (request.kind !== 'fields') return request;
    return {
      kind: 'fields',
      status: request.status,
      priority: request.priority,
      assigneeEmail: request.assigneeUserId
        ? await deps.people.email(request.assigneeUserId)
        : undefined,
    };
  }

  function target(payload: UpdateTicketPayload) {
    const card = payload.card;
    return {
      userId: payload.actorUserId,
      ...(card?.kind === 'ephemeral' ? { responseUrl: card.responseUrl } : {}),
      ...(card && card.kind !== 'ephemeral' ? { channel: card.channel } : {}),
    };
  }

  async function tell(payload: UpdateTicketPayload, message: SlackMessage): Promise<void> {
    await tellPrivately(deps.client, target(payload), message);
  }

  // A click repeated within seconds is answered once; a modal's answer is always shown.
  async function tellOnce(payload: UpdateTicketPayload, message: SlackMessage): Promise<void> {
    const first =
      payload.viewId !== undefined ||
      (await isFirstRefusal(deps.stores.claims, {
        userId: payload.actorUserId,
        ticketId: payload.ticketId,
        action: BUTTON_OF[payload.request.kind],
      }));
    if (first) await tell(payload, message);
  }

  async function updateView(viewId: string | undefined, title: string, text: string) {
    if (!viewId) return;
    // Closed long ago is fine: the person is told in the conversation as well.
    await deps.client.views
      .update({ view_id: viewId, view: buildStatusModal(title, text) })
      .catch(() => undefined);
  }

  return {
    async run(payload, entry) {
      const ticket = await currentTicket(payload.ticketId);
      // A member of a private triage channel of the ticket's desk is its agent too.
      const actor = await actorOf(deps, payload.actorUserId, {
        ticketId: ticket.id,
        deskId: ticket.desk_id ?? null,
        channel: payload.card?.kind === 'triage' ? payload.card.channel : undefined,
      });
      const request = await changeRequest(payload, ticket, entry.deliveryKey);
      const decision = decideChange(ticket, actor, request);
      if (decision.outcome === 'refused') {
        throw new ChangeRefusedError(ticket.id, decision.reason);
      }
      let updated = ticket;
      if (decision.outcome === 'change') {
        // Recorded on the platform as the person, and known to the mirror as made from Slack.
        const input = actor.email
          ? { ...decision.input, actor_email: actor.email }
          : decision.input;
        if (actor.email) await rememberSlackChanges(deps, ticket, decision.input, actor.email);
        updated = await deps.serviceDesk.updateTicket(ticket.id, input, {
          priority: 'interactive',
        });
        deps.statuses.remember(updated);
        // The change's line in every thread, the other cards and the requester's DM come from
        // the mirror's claimed posts: it looks at once.
        await deps.mirror.slackChanged(ticket.id);
        deps.logger.info(
          {
            ticket_id: ticket.id,
            fields: Object.keys(decision.input),
            request: payload.request.kind,
          },
          'ticket changed from Slack',
        );
      }
      const changed = decision.outcome === 'change';
      // A Reopen left on an old notice, or clicked again after a colleague reopened the ticket.
      if (!changed && payload.request.kind === 'reopen' && updated.status !== 'resolved') {
        // Best effort: nothing was changed, and the notice below still loses its button.
        await tellOnce(payload, buildAlreadyOpen(updated.id)).catch((error: unknown) =>
          deps.logger.warn(
            { err: error, ticket_id: updated.id },
            'could not say that the ticket is already open',
          ),
        );
      }
      // A raise of a ticket that was urgent already: nothing to raise, and the agent is told so.
      if (request.kind === 'raise_priority' && !changed && request.from === 'urgent') {
        // Best effort: nothing was changed, and the card below is refreshed all the same.
        await tellOnce(payload, buildAlreadyUrgent(updated.id)).catch((error: unknown) =>
          deps.logger.warn(
            { err: error, ticket_id: updated.id },
            'could not say that the ticket is already urgent',
          ),
        );
      }
      await refreshCard(deps, payload.card, updated, actor, changed);
      const result: UpdateTicketResult = {
        ticketId: updated.id,
        status: updated.status,
        changed,
      };
      return result as unknown as JsonValue;
    },

    async failed(payload, error, context) {
      // A modal whose submission is still waiting shows the failure itself.
      if (context.awaited && payload.viewId) return;
      if (error instanceof ChangeRefusedError) {
        const refusal = buildRefusal(error.reason, payload.ticketId);
        await updateView(payload.viewId, 'Not changed', refusal.text);
        await tellOnce(payload, refusal);
        return;
      }
      const reason =
        error instanceof PersonWithoutEmailError && error.userId !== payload.actorUserId
          ? `:warning: Your change to ${payload.ticketId} was not made: the person you chose has no email address in Slack, so the service desk cannot match them.`
          : describeFailure(error, `change to ${payload.ticketId}`);
      await updateView(payload.viewId, 'Not changed', reason);
      await tell(payload, buildFailureNotice(reason, undefined));
    },

    async delayed(payload, error, context) {
      if (context.awaited && payload.viewId) return;
      await tell(payload, buildDelayedNotice(`change to ${payload.ticketId}`, busyForMs(error)));
    },

    logFields(payload) {
      return { ticket_id: payload.ticketId, request: payload.request.kind };
    },
  };
}

/**
 * Marks each change about to be made as made from Slack, before it is made: a look right after
 * the write must already know it, to say so in the thread.
 */
async function rememberSlackChanges(
  deps: Pick<IntentDeps, 'mirror'>,
  ticket: Ticket,
  input: UpdateTicketInput,
  actorEmail: string,
): Promise<void> {
  const changes: SlackChange[] = [];
  if (input.status !== undefined)
    changes.push({ type: 'status_changed', from: ticket.status, to: input.status, actorEmail });
  if (input.priority !== undefined)
    changes.push({
      type: 'priority_changed',
      from: ticket.priority,
      to: input.priority,
      actorEmail,
    });
  if (input.assignee_email !== undefined)
    changes.push({
      type: 'assigned',
      from: ticket.assignee_email,
      to: input.assignee_email,
      actorEmail,
    });
  await deps.mirror.rememberSlackChanges(ticket.id, changes);
}

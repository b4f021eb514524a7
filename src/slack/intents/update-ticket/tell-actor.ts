/**
 * What the person who asked for a change is told: privately where they clicked (a refusal once
 * per person, ticket and button), and in the update modal when it is still open.
 */
import type { Ticket } from '../../../servicedesk/index.ts';
import { describeFailure } from '../../builders/failure-reason-builder.ts';
import { buildDelayedNotice, buildFailureNotice } from '../../builders/notice-builder.ts';
import { buildAlreadyOpen, buildRefusal } from '../../builders/refusal-builder.ts';
import type { SlackMessage } from '../../builders/ticket-card-builder.ts';
import { buildAlreadyUrgent } from '../../builders/triage-reaction-builder.ts';
import type { IntentDeps } from '../../deps.ts';
import { ChangeRefusedError, PersonWithoutEmailError } from '../../errors.ts';
import { ACTIONS, TRIAGE_REACTION_ACTIONS } from '../../ids.ts';
import type { FailureContext } from '../../outbox/outbox-worker.ts';
import { busyForMs } from '../../outbox/transient-errors.ts';
import { isFirstRefusal } from '../../people/refusal-once.ts';
import type { ChangeRequest } from '../../people/ticket-access.ts';
import { tellPrivately } from '../../posting/private-notice.ts';
import type { UpdateTicketPayload } from '../payloads.ts';
import { updateStatusView } from '../status-view.ts';

// The button each request comes from: a refusal is told once per person, ticket and button,
// whether the click's listener or this intent refuses it.
const BUTTON_OF: Record<UpdateTicketPayload['request']['kind'], string> = {
  fields: ACTIONS.openUpdate,
  assign_to_me: ACTIONS.assignToMe,
  resolve: ACTIONS.markResolved,
  reopen: ACTIONS.reopenTicket,
  raise_priority: TRIAGE_REACTION_ACTIONS.raise,
};

/**
 * When nothing changed because the ticket already was as asked (a Reopen left on an old notice,
 * a 🔼 on an urgent ticket), says so; best effort, as nothing was changed.
 */
export async function tellAlreadySo(
  deps: IntentDeps,
  payload: UpdateTicketPayload,
  request: ChangeRequest,
  updated: Ticket,
  changed: boolean,
): Promise<void> {
  // A Reopen left on an old notice, or clicked again after a colleague reopened the ticket.
  if (!changed && payload.request.kind === 'reopen' && updated.status !== 'resolved') {
    // Best effort: nothing was changed, and the notice still loses its button.
    await tellOnce(deps, payload, buildAlreadyOpen(updated.id)).catch((error: unknown) =>
      deps.logger.warn(
        { err: error, ticket_id: updated.id },
        'could not say that the ticket is already open',
      ),
    );
  }
  // A raise of a ticket that was urgent already: nothing to raise, and the agent is told so.
  if (request.kind === 'raise_priority' && !changed && request.from === 'urgent') {
    // Best effort: nothing was changed, and the card is refreshed all the same.
    await tellOnce(deps, payload, buildAlreadyUrgent(updated.id)).catch((error: unknown) =>
      deps.logger.warn(
        { err: error, ticket_id: updated.id },
        'could not say that the ticket is already urgent',
      ),
    );
  }
}

/** Tells the person the change was refused or failed for good. */
export async function tellFailed(
  deps: IntentDeps,
  payload: UpdateTicketPayload,
  error: unknown,
  context: FailureContext,
): Promise<void> {
  // A modal whose submission is still waiting shows the failure itself.
  if (context.awaited && payload.viewId) return;
  if (error instanceof ChangeRefusedError) {
    const refusal = buildRefusal(error.reason, payload.ticketId);
    await updateStatusView(deps, payload.viewId, 'Not changed', refusal.text);
    await tellOnce(deps, payload, refusal);
    return;
  }
  const reason =
    error instanceof PersonWithoutEmailError && error.userId !== payload.actorUserId
      ? `:warning: Your change to ${payload.ticketId} was not made: the person you chose has no email address in Slack, so the service desk cannot match them.`
      : describeFailure(error, `change to ${payload.ticketId}`);
  await updateStatusView(deps, payload.viewId, 'Not changed', reason);
  await tell(deps, payload, buildFailureNotice(reason, undefined));
}

/** Tells the person, once, that the change waits for the service desk. */
export async function tellDelayed(
  deps: IntentDeps,
  payload: UpdateTicketPayload,
  error: unknown,
  context: FailureContext,
): Promise<void> {
  if (context.awaited && payload.viewId) return;
  await tell(deps, payload, buildDelayedNotice(`change to ${payload.ticketId}`, busyForMs(error)));
}

function target(payload: UpdateTicketPayload) {
  const card = payload.card;
  return {
    userId: payload.actorUserId,
    ...(card?.kind === 'ephemeral' ? { responseUrl: card.responseUrl } : {}),
    ...(card && card.kind !== 'ephemeral' ? { channel: card.channel } : {}),
  };
}

async function tell(
  deps: IntentDeps,
  payload: UpdateTicketPayload,
  message: SlackMessage,
): Promise<void> {
  await tellPrivately(deps.client, target(payload), message);
}

// A click repeated within seconds is answered once; a modal's answer is always shown.
async function tellOnce(
  deps: IntentDeps,
  payload: UpdateTicketPayload,
  message: SlackMessage,
): Promise<void> {
  const first =
    payload.viewId !== undefined ||
    (await isFirstRefusal(deps.stores.claims, {
      userId: payload.actorUserId,
      ticketId: payload.ticketId,
      action: BUTTON_OF[payload.request.kind],
    }));
  if (first) await tell(deps, payload, message);
}

/**
 * The update modal's submission (agents only, checked again here: a crafted submission from
 * anyone else is refused and nothing is queued). Only the fields the agent changed are sent.
 * The change is made durable in the outbox (keyed by the modal), and the answer to Slack waits
 * briefly for it, so a platform 422 (an assignee who is not an agent there) shows on its field.
 */
import type { AllMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction } from '@slack/bolt';
import { ValidationError } from '../../../servicedesk/index.ts';
import { buildStatusModal, type ViewStateValues } from '../../builders/create-modal-builder.ts';
import { describeFailure } from '../../builders/failure-reason-builder.ts';
import { buildRefusal } from '../../builders/refusal-builder.ts';
import {
  changedFields,
  decodeUpdateMetadata,
  notAnAgentError,
  readUpdateForm,
  updateErrorsToBlocks,
} from '../../builders/update-modal-builder.ts';
import type { SlackDeps } from '../../deps.ts';
import { ChangeRefusedError, PersonWithoutEmailError } from '../../errors.ts';
import { UPDATE_FIELDS } from '../../ids.ts';
import { type UpdateTicketPayload, updateTicket } from '../../intents/update-ticket.ts';
import { submitModalIntent } from '../../modals/modal-submission.ts';

/** What this file's listeners use of the app's parts. */
type ListenerDeps = Pick<SlackDeps, 'people' | 'settings' | 'worker'>;

type Args = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

/** Builds the update modal's submission handler. */
export function updateTicketSubmission(deps: ListenerDeps) {
  return async ({ ack, body, view }: Args): Promise<void> => {
    const metadata = decodeUpdateMetadata(view.private_metadata);
    if (!metadata) {
      await ack();
      return;
    }
    const userId = body.user.id;
    const on = {
      ticketId: metadata.ticketId,
      channel: metadata.card?.kind === 'triage' ? metadata.card.channel : undefined,
    };
    if (!(await deps.people.isAgent(userId, on))) {
      await ack({
        response_action: 'update',
        view: buildStatusModal('Not changed', buildRefusal('agents_only', metadata.ticketId).text),
      });
      return;
    }
    const changed = changedFields(
      readUpdateForm(view.state.values as ViewStateValues),
      metadata.initial,
    );
    if (Object.keys(changed).length === 0) {
      await ack();
      return;
    }
    const payload: UpdateTicketPayload = {
      ticketId: metadata.ticketId,
      actorUserId: userId,
      request: { kind: 'fields', ...changed },
      ...(metadata.card ? { card: metadata.card } : {}),
      viewId: view.id,
    };
    const { outcome, settled } = await submitModalIntent(
      deps,
      `view:${view.id}`,
      updateTicket,
      payload,
      changed,
    );
    if (!outcome.enqueued && outcome.state === 'done') {
      await ack();
      return;
    }
    if (!outcome.enqueued && outcome.state === 'failed') {
      await ack({
        response_action: 'errors',
        errors: {
          [UPDATE_FIELDS.status.block]: 'This change was refused. Change something and try again.',
        },
      });
      return;
    }
    if (settled?.state === 'done') {
      await ack();
      return;
    }
    if (settled?.state === 'failed') {
      const errors = await fieldErrors(deps, settled.error, userId, changed.assigneeUserId);
      if (errors) {
        await ack({ response_action: 'errors', errors });
        return;
      }
      const text =
        settled.error instanceof ChangeRefusedError
          ? buildRefusal(settled.error.reason, metadata.ticketId).text
          : describeFailure(settled.error, `change to ${metadata.ticketId}`);
      await ack({ response_action: 'update', view: buildStatusModal('Not changed', text) });
      return;
    }
    await ack({
      response_action: 'update',
      view: buildStatusModal(
        'Saving your change',
        `:hourglass_flowing_sand: Your change to *${metadata.ticketId}* is saved and will be made as soon as the service desk answers; the ticket’s card will show it. You can close this window.`,
      ),
    });
  };
}

// The platform's words for an assignee who is not one of its agents.
const NOT_AN_AGENT = /not an agent/i;

async function fieldErrors(
  deps: ListenerDeps,
  error: unknown,
  actorUserId: string,
  assigneeUserId: string | undefined,
): Promise<Record<string, string> | undefined> {
  if (error instanceof ValidationError) {
    const fields = error.fieldErrors();
    const refused = fields.assignee_email;
    if (refused && assigneeUserId && NOT_AN_AGENT.test(refused)) {
      // Named as Slack knows them; just looked up for their email, so no new request.
      const person = await deps.people
        .person(assigneeUserId)
        .catch(() => ({ name: 'This person', pronouns: undefined }));
      fields.assignee_email = notAnAgentError(person);
    }
    return updateErrorsToBlocks(fields);
  }
  if (error instanceof PersonWithoutEmailError && error.userId !== actorUserId) {
    return {
      [UPDATE_FIELDS.assignee.block]:
        'This person has no email address in Slack, so the service desk cannot match them.',
    };
  }
  return undefined;
}

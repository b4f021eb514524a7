/**
 * The Workflow Builder step "Create a service-desk ticket" (`function_executed`): queues the
 * filing under the run's function execution id, so a redelivered event files nothing more,
 * and Slack is answered once it is stored. The ticket's card goes to the requester's direct
 * message with the app, its thread the ticket's; the run is completed from the outbox when
 * the filing ends (`intents/complete-workflow-step.ts`), however long the platform takes.
 */
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import { stepInputError } from '../../builders/workflow-step-error-builder.ts';
import type { SlackDeps } from '../../deps.ts';
import { completeStepOnce } from '../../intents/complete-workflow-step.ts';
import { type CreateTicketPayload, createTicket } from '../../intents/create-ticket.ts';
import { functionExecutionKey } from '../../outbox/delivery-keys.ts';
import { enqueueIntent } from '../../outbox/intent-definition.ts';
import { readStepInputs } from '../../tickets/workflow-step-inputs.ts';

/** Builds the step's handler. */
export function createTicketStep(deps: Pick<SlackDeps, 'logger' | 'stores'>) {
  return async ({
    event,
  }: SlackEventMiddlewareArgs<'function_executed'> & AllMiddlewareArgs): Promise<void> => {
    const executionId = event.function_execution_id;
    const read = readStepInputs(event.inputs ?? {});
    if (!read.ok) {
      // Nothing to file: the run ends at once with what to fix in the step.
      await completeStepOnce(deps, executionId, {
        kind: 'error',
        error: stepInputError(read.problem),
      });
      return;
    }
    const { filing } = read;
    const payload: CreateTicketPayload = {
      actorUserId: filing.runnerUserId ?? filing.requesterUserId,
      requesterUserIds: [filing.requesterUserId],
      ticket: {
        title: filing.title,
        ...(filing.description ? { description: filing.description } : {}),
        ...(filing.deskId ? { desk_id: filing.deskId } : {}),
        ...(filing.priority ? { priority: filing.priority } : {}),
        ...(filing.customFields ? { custom_fields: filing.customFields } : {}),
      },
      // A user id posts into the app's direct message with them: the requester's card and thread.
      reply: { kind: 'card', channel: filing.requesterUserId },
      workflowStep: { executionId },
    };
    await enqueueIntent(deps, functionExecutionKey(executionId), createTicket, payload);
  };
}

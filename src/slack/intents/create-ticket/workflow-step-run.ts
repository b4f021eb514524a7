/**
 * The Workflow Builder step run a filing may be: ended once, with the ticket when it is filed
 * (its card posted or not), with why when it was not, or early, saying the ticket is still
 * coming, when the service desk keeps it waiting past the step's time.
 */
import type { Ticket } from '../../../servicedesk/index.ts';
import type { ReservedEntry } from '../../../store/types.ts';
import { dashboardLink, ticketPageUrl } from '../../builders/ticket-card-builder.ts';
import {
  stepFailureText,
  stepStillFilingText,
} from '../../builders/workflow-step-error-builder.ts';
import type { IntentDeps } from '../../deps.ts';
import { TicketNotPostedError, TicketPostDelayedError } from '../../errors.ts';
import { isTransient } from '../../outbox/transient-errors.ts';
import { completeStepOnce } from '../complete-workflow-step.ts';
import type { CreateTicketPayload } from '../payloads.ts';

/**
 * How long a workflow step's run waits for the service desk before it ends saying the ticket
 * is still coming. Slack gives a run's token 15 minutes (Slack's maintainers,
 * slackapi/bolt-python#1075); the outbox's retries come at most 5 minutes apart, so an attempt
 * falls between 10 and 15 minutes.
 */
export const DEFAULT_STEP_ANSWER_MS = 10 * 60_000;

/** A step's run ends with the ticket once it is filed, its card posted or not. */
export async function completeStepFiled(
  deps: IntentDeps,
  payload: CreateTicketPayload,
  ticket: Ticket,
): Promise<void> {
  if (!payload.workflowStep) return;
  const url = dashboardLink(ticket, deps.settings.dashboardUrl);
  await completeStepOnce(deps, payload.workflowStep.executionId, {
    kind: 'success',
    outputs: { ticket_id: ticket.id, ...(url ? { ticket_url: url } : {}) },
  });
}

/**
 * A step's run whose filing failed for good ends with why; one filed but never shown in Slack
 * ends with its ticket all the same.
 */
export async function completeStepFailed(
  deps: IntentDeps,
  payload: CreateTicketPayload,
  error: unknown,
): Promise<void> {
  if (!payload.workflowStep) return;
  const { executionId } = payload.workflowStep;
  if (error instanceof TicketNotPostedError || error instanceof TicketPostDelayedError) {
    const url = ticketPageUrl(error.ticketId, deps.settings.dashboardUrl);
    await completeStepOnce(deps, executionId, {
      kind: 'success',
      outputs: { ticket_id: error.ticketId, ...(url ? { ticket_url: url } : {}) },
    });
    return;
  }
  await completeStepOnce(deps, executionId, { kind: 'error', error: stepFailureText(error) });
}

/**
 * A step's run the service desk has kept waiting past the step's time: it ends now, saying
 * the ticket is still coming, and the filing goes on (the person gets its card as ever).
 */
export async function endStepBeforeFiled(
  deps: IntentDeps,
  payload: CreateTicketPayload,
  entry: ReservedEntry,
  error: unknown,
): Promise<void> {
  if (!payload.workflowStep || !isTransient(error)) return;
  const waitedMs = Date.now() - entry.createdAt;
  const answerWithinMs = deps.settings.workflowStepAnswerMs ?? DEFAULT_STEP_ANSWER_MS;
  if (waitedMs < answerWithinMs) return;
  const requesterId = payload.requesterUserIds[0] as string;
  // Named as a workflow's builder knows them; their id when Slack does not say.
  const requester = await deps.people
    .person(requesterId)
    .then((person) => person.name || requesterId)
    .catch(() => requesterId);
  await completeStepOnce(deps, payload.workflowStep.executionId, {
    kind: 'error',
    error: stepStillFilingText(requester, Math.max(1, Math.round(waitedMs / 60_000))),
  });
}

/**
 * Ends a Workflow Builder step's run: `functions.completeSuccess` with its outputs, or
 * `functions.completeError` with words a workflow's builder understands. Queued in the outbox
 * under the run's own key (`stepCompletionKey`), so a run is completed once whoever asks first
 * (the filing, its failure, the step's time running out): a later ask is a duplicate. Slack
 * failing (429 with Retry-After, 500) retries it; an answer that the run is no longer running
 * means an earlier attempt of ours completed it (its answer lost) or Slack ended it: done.
 *
 * It completes with the app's own bot token, not the run's short-lived one (Bolt's
 * `attachFunctionToken: false` does the same): the run's token would have to be kept in the
 * store, a secret, and it lapses within the run's time anyway.
 */
import { z } from 'zod';
import type { JsonValue } from '../../store/types.ts';
import type { IntentDeps, SlackDeps } from '../deps.ts';
import { stepCompletionKey } from '../outbox/delivery-keys.ts';
import { defineIntent, enqueueIntent } from '../outbox/intent-definition.ts';

const COMPLETE_WORKFLOW_STEP = 'complete_workflow_step';

// Slack's answers that the run is over: ours came before (its answer lost), or Slack ended it.
const RUN_ALREADY_OVER = new Set([
  'execution_not_in_running_state',
  'function_execution_not_found',
]);

/** How a step's run ends. */
export const stepOutcomeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('success'), outputs: z.record(z.string(), z.string()) }),
  z.object({ kind: z.literal('error'), error: z.string().min(1) }),
]);
/** How a step's run ends: its outputs, or the words of its error. */
export type StepOutcome = z.infer<typeof stepOutcomeSchema>;

/** The payload of a step completion. */
export const completeWorkflowStepPayloadSchema = z.object({
  /** Slack's function execution id of the run. */
  executionId: z.string().min(1),
  outcome: stepOutcomeSchema,
});
/** The payload of a step completion. */
export type CompleteWorkflowStepPayload = z.infer<typeof completeWorkflowStepPayloadSchema>;

/** Completes a step's run once, however many ask. */
export const completeWorkflowStep = defineIntent({
  kind: COMPLETE_WORKFLOW_STEP,
  schema: completeWorkflowStepPayloadSchema,
  runner: (deps: IntentDeps) => ({
    async run(payload) {
      const { executionId, outcome } = payload;
      try {
        if (outcome.kind === 'success')
          await deps.client.functions.completeSuccess({
            function_execution_id: executionId,
            outputs: outcome.outputs,
          });
        else
          await deps.client.functions.completeError({
            function_execution_id: executionId,
            error: outcome.error,
          });
      } catch (error) {
        const code = (error as { data?: { error?: string } } | null)?.data?.error;
        // Outputs Slack will not take (the step's declaration changed under a running
        // version): the run still ends, in error, naming the ticket filed.
        if (code === 'parameter_validation_failed' && outcome.kind === 'success') {
          await deps.client.functions.completeError({
            function_execution_id: executionId,
            error: `The ticket ${outcome.outputs.ticket_id ?? ''} was filed, but Slack refused the step's outputs; update the Service Desk app.`,
          });
          return { completed: 'error', refusedOutputs: true } as JsonValue;
        }
        if (code === undefined || !RUN_ALREADY_OVER.has(code)) throw error;
        deps.logger.info(
          { function_execution_id: executionId, slack_error: code },
          'workflow step run already over; nothing to complete',
        );
        return { completed: outcome.kind, already: code } as JsonValue;
      }
      return { completed: outcome.kind } as JsonValue;
    },
    async failed(payload, error) {
      // Nobody to tell but the log: the run's people see Slack end it as not completed.
      deps.logger.warn(
        { err: error, function_execution_id: payload.executionId },
        'workflow step run could not be completed',
      );
    },
    logFields(payload) {
      return { function_execution_id: payload.executionId };
    },
  }),
});

/** Queues the one completion of a step's run; a run already being completed is left as it is. */
export async function completeStepOnce(
  deps: Pick<SlackDeps, 'stores' | 'logger'>,
  executionId: string,
  outcome: StepOutcome,
): Promise<void> {
  await enqueueIntent(deps, stepCompletionKey(executionId), completeWorkflowStep, {
    executionId,
    outcome,
  });
}

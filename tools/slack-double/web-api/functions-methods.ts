/**
 * `functions.*`: the app ends a workflow step's run, with its outputs or an error. Slack's
 * vendored Web API description predates these methods; their arguments are the installed
 * `@slack/web-api`'s (`FunctionsCompleteSuccessArguments`, `FunctionsCompleteErrorArguments`,
 * see `api-description.ts`).
 */

import { isJsonObject } from '../block-kit.ts';
import type { WorkflowRuns } from '../workflow-runs.ts';
import { type ApiMethod, fail, jsonArg, missingArgument, ok, stringArg } from './args.ts';

/** The `functions.*` methods of the double, acting on its workflow runs. */
export function functionsMethods(runs: WorkflowRuns): Record<string, ApiMethod> {
  const completeSuccess: ApiMethod = (_workspace, args) => {
    const executionId = stringArg(args, 'function_execution_id');
    if (executionId === undefined) return missingArgument('function_execution_id');
    const outputs = jsonArg(args, 'outputs');
    if (!outputs.present) return missingArgument('outputs');
    if (outputs.invalid || !isJsonObject(outputs.value))
      return fail('invalid_arguments', ['[ERROR] outputs must be a JSON object']);
    const answer = runs.completeSuccess(executionId, outputs.value);
    return answer.ok ? ok() : fail(answer.error, answer.messages);
  };
  const completeError: ApiMethod = (_workspace, args) => {
    const executionId = stringArg(args, 'function_execution_id');
    if (executionId === undefined) return missingArgument('function_execution_id');
    const error = stringArg(args, 'error');
    if (error === undefined) return missingArgument('error');
    const answer = runs.completeError(executionId, error);
    return answer.ok ? ok() : fail(answer.error, answer.messages);
  };
  return {
    'functions.completeSuccess': completeSuccess,
    'functions.completeError': completeError,
  };
}

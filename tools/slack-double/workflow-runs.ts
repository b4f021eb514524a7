/**
 * Workflow Builder runs of the app's custom steps, as Slack keeps them: a run starts in
 * progress with its function execution id and a bot token of its own (the `bot_access_token`
 * of `function_executed`, good for the run only: 15 minutes at most, and revoked when the run
 * ends), and ends once, with `functions.completeSuccess` (outputs checked against the step's
 * output parameters) or `functions.completeError`. A second completion, or one after the
 * step's time ran out, is refused with `execution_not_in_running_state` as Slack refuses it.
 */
import { randomBytes } from 'node:crypto';
import { newSlackId } from './workspace.ts';

/** One input or output parameter of a step, as `function_executed` lists it. */
export interface StepParameter {
  name: string;
  type: string;
  title?: string;
  description?: string;
  is_required?: boolean;
}

/** A custom step as the app's manifest declares it (`functions.<callback_id>`). */
export interface StepDefinition {
  callbackId: string;
  title: string;
  description?: string;
  inputParameters: StepParameter[];
  outputParameters: StepParameter[];
}

/** Where a run is. */
export type RunState = 'in_progress' | 'completed' | 'failed' | 'timed_out';

/** One run of a step. */
export interface WorkflowRun {
  executionId: string;
  workflowExecutionId: string;
  definition: StepDefinition;
  inputs: Record<string, unknown>;
  /** The run's own bot token; never printed. */
  token: string;
  /** Who started the workflow, when a person did. */
  userId?: string;
  startedAt: number;
  state: RunState;
  outputs?: Record<string, unknown>;
  error?: string;
  /** Every completion the app asked for, the refused ones too. */
  completionAttempts: number;
}

/** Slack's answer to a completion. */
export type CompletionAnswer =
  | { ok: true }
  | {
      ok: false;
      error:
        | 'function_execution_not_found'
        | 'execution_not_in_running_state'
        | 'parameter_validation_failed';
      messages?: string[];
    };

/** How long Slack lets a run's token live, and so the run wait for its completion. */
export const RUN_TOKEN_TTL_MS = 15 * 60_000;

/** A manifest's step as Slack hands it to the app: parameters as lists, named. */
export function stepDefinitionFromManifest(manifest: unknown, callbackId: string): StepDefinition {
  const declared = (manifest as { functions?: Record<string, unknown> } | null)?.functions?.[
    callbackId
  ] as
    | {
        title?: string;
        description?: string;
        input_parameters?: Record<string, Omit<StepParameter, 'name'>>;
        output_parameters?: Record<string, Omit<StepParameter, 'name'>>;
      }
    | undefined;
  if (!declared) throw new RangeError(`the manifest declares no step ${callbackId}`);
  const list = (params: Record<string, Omit<StepParameter, 'name'>> | undefined) =>
    Object.entries(params ?? {}).map(([name, param]) => ({
      name,
      type: param.type,
      ...(param.title ? { title: param.title } : {}),
      ...(param.description ? { description: param.description } : {}),
      is_required: param.is_required === true,
    }));
  return {
    callbackId,
    title: declared.title ?? callbackId,
    ...(declared.description ? { description: declared.description } : {}),
    inputParameters: list(declared.input_parameters),
    outputParameters: list(declared.output_parameters),
  };
}

/** The runs of one workspace. */
export class WorkflowRuns {
  readonly #runs = new Map<string, WorkflowRun>();
  readonly #now: () => number;
  readonly #ttlMs: number;

  constructor(now: () => number, ttlMs: number = RUN_TOKEN_TTL_MS) {
    this.#now = now;
    this.#ttlMs = ttlMs;
  }

  /** Starts a run of a step with its inputs; in progress until completed or timed out. */
  start(definition: StepDefinition, inputs: Record<string, unknown>, userId?: string): WorkflowRun {
    const run: WorkflowRun = {
      executionId: newSlackId('Fx'),
      workflowExecutionId: newSlackId('Wx'),
      definition,
      inputs: { ...inputs },
      token: `xwfp-${randomBytes(16).toString('hex')}`,
      ...(userId ? { userId } : {}),
      startedAt: this.#now(),
      state: 'in_progress',
      completionAttempts: 0,
    };
    this.#runs.set(run.executionId, run);
    return run;
  }

  /** A run by its function execution id, its state brought up to now. */
  get(executionId: string): WorkflowRun | undefined {
    const run = this.#runs.get(executionId);
    if (run) this.#expire(run);
    return run;
  }

  /** Every run, oldest first. */
  all(): WorkflowRun[] {
    return [...this.#runs.values()].map((run) => {
      this.#expire(run);
      return run;
    });
  }

  #expire(run: WorkflowRun): void {
    if (run.state === 'in_progress' && this.#now() - run.startedAt >= this.#ttlMs)
      run.state = 'timed_out';
  }

  /**
   * Whether a token is a run's: `valid` while the run is in progress, `revoked` once it ended,
   * `expired` once its time ran out, `unknown` when no run has it.
   */
  tokenState(token: string): 'valid' | 'revoked' | 'expired' | 'unknown' {
    for (const run of this.#runs.values()) {
      if (run.token !== token) continue;
      this.#expire(run);
      if (run.state === 'in_progress') return 'valid';
      return run.state === 'timed_out' ? 'expired' : 'revoked';
    }
    return 'unknown';
  }

  /** Ends a run with its outputs (`functions.completeSuccess`). */
  completeSuccess(executionId: string, outputs: Record<string, unknown>): CompletionAnswer {
    const run = this.#runs.get(executionId);
    const refusal = this.#refusal(run);
    if (refusal || !run) return refusal ?? { ok: false, error: 'function_execution_not_found' };
    const problems = outputProblems(run.definition, outputs);
    if (problems.length > 0)
      return { ok: false, error: 'parameter_validation_failed', messages: problems };
    run.state = 'completed';
    run.outputs = { ...outputs };
    return { ok: true };
  }

  /** Ends a run in error (`functions.completeError`). */
  completeError(executionId: string, error: string): CompletionAnswer {
    const run = this.#runs.get(executionId);
    const refusal = this.#refusal(run);
    if (refusal || !run) return refusal ?? { ok: false, error: 'function_execution_not_found' };
    run.state = 'failed';
    run.error = error;
    return { ok: true };
  }

  #refusal(run: WorkflowRun | undefined): CompletionAnswer | undefined {
    if (!run) return { ok: false, error: 'function_execution_not_found' };
    run.completionAttempts += 1;
    this.#expire(run);
    return run.state === 'in_progress'
      ? undefined
      : { ok: false, error: 'execution_not_in_running_state' };
  }
}

// Outputs the step does not declare, required ones left out, values of the wrong kind.
function outputProblems(definition: StepDefinition, outputs: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const declared = new Map(definition.outputParameters.map((param) => [param.name, param]));
  for (const name of Object.keys(outputs))
    if (!declared.has(name)) problems.push(`[ERROR] output ${name} is not a parameter of the step`);
  for (const param of declared.values()) {
    const value = outputs[param.name];
    if (value === undefined || value === null || value === '') {
      if (param.is_required) problems.push(`[ERROR] missing required output: ${param.name}`);
      continue;
    }
    if (param.type === 'string' && typeof value !== 'string')
      problems.push(`[ERROR] output ${param.name} must be a string`);
  }
  return problems;
}

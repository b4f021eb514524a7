/** The one completion of a workflow step's run, as the outbox runs it. */
import { describe, expect, it } from 'vitest';
import {
  completeStepOnce,
  completeWorkflowStep,
} from '../../../src/slack/intents/complete-workflow-step.ts';
import { OutboxWorker } from '../../../src/slack/outbox/outbox-worker.ts';
import { createMemoryStores } from '../../../src/store/index.ts';
import { fakeDeps, silentLogger } from '../support/fake-deps.ts';

type Answer = () => Promise<{ ok: boolean }>;

// Slack's refusal as the Web API client throws it.
const refused = (error: string) =>
  Object.assign(new Error(`An API error occurred: ${error}`), {
    code: 'slack_webapi_platform_error',
    data: { ok: false, error },
  });

function setup(answers: { success?: Answer; error?: Answer }) {
  const stores = createMemoryStores();
  const calls: { method: string; args: Record<string, unknown> }[] = [];
  const record =
    (method: string, answer: Answer = async () => ({ ok: true })) =>
    (args: object) => {
      calls.push({ method, args: { ...args } });
      return answer();
    };
  const logger = silentLogger();
  const deps = fakeDeps({
    stores,
    logger,
    client: {
      functions: {
        completeSuccess: record('functions.completeSuccess', answers.success),
        completeError: record('functions.completeError', answers.error),
      },
    },
  });
  const worker = new OutboxWorker({
    outbox: stores.outbox,
    handlers: { [completeWorkflowStep.kind]: completeWorkflowStep.handler(deps) },
    logger,
    report: () => undefined,
  });
  return { stores, calls, worker, deps };
}

describe('completing a workflow step’s run', () => {
  it('completes a run once, however many ask', async () => {
    const { calls, worker, deps } = setup({});
    await completeStepOnce(deps, 'Fx1', { kind: 'success', outputs: { ticket_id: 'IT-1' } });
    await completeStepOnce(deps, 'Fx1', { kind: 'error', error: 'late' });
    while (await worker.runOnce());
    expect(calls).toEqual([
      {
        method: 'functions.completeSuccess',
        args: { function_execution_id: 'Fx1', outputs: { ticket_id: 'IT-1' } },
      },
    ]);
  });

  it('counts a run Slack says is no longer running as completed, not as a failure', async () => {
    const { stores, worker, deps } = setup({
      success: async () => {
        throw refused('execution_not_in_running_state');
      },
    });
    await completeStepOnce(deps, 'Fx2', { kind: 'success', outputs: { ticket_id: 'IT-2' } });
    await worker.runOnce();
    expect(await stores.outbox.deadLetters()).toEqual([]);
    expect(await worker.runOnce()).toBe(false);
  });

  it('tries again when Slack limits the call, rather than leaving the run in progress', async () => {
    let tries = 0;
    const { stores, worker, deps } = setup({
      error: async () => {
        tries += 1;
        if (tries === 1) throw refused('ratelimited');
        return { ok: true };
      },
    });
    await completeStepOnce(deps, 'Fx3', { kind: 'error', error: 'The ticket was not filed.' });
    await worker.runOnce();
    expect((await stores.outbox.stats()).depth).toBe(1);
    expect(await stores.outbox.deadLetters()).toEqual([]);
  });

  it('ends the run in error, naming the ticket, when Slack refuses its outputs', async () => {
    const { calls, worker, deps } = setup({
      success: async () => {
        throw refused('parameter_validation_failed');
      },
    });
    await completeStepOnce(deps, 'Fx4', { kind: 'success', outputs: { ticket_id: 'IT-4' } });
    await worker.runOnce();
    expect(calls.map((c) => c.method)).toEqual([
      'functions.completeSuccess',
      'functions.completeError',
    ]);
    expect(calls[1]?.args.error).toContain('The ticket IT-4 was filed');
  });
});

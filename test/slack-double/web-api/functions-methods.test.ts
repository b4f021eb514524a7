import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  RUN_TOKEN_TTL_MS,
  type SlackDouble,
  type StepDefinition,
  startSlackDouble,
} from '../../../tools/slack-double/index.ts';
import { NEWER_METHODS } from '../../../tools/slack-double/web-api/api-description.ts';
import { callApi } from '../call-api.ts';

const step: StepDefinition = {
  callbackId: 'create_service_desk_ticket',
  title: 'Create a service-desk ticket',
  inputParameters: [{ name: 'title', type: 'string', is_required: true }],
  outputParameters: [
    { name: 'ticket_id', type: 'string', is_required: true },
    { name: 'ticket_url', type: 'string', is_required: false },
  ],
};

describe('functions.* in the Slack double', () => {
  let double: SlackDouble;
  let now: number;

  beforeEach(async () => {
    now = 1_800_000_000_000;
    double = await startSlackDouble({ now: () => now });
  });

  afterEach(async () => {
    await double.close();
  });

  it('ends a run with its outputs, and refuses a second completion of it', async () => {
    const run = double.runs.start(step, { title: 'Laptop' });
    const first = await callApi(double, 'functions.completeSuccess', {
      function_execution_id: run.executionId,
      outputs: { ticket_id: 'IT-1' },
    });
    expect(first.ok).toBe(true);
    expect(double.runs.get(run.executionId)).toMatchObject({
      state: 'completed',
      outputs: { ticket_id: 'IT-1' },
    });
    const again = await callApi(double, 'functions.completeError', {
      function_execution_id: run.executionId,
      error: 'late',
    });
    expect(again.error).toBe('execution_not_in_running_state');
    expect(double.runs.get(run.executionId)?.state).toBe('completed');
  });

  it('refuses outputs the step does not declare, or without a required one', async () => {
    const run = double.runs.start(step, { title: 'Laptop' });
    const missing = await callApi(double, 'functions.completeSuccess', {
      function_execution_id: run.executionId,
      outputs: { ticket_url: 'https://x.example/IT-1' },
    });
    expect(missing.error).toBe('parameter_validation_failed');
    const unknown = await callApi(double, 'functions.completeSuccess', {
      function_execution_id: run.executionId,
      outputs: { ticket_id: 'IT-1', colour: 'red' },
    });
    expect(unknown.error).toBe('parameter_validation_failed');
    expect(double.runs.get(run.executionId)?.state).toBe('in_progress');
  });

  it('ends a run in error with the words given', async () => {
    const run = double.runs.start(step, { title: 'Laptop' });
    const answer = await callApi(double, 'functions.completeError', {
      function_execution_id: run.executionId,
      error: 'The ticket was not filed: Title is empty.',
    });
    expect(answer.ok).toBe(true);
    expect(double.runs.get(run.executionId)).toMatchObject({
      state: 'failed',
      error: 'The ticket was not filed: Title is empty.',
    });
  });

  it('answers function_execution_not_found for a run it never started', async () => {
    const answer = await callApi(double, 'functions.completeSuccess', {
      function_execution_id: 'Fx0NOSUCHRUN',
      outputs: { ticket_id: 'IT-1' },
    });
    expect(answer.error).toBe('function_execution_not_found');
  });

  it('refuses a completion after the run’s time ran out', async () => {
    const run = double.runs.start(step, { title: 'Laptop' });
    now += RUN_TOKEN_TTL_MS;
    const answer = await callApi(double, 'functions.completeSuccess', {
      function_execution_id: run.executionId,
      outputs: { ticket_id: 'IT-1' },
    });
    expect(answer.error).toBe('execution_not_in_running_state');
    expect(double.runs.get(run.executionId)?.state).toBe('timed_out');
  });

  it('takes the run’s own token while the run is in progress, and revokes it when it ends', async () => {
    const run = double.runs.start(step, { title: 'Laptop' });
    const args = { function_execution_id: run.executionId, outputs: { ticket_id: 'IT-1' } };
    expect((await callApi(double, 'functions.completeSuccess', args, run.token)).ok).toBe(true);
    const after = await callApi(double, 'auth.test', {}, run.token);
    expect(after.error).toBe('token_revoked');
  });

  it('takes the arguments the installed @slack/web-api gives each completion method', () => {
    const require = createRequire(import.meta.url);
    const types = readFileSync(
      require
        .resolve('@slack/web-api')
        .replace(/dist\/index\.js$/, 'dist/types/request/functions.d.ts'),
      'utf8',
    );
    const fieldsOf = (name: string) => {
      const body = new RegExp(`interface ${name}[^{]*\\{([^}]*)\\}`).exec(types)?.[1] ?? '';
      return [...body.matchAll(/(\w+)\??:/g)].map((m) => m[1]);
    };
    // ExecutionID gives function_execution_id, TokenOverridable the token.
    expect(types).toContain('function_execution_id: string;');
    expect([...(NEWER_METHODS['functions.completeSuccess']?.params ?? [])].sort()).toEqual(
      ['function_execution_id', 'token', ...fieldsOf('FunctionsCompleteSuccessArguments')].sort(),
    );
    expect([...(NEWER_METHODS['functions.completeError']?.params ?? [])].sort()).toEqual(
      ['function_execution_id', 'token', ...fieldsOf('FunctionsCompleteErrorArguments')].sort(),
    );
  });
});

/**
 * The Workflow Builder step "Create a service-desk ticket", run as Slack runs it (the Slack
 * double's `function_executed` and its `functions.complete*`), with the real app over HTTP and
 * the emulator: one ticket per run, one completion per run, whatever is redelivered or fails.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { AdaptivePlanner } from '../../src/mirror/index.ts';
import { FUNCTIONS } from '../../src/slack/ids.ts';
import { TRIAGE_CATCH_ALL } from '../../src/store/types.ts';
import { defaultIds, stepDefinitionFromManifest } from '../../tools/slack-double/index.ts';
import { eventually } from '../support/eventually.ts';
import { type Stack, startStack, ticketsOf } from '../support/stack.ts';

const { alice, bob, agentsPrivate } = defaultIds;
const manifest = parse(readFileSync(new URL('../../manifest.yml', import.meta.url), 'utf8'));
const definition = stepDefinitionFromManifest(manifest, FUNCTIONS.createTicket.callbackId);

describe('the workflow step “Create a service-desk ticket”', () => {
  let stack: Stack;
  afterEach(async () => {
    await stack?.close();
  });

  const laptopRequest = (title: string) => ({
    title,
    description: 'Starts Monday; needs a 14-inch laptop.',
    desk: 'it-hardware',
    priority: 'high',
    custom_fields: { device_type: 'laptop' },
  });

  const ended = (executionId: string) => {
    const run = stack.double.runs.get(executionId);
    return run && run.state !== 'in_progress' ? run : undefined;
  };

  it('files one ticket for the person who ran it and completes the run with its id and link', async () => {
    stack = await startStack();
    const { run, delivery } = await stack.driver.runWorkflowStep({
      definition,
      inputs: laptopRequest('New laptop for Bob'),
      userId: bob,
    });
    expect(delivery.status).toBe(200);
    const done = await eventually(() => ended(run.executionId), 10_000, 'the run completed');
    const [ticket] = ticketsOf(stack, 'bob@acme.example').filter(
      (t) => t.title === 'New laptop for Bob',
    );
    expect(ticket).toMatchObject({ desk_id: 'it-hardware', priority: 'high' });
    expect(done.state).toBe('completed');
    expect(done.outputs).toEqual({ ticket_id: ticket?.id, ticket_url: ticket?.url });
    // The ticket's thread is its card in the requester's direct message with the app.
    const dm = stack.double.workspace.openIm(bob);
    const card = await eventually(
      () => stack.double.workspace.messages(dm).find((m) => m.text?.includes(ticket?.id ?? '?')),
      5_000,
      'the card in Bob’s DM',
    );
    expect((await stack.app.stores.links.ticketForThread(dm, card.ts)) ?? undefined).toBe(
      ticket?.id,
    );
    // The run's own token is a secret, whatever is logged about the run.
    expect(stack.logs.filter((line) => line.includes(run.token))).toEqual([]);
  });

  it('gives the run’s ticket its triage card, as any filing gets', async () => {
    stack = await startStack({
      webhookSecret: 'whsec-e2e-workflow-0123456789abcdef',
      mirror: { planner: new AdaptivePlanner() },
    });
    stack.emulator.setWebhooks({ announceCreated: true });
    await stack.app.stores.triageChannels.set(TRIAGE_CATCH_ALL, agentsPrivate);
    // The feed marks when it first saw the channels; tickets before that get no card.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const { run } = await stack.driver.runWorkflowStep({
      definition,
      inputs: { title: 'Laptop for the new intern' },
      userId: bob,
    });
    const done = await eventually(() => ended(run.executionId), 10_000, 'the run completed');
    const ticketId = done.outputs?.ticket_id;
    const cards = () =>
      stack.double.workspace
        .messages(agentsPrivate)
        .filter(
          (m) =>
            m.metadata?.event_type === 'triage_card' &&
            m.metadata.event_payload?.ticket_id === ticketId,
        );
    await eventually(() => cards().length > 0, 10_000, 'the triage card');
    expect(cards()).toHaveLength(1);
  });

  it('files for the chosen requester, their card in their direct message', async () => {
    stack = await startStack();
    const { run } = await stack.driver.runWorkflowStep({
      definition,
      inputs: { ...laptopRequest('Laptop for Alice'), requester: alice },
      userId: bob,
    });
    const done = await eventually(() => ended(run.executionId), 10_000, 'the run completed');
    const ticket = ticketsOf(stack, 'alice@acme.example').find(
      (t) => t.title === 'Laptop for Alice',
    );
    expect(done.outputs?.ticket_id).toBe(ticket?.id);
    const dm = stack.double.workspace.openIm(alice);
    const card = await eventually(
      () => stack.double.workspace.messages(dm).find((m) => m.text?.includes(ticket?.id ?? '?')),
      5_000,
      'the card in Alice’s DM',
    );
    // Her own buttons, not those of Bob, who ran the workflow.
    expect(JSON.stringify(card.blocks)).toContain('mark_resolved');
  });

  it('makes nothing new and completes nothing twice when Slack delivers the event again', async () => {
    stack = await startStack();
    const { run, event, delivery } = await stack.driver.runWorkflowStep({
      definition,
      inputs: laptopRequest('Monitor for Bob'),
      userId: bob,
    });
    await eventually(() => ended(run.executionId), 10_000, 'the run completed');
    // Slack's retry of the same delivery, and the same run in a new delivery.
    await stack.driver.event(event, { eventId: delivery.eventId, retryNum: 1 });
    await stack.driver.event(event);
    await new Promise((r) => setTimeout(r, 500));
    expect(
      ticketsOf(stack, 'bob@acme.example').filter((t) => t.title === 'Monitor for Bob'),
    ).toHaveLength(1);
    expect(stack.double.callsTo('functions.completeSuccess')).toHaveLength(1);
    expect(stack.double.runs.get(run.executionId)?.completionAttempts).toBe(1);
  });

  it('files once and completes once when Slack’s retry reaches another replica', async () => {
    stack = await startStack();
    const other = await stack.addReplica();
    const { run, event, delivery } = await stack.driver.runWorkflowStep({
      definition,
      inputs: laptopRequest('Headset for Bob'),
      userId: bob,
    });
    await Promise.all([
      other.driver.event(event, { eventId: delivery.eventId, retryNum: 1 }),
      stack.driver.event(event, { eventId: delivery.eventId, retryNum: 2 }),
    ]);
    await eventually(() => ended(run.executionId), 10_000, 'the run completed');
    await new Promise((r) => setTimeout(r, 500));
    expect(
      ticketsOf(stack, 'bob@acme.example').filter((t) => t.title === 'Headset for Bob'),
    ).toHaveLength(1);
    expect(stack.double.runs.get(run.executionId)?.completionAttempts).toBe(1);
    const dm = stack.double.workspace.openIm(bob);
    const ticketId = stack.double.runs.get(run.executionId)?.outputs?.ticket_id as string;
    expect(
      stack.double.workspace.messages(dm).filter((m) => m.text?.includes(ticketId)),
    ).toHaveLength(1);
  });

  it('completes with an error naming the desk field the service desk requires', async () => {
    stack = await startStack();
    const { run } = await stack.driver.runWorkflowStep({
      definition,
      // The People desk requires a start date and the manager's email.
      inputs: { title: 'Onboard Dana', desk: 'hr', custom_fields: { start_date: '2026-12-07' } },
      userId: bob,
    });
    const done = await eventually(() => ended(run.executionId), 10_000, 'the run ended');
    expect(done.state).toBe('failed');
    expect(done.error).toContain('desk field "manager_email" in Desk fields');
    expect(done.error).not.toContain('start_date');
    expect(ticketsOf(stack, 'bob@acme.example').some((t) => t.title === 'Onboard Dana')).toBe(
      false,
    );
  });

  it('completes with an error naming the input it cannot use, filing nothing', async () => {
    stack = await startStack();
    const { run } = await stack.driver.runWorkflowStep({
      definition,
      inputs: { title: 'Laptop', priority: 'asap' },
      userId: bob,
    });
    const done = await eventually(() => ended(run.executionId), 10_000, 'the run ended');
    expect(done.state).toBe('failed');
    expect(done.error).toContain('Priority "asap"');
    expect(stack.platformRequests).not.toContain('createTicket');
  });

  it('keeps the run in progress through a platform outage and completes it when the platform answers', async () => {
    stack = await startStack();
    stack.emulator.setFaults({ down: true });
    const { run } = await stack.driver.runWorkflowStep({
      definition,
      inputs: laptopRequest('Docking station for Bob'),
      userId: bob,
    });
    await eventually(
      () => stack.logs.some((line) => line.includes('outbox entry will be retried')),
      10_000,
      'a failed attempt',
    );
    expect(stack.double.runs.get(run.executionId)?.state).toBe('in_progress');
    stack.emulator.setFaults({ down: false });
    const done = await eventually(() => ended(run.executionId), 15_000, 'the run completed');
    const ticket = ticketsOf(stack, 'bob@acme.example').find(
      (t) => t.title === 'Docking station for Bob',
    );
    expect(done.state).toBe('completed');
    expect(done.outputs?.ticket_id).toBe(ticket?.id);
  });

  it('ends the run past the step’s time, saying the ticket still comes, and files it when the platform answers', async () => {
    stack = await startStack({ workflowStepAnswerMs: 300 });
    stack.emulator.setFaults({ down: true });
    const { run } = await stack.driver.runWorkflowStep({
      definition,
      inputs: laptopRequest('Keyboard for Bob'),
      userId: bob,
    });
    const done = await eventually(() => ended(run.executionId), 10_000, 'the run ended');
    expect(done.state).toBe('failed');
    expect(done.error).toContain('will still be filed');
    expect(done.error).toContain('the requester (Bob Baker)');
    stack.emulator.setFaults({ down: false });
    const ticket = await eventually(
      () => ticketsOf(stack, 'bob@acme.example').find((t) => t.title === 'Keyboard for Bob'),
      15_000,
      'the ticket filed',
    );
    const dm = stack.double.workspace.openIm(bob);
    await eventually(
      () => stack.double.workspace.messages(dm).some((m) => m.text?.includes(ticket.id)),
      5_000,
      'its card in Bob’s DM',
    );
    // The run was over: the filing's own completion is refused by nobody, for it is never sent.
    expect(stack.double.callsTo('functions.completeSuccess')).toHaveLength(0);
  });

  it.each([
    ['429 with Retry-After', 'ratelimited', { retryAfterSec: 1 }],
    ['500', 'internal_error', { status: 500 }],
  ])(
    'completes once when Slack answers functions.completeSuccess with %s',
    async (_name, error, options) => {
      stack = await startStack();
      stack.double.failNext('functions.completeSuccess', error, options);
      const { run } = await stack.driver.runWorkflowStep({
        definition,
        inputs: laptopRequest(`Mouse for Bob (${error})`),
        userId: bob,
      });
      const done = await eventually(() => ended(run.executionId), 15_000, 'the run completed');
      expect(done.state).toBe('completed');
      expect(
        stack.double.callsTo('functions.completeSuccess').filter((c) => c.injected),
      ).toHaveLength(1);
      expect(done.completionAttempts).toBe(1);
      expect(
        ticketsOf(stack, 'bob@acme.example').filter((t) => t.title === `Mouse for Bob (${error})`),
      ).toHaveLength(1);
    },
  );

  it('completes once when Slack answers functions.completeError with 429', async () => {
    stack = await startStack();
    stack.double.failNext('functions.completeError', 'ratelimited', { retryAfterSec: 1 });
    const { run } = await stack.driver.runWorkflowStep({
      definition,
      inputs: { title: 'Laptop', priority: 'asap' },
      userId: bob,
    });
    const done = await eventually(() => ended(run.executionId), 15_000, 'the run ended');
    expect(done.state).toBe('failed');
    expect(done.completionAttempts).toBe(1);
  });
});

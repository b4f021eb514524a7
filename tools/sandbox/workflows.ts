/**
 * The workflows a workspace's admins built in Workflow Builder with the app's steps, as the
 * sandbox offers them: a button runs one as Slack would (the step's `function_executed`, with
 * the person who pressed it as the interactor), and its outcome is told when the run ends.
 */
import { FUNCTIONS } from '../../src/slack/ids.ts';
import type { AppProfile } from './app-manifest.ts';

/** A workflow the page offers. */
export interface SandboxWorkflow {
  id: string;
  name: string;
  description: string;
  /** The app's step it runs (manifest `functions`). */
  callbackId: string;
  /** What the workflow's builder set the step's inputs to, for the person running it. */
  inputs(person: { realName: string }): Record<string, unknown>;
}

/** Every workflow of the sandbox's workspace. */
export const SANDBOX_WORKFLOWS: readonly SandboxWorkflow[] = [
  {
    id: 'new_laptop_request',
    name: 'New laptop request',
    description: 'Asks IT hardware for a laptop; the ticket comes to your DM with the app',
    callbackId: FUNCTIONS.createTicket.callbackId,
    inputs: (person) => ({
      title: `New laptop for ${person.realName}`,
      description: `Requested with the “New laptop request” workflow by ${person.realName}.`,
      desk: 'it-hardware',
      priority: 'medium',
      custom_fields: { device_type: 'laptop' },
    }),
  },
];

/** A workflow as the page lists it. */
export interface WorkflowView {
  id: string;
  name: string;
  description: string;
}

/** The workflows whose step the app's manifest declares: a step it lost runs nothing. */
export function workflowsOf(profile: AppProfile): WorkflowView[] {
  return SANDBOX_WORKFLOWS.filter((w) =>
    profile.steps.some((step) => step.callbackId === w.callbackId),
  ).map(({ id, name, description }) => ({ id, name, description }));
}

/** Registers the Workflow Builder steps the app runs. */
import type { App } from '@slack/bolt';
import type { SlackDeps } from '../../deps.ts';
import { FUNCTIONS } from '../../ids.ts';
import { createTicketStep } from './create-ticket-step.ts';

/** Registers the step "Create a service-desk ticket" (Bolt's `app.function`). */
export function registerFunctions(app: App, deps: SlackDeps): void {
  app.function(FUNCTIONS.createTicket.callbackId, createTicketStep(deps));
}

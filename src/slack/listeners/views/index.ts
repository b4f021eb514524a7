/** Registers the view submissions. */
import type { App } from '@slack/bolt';
import type { SlackDeps } from '../../deps.ts';
import { VIEWS } from '../../ids.ts';
import { createTicketSubmission } from './create-ticket-submission.ts';
import { deskDetailsSubmission } from './desk-details-submission.ts';
import { replyToRequesterSubmission } from './reply-to-requester-submission.ts';
import { updateTicketSubmission } from './update-ticket-submission.ts';

/** Registers the create modal's and the update modal's submissions. */
export function registerViews(app: App, deps: SlackDeps): void {
  app.view(VIEWS.createTicket, createTicketSubmission(deps));
  app.view(VIEWS.updateTicket, updateTicketSubmission(deps));
  app.view(VIEWS.replyToRequester, replyToRequesterSubmission(deps));
  app.view(VIEWS.deskDetails, deskDetailsSubmission(deps));
}

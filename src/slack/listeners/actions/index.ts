/** Registers the block actions. */
import type { App } from '@slack/bolt';
import type { SlackDeps } from '../../deps.ts';
import { ACTIONS, actionIdOrQueued, CATALOG_FIELDS, CREATE_FIELDS } from '../../ids.ts';
import { addDeskDetails } from './add-desk-details.ts';
import { assignToMe } from './assign-to-me.ts';
import { catalogItemChosen } from './catalog-item-chosen.ts';
import { closedReplyDismiss } from './closed-reply-dismiss.ts';
import { closedReplyNewTicket } from './closed-reply-new-ticket.ts';
import { deskSelectChanged } from './desk-select-changed.ts';
import { fileOwnFromMessage } from './file-own-from-message.ts';
import { newTicketButton } from './new-ticket-button.ts';
import { openInDashboard } from './open-in-dashboard.ts';
import { openUpdateModal } from './open-update-modal.ts';
import { replyToRequester } from './reply-to-requester.ts';
import { requestSomethingButton } from './request-something-button.ts';
import { requesterStatusChange } from './requester-status-change.ts';
import { resolvedFollowUp } from './resolved-follow-up.ts';
import { talkToPerson } from './talk-to-person.ts';

/**
 * Registers the card's buttons, the closed-ticket prompt's, the thread-taken notice's, App
 * Home's ("New ticket", "Request something"), "Talk to a person", the create form's desk select
 * and the request form's catalog select.
 */
export function registerActions(app: App, deps: SlackDeps): void {
  // The card's buttons, and the same buttons in an agent's queue (one per ticket).
  app.action(actionIdOrQueued(ACTIONS.openInDashboard), openInDashboard);
  app.action(ACTIONS.openUpdate, openUpdateModal(deps));
  app.action(actionIdOrQueued(ACTIONS.assignToMe), assignToMe(deps));
  app.action(ACTIONS.markResolved, requesterStatusChange(deps, 'resolve'));
  app.action(ACTIONS.reopenTicket, requesterStatusChange(deps, 'reopen'));
  app.action(ACTIONS.talkToPerson, talkToPerson(deps));
  app.action(ACTIONS.closedReplyNewTicket, closedReplyNewTicket(deps, 'closed'));
  app.action(ACTIONS.fileAsOwnTicket, closedReplyNewTicket(deps, 'others'));
  app.action(ACTIONS.closedReplyDismiss, closedReplyDismiss);
  app.action(ACTIONS.resolvedFollowUpReopen, resolvedFollowUp(deps, 'reopen'));
  app.action(ACTIONS.resolvedFollowUpNewTicket, resolvedFollowUp(deps, 'new'));
  app.action(ACTIONS.fileOwnFromMessage, fileOwnFromMessage(deps));
  app.action(ACTIONS.newTicket, newTicketButton(deps));
  app.action(CREATE_FIELDS.desk.action, deskSelectChanged(deps));
  app.action(ACTIONS.requestSomething, requestSomethingButton(deps));
  app.action(CATALOG_FIELDS.item.action, catalogItemChosen(deps));
  app.action(ACTIONS.replyToRequester, replyToRequester(deps));
  app.action(ACTIONS.addDeskDetails, addDeskDetails(deps));
}

/** Registers the shortcuts. */
import type { App } from '@slack/bolt';
import type { SlackDeps } from '../../deps.ts';
import { SHORTCUTS } from '../../ids.ts';
import { createFromMessageShortcut } from './create-from-message.ts';
import { newTicketShortcut } from './new-ticket.ts';
import { sendToRequesterShortcut } from './send-to-requester.ts';

/** Registers the message shortcut "Create ticket" and the global shortcut "New ticket". */
export function registerShortcuts(app: App, deps: SlackDeps): void {
  app.shortcut(SHORTCUTS.createFromMessage, createFromMessageShortcut(deps));
  app.shortcut(SHORTCUTS.newTicket, newTicketShortcut(deps));
  app.shortcut(SHORTCUTS.sendToRequester, sendToRequesterShortcut(deps));
}

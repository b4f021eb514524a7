/** Registers the Events API listeners, each behind a check of its event's shape. */
import type { App } from '@slack/bolt';
import type { SlackDeps } from '../../deps.ts';
import { appHomeOpened } from './app-home-opened.ts';
import {
  appHomeOpenedShape,
  checkShape,
  messageEventShape,
  reactionAddedShape,
  whenShaped,
} from './event-shapes.ts';
import { messageEvent } from './message.ts';
import { reactionAdded } from './reaction-added.ts';

/** Registers message (with edits), reaction_added and app_home_opened. */
export function registerEvents(app: App, deps: SlackDeps): void {
  app.event('message', whenShaped(messageEventShape, deps.logger, messageEvent(deps)));
  app.event('reaction_added', checkShape(reactionAddedShape, deps.logger), reactionAdded(deps));
  app.event('app_home_opened', checkShape(appHomeOpenedShape, deps.logger), appHomeOpened(deps));
}

/** Registers the Events API listeners. */
import type { App } from '@slack/bolt';
import type { SlackDeps } from '../../deps.ts';
import { appHomeOpened } from './app-home-opened.ts';
import { messageEvent } from './message.ts';
import { reactionAdded } from './reaction-added.ts';

/** Registers message (with edits), reaction_added and app_home_opened. */
export function registerEvents(app: App, deps: SlackDeps): void {
  app.event('message', messageEvent(deps));
  app.event('reaction_added', reactionAdded(deps));
  app.event('app_home_opened', appHomeOpened(deps));
}

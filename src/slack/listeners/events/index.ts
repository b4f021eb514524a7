/** Registers the Events API listeners. */
import type { App } from '@slack/bolt';
import type { SlackDeps } from '../../deps.ts';
import { messageEvent } from './message.ts';
import { reactionAdded } from './reaction-added.ts';

/** Registers message and reaction_added. */
export function registerEvents(app: App, deps: SlackDeps): void {
  app.event('message', messageEvent(deps));
  app.event('reaction_added', reactionAdded(deps));
}

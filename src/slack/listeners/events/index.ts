/** Registers the Events API listeners, each behind a check of its event's shape. */
import type { App } from '@slack/bolt';
import type { SlackDeps } from '../../deps.ts';
import { appHomeOpened } from './app-home-opened.ts';
import { appUninstalled } from './app-uninstalled.ts';
import { assistantThreadStarted } from './assistant-thread-started.ts';
import {
  appHomeOpenedShape,
  assistantThreadStartedShape,
  channelMemberShape,
  checkShape,
  linkSharedShape,
  messageEventShape,
  reactionAddedShape,
  whenShaped,
} from './event-shapes.ts';
import { linkShared } from './link-shared.ts';
import { memberJoinedChannel } from './member-joined-channel.ts';
import { memberLeftChannel } from './member-left-channel.ts';
import { messageEvent } from './message.ts';
import { reactionAdded } from './reaction-added.ts';
import { tokensRevoked } from './tokens-revoked.ts';
import { triageReaction } from './triage-reaction.ts';

/**
 * Registers message (with edits), reaction_added (the ticket emoji, and agents' reactions on
 * triage cards), app_home_opened, channel membership, link_shared (ticket links unfurl) and the
 * opening of Slack's AI pane.
 */
export function registerEvents(app: App, deps: SlackDeps): void {
  app.event('message', whenShaped(messageEventShape, deps.logger, messageEvent(deps)));
  // The ticket emoji files; the agents' actions on triage cards (TRIAGE_REACTIONS, never the
  // ticket emoji) act. One shape check for both, so an odd event is logged once.
  const reactionListeners = [reactionAdded(deps), triageReaction(deps)];
  app.event('reaction_added', checkShape(reactionAddedShape, deps.logger), async (args) => {
    for (const listener of reactionListeners) await listener(args);
  });
  app.event('app_home_opened', checkShape(appHomeOpenedShape, deps.logger), appHomeOpened(deps));
  app.event(
    'member_joined_channel',
    whenShaped(channelMemberShape, deps.logger, memberJoinedChannel(deps)),
  );
  app.event(
    'member_left_channel',
    whenShaped(channelMemberShape, deps.logger, memberLeftChannel(deps)),
  );
  app.event('link_shared', whenShaped(linkSharedShape, deps.logger, linkShared(deps)));
  app.event(
    'assistant_thread_started',
    whenShaped(assistantThreadStartedShape, deps.logger, assistantThreadStarted(deps)),
  );
  // Installed by OAuth only: with one SLACK_BOT_TOKEN there is no installation to remove.
  const { installs } = deps;
  if (installs) {
    app.event('app_uninstalled', appUninstalled({ installs }));
    app.event('tokens_revoked', tokensRevoked({ installs, logger: deps.logger }));
  }
}

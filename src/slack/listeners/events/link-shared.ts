/**
 * A message with links on the app's unfurl domains was posted (`link_shared`): the tickets'
 * dashboard links among them are unfurled after Slack is answered (see unfurls/ticket-unfurler).
 * Links still in the composer (`source: composer`) are not: only a posted message's are.
 */

import type { SlackDeps } from '../../deps.ts';
import { type UnfurlDeps, unfurlTicketLinks } from '../../unfurls/ticket-unfurler.ts';
import type { LinkSharedShape } from './event-shapes.ts';

/** Builds the link_shared handler. */
export function linkShared(deps: UnfurlDeps & Pick<SlackDeps, 'tasks'>) {
  return async (event: LinkSharedShape): Promise<void> => {
    if (event.source !== undefined && event.source !== 'conversations_history') return;
    const links = event.links.map((link) => link.url);
    const shared = { channel: event.channel, messageTs: event.message_ts, user: event.user, links };
    deps.tasks.run('unfurl-ticket-links', () => unfurlTicketLinks(deps, shared), {
      channel: event.channel,
    });
  };
}

/** The private answers to `/ticket channel`: what changed, what stands, or why nothing did. */
import type { ChannelMode } from '../../store/types.ts';
import { md, safeMrkdwn } from './mrkdwn.ts';
import type { SlackMessage } from './ticket-card-builder.ts';

/** The desk a request channel files to, as the answer names it. */
export interface ChannelDesk {
  /** The desk's slug (CHANNEL_DESKS), or undefined when the channel is routed nowhere. */
  slug: string | undefined;
  /** Its name as the platform lists it, when known. */
  name?: string | undefined;
  /** The platform's desks were read and this slug is not among them. */
  missing?: boolean;
}

/** Where a channel's mode comes from. */
export type ChannelModeOrigin = 'slack' | 'default' | 'none';

function message(text: string): SlackMessage {
  return { text, blocks: [{ type: 'section', text: md(text) }] };
}

function deskPhrase(desk: ChannelDesk): string {
  if (!desk.slug) return 'a ticket (the service desk picks its desk)';
  const name = desk.name ?? desk.slug;
  return `a ticket on the *${safeMrkdwn(name, 80)}* desk`;
}

// A slug the platform does not have: every filing would fail, so the agent hears it now.
function missingDeskWarning(desk: ChannelDesk): string {
  if (!desk.missing || !desk.slug) return '';
  return `\n:warning: This channel is routed to desk \`${safeMrkdwn(desk.slug, 60)}\` (CHANNEL_DESKS), which the service desk does not have: messages here will not be filed, and their writers will be told so, until an admin fixes the routing.`;
}

/** What `/ticket channel auto|off` changed. */
export function buildChannelModeSet(mode: ChannelMode, desk: ChannelDesk): SlackMessage {
  if (mode === 'auto') {
    return message(
      `:white_check_mark: Every new message here now becomes ${deskPhrase(desk)}. I answer each in its thread with the ticket’s card; replies in the thread go to the ticket. Thread replies and edits file nothing. \`/ticket channel off\` stops it.${missingDeskWarning(desk)}`,
    );
  }
  return message(
    ':white_check_mark: New messages here no longer become tickets. People can still file one with `/ticket` or by reacting with the ticket emoji. `/ticket channel auto` turns it back on.',
  );
}

/** What `/ticket channel` says of the channel as it stands. */
export function buildChannelModeStatus(
  mode: ChannelMode,
  origin: ChannelModeOrigin,
  desk: ChannelDesk,
): SlackMessage {
  const from =
    origin === 'default'
      ? ' (the app’s default for this channel)'
      : origin === 'none'
        ? ''
        : ' (set with `/ticket channel`)';
  if (mode === 'auto') {
    return message(
      `:inbox_tray: Every new message here becomes ${deskPhrase(desk)}${from}. \`/ticket channel off\` stops it.${missingDeskWarning(desk)}`,
    );
  }
  return message(
    `:inbox_tray: New messages here do not become tickets${from}. \`/ticket channel auto\` makes every new message here a ticket.`,
  );
}

/** A person who is not an agent ran `/ticket channel`. */
export function buildChannelModeAgentsOnly(): SlackMessage {
  return message(
    ':no_entry: Only service-desk agents can choose whether messages in a channel become tickets. You can file one with `/ticket`.',
  );
}

/** `/ticket channel` with words it does not know. */
export function buildChannelModeUsage(): SlackMessage {
  return message(
    '`/ticket channel auto` makes every new message in this channel a ticket; `/ticket channel off` stops it; `/ticket channel` says which it is.',
  );
}

/** Why `/ticket channel` cannot act where it was run. */
export function buildChannelModeNotHere(reason: 'direct-message' | 'not-in-channel'): SlackMessage {
  return message(
    reason === 'direct-message'
      ? ':information_source: Run `/ticket channel` in a channel. Here, every message you send me becomes a ticket already.'
      : ':information_source: I am not in this channel, so I would not see its messages. Invite me with `/invite @Service Desk`, then run `/ticket channel auto` again. Nothing changed.',
  );
}

/** The mode could not be read or changed now (Slack or the app's store failing). */
export function buildChannelModeFailed(): SlackMessage {
  return message(
    ':warning: Slack or the app’s storage did not answer just now, so nothing changed here. Please try again in a minute.',
  );
}

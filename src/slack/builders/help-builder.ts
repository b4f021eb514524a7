/** The `/ticket help` answer. */
import { md } from './mrkdwn.ts';
import type { SlackMessage } from './ticket-card-builder.ts';

/** Explains everything the app does, for `/ticket help`. */
export function buildHelp(emoji: string): SlackMessage {
  const lines = [
    '*File a ticket*',
    '• `/ticket` opens a form; `/ticket printer on 3rd floor jams` opens it with the title filled in.',
    '• *New ticket* in the shortcuts menu (the ⚡ button) does the same from anywhere.',
    '• `/ticket request` picks what you need from the service catalog (a laptop, an access…); `/ticket request laptop` starts with the best match. It goes straight to the desk that handles it.',
    '• *Create ticket* in a message’s ⋮ menu turns that message and its thread into a ticket.',
    `• React with :${emoji}: to a message to file it as a ticket at once (the author is the requester).`,
    '• The reaction and replies in threads work in channels I am a member of: invite me with `/invite @Service Desk`. Elsewhere, Slack does not tell me about them.',
    '• Or just send me a direct message: it becomes a ticket and I answer in its thread.',
    '',
    '*Follow a ticket*',
    '• `/ticket ABC-123` shows where a ticket is: status, priority, who has it.',
    '• `/ticket mine` lists your open tickets.',
    '• Replies in a ticket’s thread go to the ticket, and the service desk’s answers appear there.',
    '• The ticket’s card has buttons: *Mark resolved* and *Reopen* for the requester; *Update* and *Assign to me* for agents.',
    '• My *Home* tab lists your open tickets, with buttons to file a new one or request something from the catalog.',
    '',
    '*Your queue* (for service-desk agents)',
    '• `/ticket queue` lists the open tickets assigned to you, the oldest target first, and the unassigned ones on your desks (those whose triage channels you are in), each with *Assign to me*; your *Home* tab shows the same.',
    '',
    '*Request channels* (for service-desk agents)',
    '• `/ticket channel auto` in a channel I am in makes every new message there a ticket on the channel’s desk, answered in its thread; `/ticket channel off` stops it; `/ticket channel` says which it is.',
    '',
    '*Triage channels* (for service-desk agents)',
    '• `/ticket triage it` in a private channel I am in makes it the triage channel of the `it` desk: a card for each new ticket there, with *Assign to me*, *Update* and *Reply to requester*; its members are the desk’s agents. Several desks may share one channel.',
    '• `/ticket triage unrouted` makes it the catch-all, for tickets on no desk or on a desk with no triage channel of its own; `/ticket triage off` ends what the channel triages.',
    '• A private channel is best: ticket texts are meant for their requester and the agents.',
  ];
  const text = lines.join('\n');
  return { text, blocks: [{ type: 'section', text: md(text) }] };
}

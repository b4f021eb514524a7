/** The `/ticket help` answer. */
import { md } from './mrkdwn.ts';
import type { SlackMessage } from './ticket-card-builder.ts';

/** Explains everything the app does, for `/ticket help`. */
export function buildHelp(emoji: string): SlackMessage {
  const lines = [
    '*File a ticket*',
    '• `/ticket` opens a form; `/ticket printer on 3rd floor jams` opens it with the title filled in.',
    '• *New ticket* in the shortcuts menu (the ⚡ button) does the same from anywhere.',
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
    '• My *Home* tab lists your open tickets, with a button to file a new one.',
  ];
  const text = lines.join('\n');
  return { text, blocks: [{ type: 'section', text: md(text) }] };
}

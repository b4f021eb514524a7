/**
 * What a person is told when they ask for a ticket (🎫, the message shortcut) on a message of a
 * thread that already is a ticket's: nothing is filed, the thread stays with its ticket, and
 * they may file the message as a ticket of their own, whose card comes to their direct messages.
 */
import type { KnownBlock } from '@slack/types';
import { z } from 'zod';
import { ACTIONS } from '../ids.ts';
import { parseJsonAs } from './json-value.ts';
import { LIMITS, md, plain, safeMrkdwn } from './mrkdwn.ts';
import type { SlackMessage } from './ticket-card-builder.ts';

/** The message a notice is about: what its "File my own ticket" button carries as its value. */
export const takenMessageSchema = z.object({
  /** The ticket the thread belongs to. */
  ticketId: z.string(),
  channel: z.string(),
  /** The message itself. */
  ts: z.string(),
  /** The thread it is in (its own ts when it heads the thread). */
  threadTs: z.string(),
  /** Who was told: only they may use the button. */
  userId: z.string(),
});
/** The message a notice is about. */
export type TakenMessage = z.infer<typeof takenMessageSchema>;

/** Reads a button value back; undefined when it is not one of the notice's. */
export function parseTakenMessage(value: string | undefined): TakenMessage | undefined {
  return parseJsonAs(takenMessageSchema, value);
}

// A title is the platform's: escaped, and short enough for one line.
const TITLE_MAX = 150;

/** The private notice: which ticket the thread is, and the button to file one's own. */
export function buildThreadTakenNotice(taken: TakenMessage, title?: string): SlackMessage {
  const id = safeMrkdwn(taken.ticketId, 40);
  const named = title ? `*${id}: ${safeMrkdwn(title, TITLE_MAX)}*` : `*${id}*`;
  const lead = `:ticket: This thread is already ${named}. Replies here go to it, so nothing new was filed.`;
  const offer = `If this message is a problem of your own, file it as your own ticket: its card comes to your direct messages with the app, and this thread stays with *${id}*.`;
  const blocks: KnownBlock[] = [
    { type: 'section', text: md(lead) },
    { type: 'context', elements: [md(offer)] },
    {
      type: 'actions',
      elements: [
        {
          type: 'button',
          action_id: ACTIONS.fileOwnFromMessage,
          text: plain('File my own ticket from this message', LIMITS.buttonText),
          value: JSON.stringify(taken),
        },
      ],
    },
  ];
  const textTitle = title ? `: ${safeMrkdwn(title, TITLE_MAX)}` : '';
  return {
    text: `This thread is already ${id}${textTitle}. Replies here go to it.`,
    blocks,
  };
}

/** What replaces the notice once the person chose to file the message as their own ticket. */
export function buildFilingOwnFromMessage(taken: TakenMessage): SlackMessage {
  const text = `:hourglass_flowing_sand: Filing this message as your own ticket. Its card will come in your direct messages with the app; this thread stays with *${safeMrkdwn(taken.ticketId, 40)}*.`;
  return { text, blocks: [{ type: 'section', text: md(text) }] };
}

/** What replaces the notice when the message is already someone's own ticket. */
export function buildOwnAlreadyFiled(ticketId: string | undefined): SlackMessage {
  const text = `:ticket: This message is already filed as its own ticket${ticketId ? `, *${safeMrkdwn(ticketId, 40)}*` : ''}, so nothing new was filed.`;
  return { text, blocks: [{ type: 'section', text: md(text) }] };
}

/** Said when Slack could not open the person's direct messages: the notice stays for a retry. */
export function buildOwnSlackBusy(): SlackMessage {
  const text =
    ':hourglass_flowing_sand: Slack did not answer just now, so nothing was filed yet. Click *File my own ticket from this message* again in a moment.';
  return { text, blocks: [{ type: 'section', text: md(text) }] };
}

/**
 * The lead of a card sent to the person's DM because the thread they filed from already is
 * another ticket's: the thread stays with it, and the new ticket's thread is here.
 */
export function buildBesideThreadLead(ticketId: string, threadTicketId: string): string {
  const id = safeMrkdwn(ticketId, 40);
  const other = safeMrkdwn(threadTicketId, 40);
  return `:ticket: You filed *${id}* from a message of *${other}*'s thread. That thread stays with *${other}*, so *${id}*'s thread is here: replies in this thread go to *${id}*.`;
}

/** Said where the person filed (their modal) when the card went to their DM for that reason. */
export function buildFiledBesideThreadText(ticketId: string, threadTicketId: string): string {
  return `:white_check_mark: *${safeMrkdwn(ticketId, 40)}* is filed. The thread you filed it from is *${safeMrkdwn(threadTicketId, 40)}*'s, so its card and thread are in your direct messages with the app (*Service Desk → Messages*). You can close this window.`;
}

/** Said when the message the notice was about is gone (deleted) or out of the app's reach. */
export function buildTakenMessageGone(): SlackMessage {
  const text =
    ':grey_question: That message is no longer there for the app to read, so nothing was filed. Copy its words into `/ticket` to file them.';
  return { text, blocks: [{ type: 'section', text: md(text) }] };
}

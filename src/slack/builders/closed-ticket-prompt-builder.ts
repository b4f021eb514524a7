/**
 * The private prompts after a reply that could not be added to its thread's ticket: the ticket
 * is closed (final), or it is someone else's and resolved (the reply would reopen it). Either
 * way the person may file their words as a ticket with one click, or dismiss the prompt with
 * the "Dismiss message" link Slack puts on every ephemeral message (a button of the app's own
 * beside it would be a second one); their words are shown in full so that nothing they wrote is
 * lost.
 */
import type { KnownBlock } from '@slack/types';
import { z } from 'zod';
import { ACTIONS } from '../ids.ts';
import { LIMITS, md, plain, quotedSections, safeMrkdwn } from './mrkdwn.ts';
import type { SlackMessage } from './ticket-card-builder.ts';

/** The reply a prompt is about: what the "Open a new ticket" button carries as its value. */
export const closedReplySchema = z.object({
  /** The closed ticket. */
  ticketId: z.string(),
  channel: z.string(),
  /** The reply itself. */
  ts: z.string(),
  /** The thread it was written in. */
  threadTs: z.string(),
});
/** The reply a prompt is about. */
export type ClosedReply = z.infer<typeof closedReplySchema>;

/** Reads a button value back; undefined when it is not one of the prompt's. */
export function parseClosedReply(value: string | undefined): ClosedReply | undefined {
  try {
    const parsed = closedReplySchema.safeParse(JSON.parse(value ?? ''));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A prompt: why the reply was not added (`lead`), the reply's words in full, and a button that
 * files them (`file`).
 */
function replyPrompt(
  reply: ClosedReply,
  body: string,
  lead: string,
  text: string,
  file: { actionId: string; label: string },
): SlackMessage {
  const blocks: KnownBlock[] = [
    { type: 'section', text: md(lead) },
    // The button's label takes the rest of what one message may carry.
    ...quotedSections(body, LIMITS.messageBlocks - 2, LIMITS.messageBlockText - lead.length - 100),
    {
      type: 'actions',
      elements: [
        {
          type: 'button',
          action_id: file.actionId,
          text: plain(file.label, LIMITS.buttonText),
          style: 'primary',
          value: JSON.stringify(reply),
        },
      ],
    },
  ];
  return { text, blocks };
}

/** Builds the prompt shown to the person who replied to a closed ticket. */
export function buildClosedTicketPrompt(reply: ClosedReply, body: string): SlackMessage {
  const id = safeMrkdwn(reply.ticketId, 40);
  return replyPrompt(
    reply,
    body,
    `:lock: *${id}* is closed, so your reply was not added to it. Would you like to open a new ticket with it?`,
    `${reply.ticketId} is closed, so your reply was not added to it.`,
    { actionId: ACTIONS.closedReplyNewTicket, label: 'Open a new ticket with this text' },
  );
}

/**
 * The prompt for a colleague whose reply would reopen someone else's resolved ticket: their
 * problem is their own, so they may file it as their own ticket (the thread stays with the
 * original one, whose requester it belongs to).
 */
export function buildOthersTicketPrompt(reply: ClosedReply, body: string): SlackMessage {
  const id = safeMrkdwn(reply.ticketId, 40);
  return replyPrompt(
    reply,
    body,
    `:information_source: *${id}* is someone else’s request and it is resolved, so your reply was not added: it would reopen their ticket. If you have this problem too, file it as your own ticket, with your words and a link to *${id}*.`,
    `${reply.ticketId} is someone else’s resolved request, so your reply was not added to it.`,
    { actionId: ACTIONS.fileAsOwnTicket, label: 'File as my own ticket' },
  );
}

/** What replaces the colleague's prompt once they chose to file their words as their own. */
export function buildFilingAsOwn(reply: ClosedReply): SlackMessage {
  const text = `:hourglass_flowing_sand: Filing your words as your own ticket. Its card will come in your direct messages with the app; this thread stays with ${safeMrkdwn(reply.ticketId, 40)}.`;
  return { text, blocks: [{ type: 'section', text: md(text) }] };
}

/** Said when Slack could not open the person's direct messages: the prompt stays for a retry. */
export function buildSlackBusyNotice(): SlackMessage {
  const text =
    ':hourglass_flowing_sand: Slack did not answer just now, so nothing was filed yet. Your words are still in the message above: click *File as my own ticket* again in a moment.';
  return { text, blocks: [{ type: 'section', text: md(text) }] };
}

/** What replaces the prompt once the person chose to file the reply. */
export function buildFilingFromPrompt(reply: ClosedReply): SlackMessage {
  const text = `:hourglass_flowing_sand: Filing your reply as a new ticket. It will be confirmed in this thread, and the thread will then follow the new ticket instead of ${safeMrkdwn(reply.ticketId, 40)}.`;
  return { text, blocks: [{ type: 'section', text: md(text) }] };
}

/** What replaces the prompt when the reply was already filed (a second click). */
export function buildAlreadyFiled(ticketId: string | undefined): SlackMessage {
  const text = `:ticket: Your reply was already filed${ticketId ? ` as *${safeMrkdwn(ticketId, 40)}*` : ''}.`;
  return { text, blocks: [{ type: 'section', text: md(text) }] };
}

/**
 * What replaces "Filing…" once the ticket exists: its ID, and where its card or confirmation is
 * (`dm`: the person's direct messages with the app; `thread`: the thread the reply was in).
 */
export function buildFiledFromPrompt(ticketId: string, where: 'dm' | 'thread'): SlackMessage {
  const id = safeMrkdwn(ticketId, 40);
  const text =
    where === 'dm'
      ? `:white_check_mark: *${id}* is filed with your words. Its card is in your direct messages with the app (*Service Desk → Messages*).`
      : `:white_check_mark: *${id}* is filed with your reply. It is confirmed in this thread, which now follows it.`;
  return { text, blocks: [{ type: 'section', text: md(text) }] };
}

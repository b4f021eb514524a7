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
import { parseJsonAs } from './json-value.ts';
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
  return parseJsonAs(closedReplySchema, value);
}

/** A prompt's button: its action, its label, and whether it is the one suggested. */
interface PromptButton {
  actionId: string;
  label: string;
  primary?: boolean;
}

/**
 * A prompt: why the words were not added as they were (`lead`), the words in full, and the
 * buttons that act on them, each carrying `value` (what the words are, as JSON).
 */
function wordsPrompt(
  value: object,
  body: string,
  lead: string,
  text: string,
  buttons: readonly PromptButton[],
): SlackMessage {
  const blocks: KnownBlock[] = [
    { type: 'section', text: md(lead) },
    // The buttons' labels take the rest of what one message may carry.
    ...quotedSections(body, LIMITS.messageBlocks - 2, LIMITS.messageBlockText - lead.length - 100),
    {
      type: 'actions',
      elements: buttons.map((button) => ({
        type: 'button' as const,
        action_id: button.actionId,
        text: plain(button.label, LIMITS.buttonText),
        ...(button.primary ? { style: 'primary' as const } : {}),
        value: JSON.stringify(value),
      })),
    },
  ];
  return { text, blocks };
}

/** Builds the prompt shown to the person who replied to a closed ticket. */
export function buildClosedTicketPrompt(reply: ClosedReply, body: string): SlackMessage {
  const id = safeMrkdwn(reply.ticketId, 40);
  return wordsPrompt(
    reply,
    body,
    `:lock: *${id}* is closed, so your reply was not added to it. Would you like to open a new ticket with it?`,
    `${reply.ticketId} is closed, so your reply was not added to it.`,
    [
      {
        actionId: ACTIONS.closedReplyNewTicket,
        label: 'Open a new ticket with this text',
        primary: true,
      },
    ],
  );
}

/**
 * The prompt for a colleague whose reply would reopen someone else's resolved ticket: their
 * problem is their own, so they may file it as their own ticket (the thread stays with the
 * original one, whose requester it belongs to).
 */
export function buildOthersTicketPrompt(reply: ClosedReply, body: string): SlackMessage {
  const id = safeMrkdwn(reply.ticketId, 40);
  return wordsPrompt(
    reply,
    body,
    `:information_source: *${id}* is someone else’s request and it is resolved, so your reply was not added: it would reopen their ticket. If you have this problem too, file it as your own ticket, with your words and a link to *${id}*.`,
    `${reply.ticketId} is someone else’s resolved request, so your reply was not added to it.`,
    [{ actionId: ACTIONS.fileAsOwnTicket, label: 'File as my own ticket', primary: true }],
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

/** A direct message the prompt asks about: what both of its buttons carry as their value. */
export const followUpSchema = z.object({
  /** The ticket resolved lately. */
  ticketId: z.string(),
  /** The direct message (its conversation and ts). */
  channel: z.string(),
  ts: z.string(),
});
/** A direct message the prompt asks about. */
export type FollowUp = z.infer<typeof followUpSchema>;

/** Reads a follow-up button's value back; undefined when it is not one of the prompt's. */
export function parseFollowUp(value: string | undefined): FollowUp | undefined {
  return parseJsonAs(followUpSchema, value);
}

/**
 * The private question after a person's direct message soon after their ticket was resolved:
 * their words in full, **Reopen** that ticket with them, or **File as a new ticket**.
 */
export function buildResolvedFollowUpPrompt(
  followUp: FollowUp,
  title: string | undefined,
  body: string,
): SlackMessage {
  const id = safeMrkdwn(followUp.ticketId, 40);
  const named = title ? `*${id}* · ${safeMrkdwn(title, 200)}` : `*${id}*`;
  return wordsPrompt(
    followUp,
    body,
    `:thinking_face: Your ticket ${named} was resolved lately. Is this about it? Reopen it with your message, or file your message as a new ticket.`,
    `${followUp.ticketId} was resolved lately. Is your message about it?`,
    [
      {
        actionId: ACTIONS.resolvedFollowUpReopen,
        label: `Reopen ${followUp.ticketId}`,
        primary: true,
      },
      { actionId: ACTIONS.resolvedFollowUpNewTicket, label: 'File as a new ticket' },
    ],
  );
}

/** What replaces the question once the person chose to reopen the ticket with their words. */
export function buildReopeningWithWords(ticketId: string): SlackMessage {
  const text = `:arrows_counterclockwise: Adding your message to *${safeMrkdwn(ticketId, 40)}*, which reopens it. Replies in your message's thread go to it too.`;
  return { text, blocks: [{ type: 'section', text: md(text) }] };
}

/** What replaces the question once the person chose a new ticket. */
export function buildFilingAsNew(): SlackMessage {
  const text =
    ':hourglass_flowing_sand: Filing your message as a new ticket. It will be confirmed in its thread.';
  return { text, blocks: [{ type: 'section', text: md(text) }] };
}

/** What replaces the question when the message was dealt with already (a second click). */
export function buildFollowUpDone(result: { ticketId?: unknown } | undefined): SlackMessage {
  const id = typeof result?.ticketId === 'string' ? result.ticketId : undefined;
  const text = `:ticket: Your message was already sent${id ? ` to *${safeMrkdwn(id, 40)}*` : ''}.`;
  return { text, blocks: [{ type: 'section', text: md(text) }] };
}

/** Said when Slack could not show the app the message a button is about: the question stays. */
export function buildFollowUpSlackBusy(): SlackMessage {
  const text =
    ':hourglass_flowing_sand: Slack did not answer just now, so nothing was done with your message yet. Click your choice again in a moment.';
  return { text, blocks: [{ type: 'section', text: md(text) }] };
}

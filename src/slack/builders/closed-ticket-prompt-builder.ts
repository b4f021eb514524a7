/**
 * The private prompt after a reply in the thread of a closed ticket: the reply could not be
 * added (closed is final), so the person may file it as a new ticket, or dismiss the prompt.
 * Their words are shown in full so that nothing they wrote is lost either way.
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

/** Builds the prompt shown to the person who replied. */
export function buildClosedTicketPrompt(reply: ClosedReply, body: string): SlackMessage {
  const id = safeMrkdwn(reply.ticketId, 40);
  const lead = `:lock: *${id}* is closed, so your reply was not added to it. Would you like to open a new ticket with it?`;
  const blocks: KnownBlock[] = [
    { type: 'section', text: md(lead) },
    ...quotedSections(body, LIMITS.messageBlocks - 2),
    {
      type: 'actions',
      elements: [
        {
          type: 'button',
          action_id: ACTIONS.closedReplyNewTicket,
          text: plain('Open a new ticket with this text', LIMITS.buttonText),
          style: 'primary',
          value: JSON.stringify(reply),
        },
        {
          type: 'button',
          action_id: ACTIONS.closedReplyDismiss,
          text: plain('Dismiss', LIMITS.buttonText),
          value: reply.ticketId,
        },
      ],
    },
  ];
  return { text: `${reply.ticketId} is closed, so your reply was not added to it.`, blocks };
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

/** Short messages the app posts about a person's request: filed, delayed, failed. */
import type { KnownBlock } from '@slack/types';
import type { Ticket } from '../../contract/schemas.ts';
import type { CardAudience } from './card-actions-builder.ts';
import { blockTextLength, LIMITS, md, quotedSections, safeMrkdwn, truncate } from './mrkdwn.ts';
import { buildTicketCard, type SlackMessage } from './ticket-card-builder.ts';

/** The confirmation in a thread that a ticket exists and the thread now feeds it. */
export function buildLinkedThreadNotice(
  ticket: Ticket,
  options: {
    dashboardUrl?: string | undefined;
    filedBy?: string | undefined;
    /** Who sees it (default everyone): one person in a DM gets only their buttons. */
    audience?: CardAudience;
  },
): SlackMessage {
  const id = safeMrkdwn(ticket.id, 40);
  const by = options.filedBy ? ` by <@${options.filedBy}>` : '';
  const lead = `:ticket: Ticket *${id}* was filed${by}. Replies in this thread go to the ticket, and the service desk's answers will appear here.`;
  const card = buildTicketCard(ticket, {
    dashboardUrl: options.dashboardUrl,
    lead,
    ...(options.audience ? { audience: options.audience } : {}),
  });
  return {
    text: `Ticket ${id} was filed. Replies in this thread go to the ticket.`,
    blocks: card.blocks,
  };
}

/**
 * The lead of a card sent to the person's DM because the app is not in the conversation they
 * acted in: why it is here, that this thread now feeds the ticket, and how to invite the app.
 */
export function buildElsewhereLead(
  ticketId: string,
  channel: string,
  fromMessage: boolean,
): string {
  const id = safeMrkdwn(ticketId, 40);
  const where = `<#${channel}>`;
  const what = fromMessage ? `from a message in ${where}` : `in ${where}`;
  return `:ticket: You filed *${id}* ${what}. The app is not a member there, so the ticket's thread is here: replies in this thread go to the ticket. To use the app in ${where}, invite it with \`/invite @Service Desk\`.`;
}

/** Said where the person filed (their modal) when the card went to their DM instead. */
export function buildFiledElsewhereText(ticketId: string, channel: string): string {
  return `:white_check_mark: *${safeMrkdwn(ticketId, 40)}* is filed. The app is not a member of <#${channel}>, so its card and thread are in your direct messages with the app (*Service Desk → Messages*). You can close this window.`;
}

/** Told once when the platform is not answering: the request is kept and will go through. */
export function buildDelayedNotice(what: string, busyForMs?: number): SlackMessage {
  // A known wait is the rate limit at work: the desk is busy, not down, and the time is known.
  const text =
    busyForMs === undefined
      ? `:hourglass_flowing_sand: The service desk is not answering right now. Your ${what} is saved and will be sent as soon as it is back; you don't need to do anything.`
      : `:hourglass_flowing_sand: Many requests are reaching the service desk right now. Your ${what} is saved and will be sent ${inAbout(busyForMs)}; you don't need to do anything.`;
  return { text, blocks: [{ type: 'section', text: md(text) }] };
}

/**
 * Told once when the ticket is filed but Slack has not taken its card or confirmation yet: the
 * ticket exists (so the person does not file it again), with its ID, and why the card is late.
 */
export function buildCardDelayedNotice(ticketId: string, slackRateLimited: boolean): SlackMessage {
  const id = safeMrkdwn(ticketId, 40);
  const text = slackRateLimited
    ? `:hourglass_flowing_sand: *${id}* is filed. Slack is limiting the app's messages right now, so its card comes in a moment; you don't need to do anything.`
    : `:hourglass_flowing_sand: *${id}* is filed. Slack is not answering the app right now, so its card comes as soon as it does; you don't need to do anything.`;
  return { text, blocks: [{ type: 'section', text: md(text) }] };
}

function inAbout(ms: number): string {
  const minutes = Math.ceil(ms / 60_000);
  return minutes <= 1 ? 'within a minute' : `in about ${minutes} minutes`;
}

/**
 * Told when a reply in a thread the app posted in names no ticket the app can find (a greeting's
 * thread, a thread whose card is gone): nothing was added anywhere, with their words.
 */
export function buildUnplacedReplyNotice(original: string): SlackMessage {
  return buildFailureNotice(
    ':grey_question: I could not tell which ticket this thread is about, so your reply was not added to any ticket. To file it, use `/ticket` or send it to me in a direct message.',
    original,
  );
}

/**
 * Told when a request failed for good: why, what to do, and the person's own words, so that
 * nothing they wrote is lost.
 */
export function buildFailureNotice(
  reasonMrkdwn: string,
  original: string | undefined,
): SlackMessage {
  const blocks: KnownBlock[] = [
    { type: 'section', text: md(truncate(reasonMrkdwn, LIMITS.sectionText)) },
  ];
  if (original) {
    blocks.push({ type: 'context', elements: [md('What you wrote, so you can send it again:')] });
    blocks.push(
      ...quotedSections(
        original,
        LIMITS.messageBlocks - blocks.length,
        LIMITS.messageBlockText - blockTextLength(blocks),
      ),
    );
  }
  return { text: truncate(reasonMrkdwn, LIMITS.messageText), blocks };
}

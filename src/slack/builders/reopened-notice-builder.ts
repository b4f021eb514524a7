/**
 * The requester's "your ticket was resolved" direct message once the ticket is open again, by
 * its Reopen button, a reply or the service desk: the button gives way to a line saying so, so
 * a stale Reopen is never left to click.
 */
import type { KnownBlock } from '@slack/types';
import { ACTIONS } from '../ids.ts';
import { md, safeMrkdwn } from './mrkdwn.ts';

/** The line that takes the Reopen button's place. */
export function buildReopenedLine(ticketId: string): KnownBlock {
  const id = safeMrkdwn(ticketId, 40);
  return {
    type: 'context',
    elements: [
      md(`:arrows_counterclockwise: ${id} was reopened: the service desk will look again.`),
    ],
  };
}

interface BlockLike {
  type?: string;
  elements?: { action_id?: string }[];
}

/**
 * The notice's blocks with its Reopen button replaced by the reopened line; undefined when it
 * carries no Reopen button (already updated, or not the notice).
 */
export function noticeWithoutReopen(
  blocks: readonly unknown[],
  ticketId: string,
): unknown[] | undefined {
  const holdsReopen = (block: BlockLike) =>
    block.type === 'actions' &&
    (block.elements ?? []).some((e) => e.action_id === ACTIONS.reopenTicket);
  if (!(blocks as BlockLike[]).some(holdsReopen)) return undefined;
  return blocks.map((block) =>
    holdsReopen(block as BlockLike) ? buildReopenedLine(ticketId) : block,
  );
}

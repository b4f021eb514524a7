/**
 * Once a person was asked for on a ticket, the AI's earlier answers in its threads stop offering
 * "Talk to a person": each is changed once (chat.update) to the same message without the button.
 * The AI's later answers are posted without it (see `SlackMirrorPoster`).
 */

import type { KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import type { Logger } from 'pino';
import type { Thread, ThreadLinks } from '../../store/types.ts';
import { withoutPersonOffer } from '../builders/ticket-message-builder.ts';
import { isSlackCallError } from '../outbox/transient-errors.ts';
import { postMetadata, type ThreadMessage } from '../posting/post-metadata.ts';
import { readThread } from '../posting/thread-reader.ts';

/** What the withdrawal uses. */
export interface PersonOffersDeps {
  client: Pick<WebClient, 'conversations' | 'chat'>;
  stores: { links: Pick<ThreadLinks, 'threadsForTicket'> };
  logger: Logger;
}

/**
 * The threads whose AI answers may offer a person: the one the person asked in and the ticket's
 * other linked threads, not the agents' triage thread (its answers carry no button).
 */
export async function threadsOffering(
  deps: PersonOffersDeps,
  ticketId: string,
  askedIn: Thread,
): Promise<Thread[]> {
  const linked = await deps.stores.links.threadsForTicket(ticketId);
  const threads = [askedIn, ...linked.filter((t) => !t.triage)];
  return threads.filter(
    (t, i) => threads.findIndex((o) => o.channel === t.channel && o.threadTs === t.threadTs) === i,
  );
}

/**
 * Takes "Talk to a person" off the ticket's AI answers in `threads`. Best effort, after the
 * request for a person is on the ticket and announced: Slack failing leaves a button whose click
 * says a person was asked for already, so a Slack error is logged and the next thread tried.
 */
export async function withdrawPersonOffers(
  deps: PersonOffersDeps,
  ticketId: string,
  threads: readonly Thread[],
): Promise<number> {
  let changed = 0;
  for (const thread of threads) {
    try {
      changed += await withdrawIn(deps, ticketId, thread);
    } catch (error) {
      if (!isSlackCallError(error)) throw error;
      deps.logger.info(
        { err: error, ticket_id: ticketId, channel: thread.channel, thread_ts: thread.threadTs },
        '“Talk to a person” left on earlier AI answers: Slack did not take the change',
      );
    }
  }
  return changed;
}

async function withdrawIn(deps: PersonOffersDeps, ticketId: string, thread: Thread) {
  const offering: { ts: string; text: string | undefined; blocks: KnownBlock[] }[] = [];
  await readThread(deps.client, thread, (messages: readonly ThreadMessage[]) => {
    for (const message of messages) {
      if (!message.ts || postMetadata(message)?.ticketId !== ticketId) continue;
      const blocks = withoutPersonOffer(message.blocks ?? []);
      if (blocks) offering.push({ ts: message.ts, text: message.text, blocks });
    }
    return false;
  });
  for (const answer of offering) {
    // Without metadata, chat.update keeps the message's own (the ticket and message it is).
    await deps.client.chat.update({
      channel: thread.channel,
      ts: answer.ts,
      text: answer.text ?? '',
      blocks: answer.blocks,
    });
  }
  return offering.length;
}

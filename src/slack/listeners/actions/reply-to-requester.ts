/**
 * The triage card's "Reply to requester" button (agents only): opens the reply modal at once,
 * while the trigger id is valid. A non-agent's click, crafted or not, is refused privately and
 * opens nothing.
 */
import type { BlockAction } from '@slack/bolt';
import { buildReplyModal, buildSendRefusal } from '../../builders/triage-reply-builder.ts';
import { openModalOrTell } from '../../modals/modal-opening.ts';
import { isFirstRefusal } from '../../people/refusal-once.ts';
import { tellPrivately } from '../../posting/private-notice.ts';
import {
  type ButtonArgs,
  type ButtonDeps,
  clickedTicketId,
  clickOf,
  clickPlace,
} from './button-click.ts';

/** Builds the handler of "Reply to requester". */
export function replyToRequester(deps: ButtonDeps) {
  return async ({ ack, body }: ButtonArgs): Promise<void> => {
    await ack();
    const ticketId = clickedTicketId(body);
    if (!ticketId) return;
    const place = clickPlace(body);
    const person = {
      userId: body.user.id,
      channel: place.channel,
      responseUrl: body.response_url,
    };
    // Checked here and again when the reply is sent: a crafted click never reaches the platform.
    if (!(await deps.people.isAgent(body.user.id, { ticketId, channel: place.channel }))) {
      const ask = { userId: body.user.id, ticketId, action: clickOf(body).actionId };
      if (await isFirstRefusal(deps.stores.claims, ask))
        await tellPrivately(deps.client, person, buildSendRefusal('agents_only'));
      return;
    }
    await openModalOrTell(
      deps,
      {
        trigger_id: body.trigger_id,
        view: buildReplyModal({
          ticketId,
          ...(place.channel ? { channel: place.channel } : {}),
          ...(cardThread(body) ? { threadTs: cardThread(body) } : {}),
        }),
      },
      person,
    );
  };
}

// The card is its thread's parent: its own ts names the thread a later failure is told in.
function cardThread(body: BlockAction): string | undefined {
  const container = body.container as { message_ts?: string } | undefined;
  return clickPlace(body).threadTs ?? container?.message_ts ?? body.message?.ts;
}

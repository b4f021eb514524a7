/**
 * "Talk to a person" on an AI answer in a ticket's thread: queues a message asking for a human,
 * written as the person who clicked (the intent checks they are the requester or an agent).
 */
import type { SlackDeps } from '../../deps.ts';
import { type RequestHumanPayload, requestHuman } from '../../intents/request-human.ts';
import { enqueueIntent } from '../../outbox/intent-definition.ts';
import {
  type ButtonArgs,
  clickedTicketId,
  clickKey,
  clickPlace,
  refusedEarly,
} from './button-click.ts';

/** Builds the handler of "Talk to a person". */
export function talkToPerson(
  deps: Pick<
    SlackDeps,
    | 'client'
    | 'desks'
    | 'healWindow'
    | 'logger'
    | 'mirror'
    | 'people'
    | 'reads'
    | 'serviceDesk'
    | 'settings'
    | 'statuses'
    | 'stores'
  >,
) {
  return async ({ ack, body }: ButtonArgs): Promise<void> => {
    await ack();
    const ticketId = clickedTicketId(body);
    const place = clickPlace(body);
    const messageTs = body.message?.ts ?? (body.container as { message_ts?: string }).message_ts;
    if (!ticketId || !place.channel || !messageTs) return;
    if (await refusedEarly(deps, body, ticketId)) return;
    const payload: RequestHumanPayload = {
      ticketId,
      actorUserId: body.user.id,
      channel: place.channel,
      threadTs: place.threadTs ?? messageTs,
      messageTs,
    };
    await enqueueIntent(deps, clickKey(body), requestHuman, payload);
  };
}

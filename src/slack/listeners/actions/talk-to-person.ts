import { type RequestHumanPayload, requestHuman } from '../../intents/request-human.ts';
import { enqueueIntent } from '../../outbox/intent-definition.ts';
import {
  type ButtonArgs,
  type ButtonDeps,
  clickedTicketId,
  clickKey,
  clickPlace,
  refusedEarly,
} from './button-click.ts';

/** Builds the handler of "Talk to a person". */
export function talkToPerson(deps: ButtonDeps) {
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

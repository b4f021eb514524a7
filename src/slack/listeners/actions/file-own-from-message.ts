import { buildRefusal } from '../../builders/refusal-builder.ts';
import {
  buildFilingOwnFromMessage,
  buildOwnAlreadyFiled,
  buildOwnSlackBusy,
  buildTakenMessageGone,
  parseTakenMessage,
} from '../../builders/thread-taken-notice-builder.ts';
import { ticketPageUrl } from '../../builders/ticket-card-builder.ts';
import { type CreateTicketPayload, createTicket } from '../../intents/create-ticket.ts';
import { threadMessageKey } from '../../outbox/delivery-keys.ts';
import { enqueueIntent } from '../../outbox/intent-definition.ts';
import { openDm, permalinkOf } from '../../posting/slack-posting.ts';
import { readMessageAt } from '../../posting/thread-reader.ts';
import { messageBody, type PersonMessage, titleFromText } from '../../tickets/message-text.ts';
import { type ButtonArgs, type ButtonDeps, clickOf, tellClicker } from './button-click.ts';

/** Builds the handler of the notice's "File my own ticket from this message" button. */
export function fileOwnFromMessage(deps: ButtonDeps) {
  return async ({ ack, body, respond }: ButtonArgs): Promise<void> => {
    await ack();
    const taken = parseTakenMessage(clickOf(body).value);
    if (!taken) return;
    if (taken.userId !== body.user.id) {
      await tellClicker(deps, body, buildRefusal('not_visible', taken.ticketId));
      return;
    }
    const { message } = await readMessageAt(deps.client, taken).catch(() => ({
      message: undefined,
    }));
    const words = message
      ? messageBody({ ...(message as PersonMessage), channel: taken.channel })
      : '';
    if (!message || !words) {
      await tellClicker(deps, body, buildTakenMessageGone());
      return;
    }
    const dm = await openDm(deps.client, body.user.id).catch(() => undefined);
    if (!dm) {
      // The notice stays as it is, its button in it, for a click once Slack answers again.
      await tellClicker(deps, body, buildOwnSlackBusy());
      return;
    }
    const [messageLink, threadLink] = await Promise.all([
      permalinkOf(deps.client, taken.channel, taken.ts),
      permalinkOf(deps.client, taken.channel, taken.threadTs),
    ]);
    const page = ticketPageUrl(taken.ticketId, deps.settings.dashboardUrl);
    const payload: CreateTicketPayload = {
      actorUserId: body.user.id,
      requesterUserIds: [body.user.id],
      ticket: {
        title: titleFromText(words) || `From ${taken.ticketId}’s thread`,
        description: [
          words,
          [
            `— Filed from a message in the thread of ${taken.ticketId}, which stays with it.`,
            messageLink ? `The message: ${messageLink}` : '',
            threadLink ? `${taken.ticketId} in Slack: ${threadLink}` : '',
            page ? `${taken.ticketId}: ${page}` : '',
          ]
            .filter(Boolean)
            .join('\n'),
        ].join('\n\n'),
      },
      // The card in the person's DM: the thread stays with the ticket it belongs to.
      reply: { kind: 'card', channel: dm },
    };
    const outcome = await enqueueIntent(
      deps,
      threadMessageKey(taken.channel, taken.ts),
      createTicket,
      payload,
    );
    // A double click's second answer may replace the first: while the ticket is on its way,
    // both say it is being filed; once it is, a later click learns which ticket it is.
    const answer =
      !outcome.enqueued && outcome.state === 'done'
        ? buildOwnAlreadyFiled((outcome.result as { ticketId?: string } | undefined)?.ticketId)
        : buildFilingOwnFromMessage(taken);
    if (body.response_url) await respond({ replace_original: true, ...answer });
    else await tellClicker(deps, body, answer);
  };
}

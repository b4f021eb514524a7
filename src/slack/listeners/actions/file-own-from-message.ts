/**
 * The thread-taken notice's button, "File my own ticket from this message": the message's words
 * become a ticket of the person who clicked, with links to the message and to the thread's
 * ticket, its card in their direct messages. The thread stays with its ticket (never linked to
 * the new one). Keyed by the message, so a double click, or a second person told the same,
 * files nothing twice. Only the person the notice was for may use it.
 */
import type { WebClient } from '@slack/web-api';
import { buildRefusal } from '../../builders/refusal-builder.ts';
import {
  buildFilingOwnFromMessage,
  buildOwnAlreadyFiled,
  buildOwnSlackBusy,
  buildTakenMessageGone,
  parseTakenMessage,
  type TakenMessage,
} from '../../builders/thread-taken-notice-builder.ts';
import { ticketPageUrl } from '../../builders/ticket-card-builder.ts';
import type { SlackDeps } from '../../deps.ts';
import { type CreateTicketPayload, createTicket } from '../../intents/create-ticket.ts';
import { threadMessageKey } from '../../outbox/delivery-keys.ts';
import { enqueueIntent } from '../../outbox/intent-definition.ts';
import type { ThreadMessage } from '../../posting/post-metadata.ts';
import { openDm } from '../../posting/slack-posting.ts';
import { messageBody, type PersonMessage, titleFromText } from '../../tickets/message-text.ts';
import { type ButtonArgs, clickOf, tellClicker } from './button-click.ts';

/** Builds the handler of the notice's "File my own ticket from this message" button. */
export function fileOwnFromMessage(
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
  return async ({ ack, body, respond }: ButtonArgs): Promise<void> => {
    await ack();
    const taken = parseTakenMessage(clickOf(body).value);
    if (!taken) return;
    if (taken.userId !== body.user.id) {
      await tellClicker(deps, body, buildRefusal('not_visible', taken.ticketId));
      return;
    }
    const message = await readMessage(deps.client, taken);
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
    const permalinkOf = (ts: string) =>
      deps.client.chat
        .getPermalink({ channel: taken.channel, message_ts: ts })
        .then((r) => r.permalink)
        .catch(() => undefined);
    const [messageLink, threadLink] = await Promise.all([
      permalinkOf(taken.ts),
      permalinkOf(taken.threadTs),
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

/** The message as Slack has it now (edits included); a thread's parent always comes first. */
async function readMessage(
  client: WebClient,
  taken: TakenMessage,
): Promise<ThreadMessage | undefined> {
  const replies = await client.conversations
    .replies({
      channel: taken.channel,
      ts: taken.threadTs,
      oldest: taken.ts,
      latest: taken.ts,
      inclusive: true,
      limit: 2,
    })
    .catch(() => undefined);
  return (replies?.messages as ThreadMessage[] | undefined)?.find((m) => m.ts === taken.ts);
}

/**
 * "Open a new ticket with this text" on the closed-ticket prompt: files the reply as a new
 * ticket (keyed by the message, as a 🎫 reaction on it would be, so a second click files
 * nothing new), confirms in the thread and links the thread to the new ticket, since that is
 * where the conversation now continues. Only the reply's author may: the prompt was theirs.
 * The reply is read from Slack now and its words go into the outbox entry, so they are kept
 * however long the platform takes.
 */
import type { WebClient } from '@slack/web-api';
import {
  buildAlreadyFiled,
  buildFilingFromPrompt,
  type ClosedReply,
  parseClosedReply,
} from '../../builders/closed-ticket-prompt-builder.ts';
import { buildRefusal } from '../../builders/refusal-builder.ts';
import type { SlackDeps } from '../../deps.ts';
import { type CreateTicketPayload, createTicket } from '../../intents/create-ticket.ts';
import { messageKey } from '../../outbox/delivery-keys.ts';
import { enqueueIntent } from '../../outbox/intent-definition.ts';
import {
  messageBody,
  type PersonMessage,
  slackToPlain,
  titleFromText,
} from '../../tickets/message-text.ts';
import { type ButtonArgs, clickOf, tellClicker } from './button-click.ts';

/** Builds the handler of the prompt's "Open a new ticket" button. */
export function closedReplyNewTicket(deps: SlackDeps) {
  return async ({ ack, body, respond }: ButtonArgs): Promise<void> => {
    await ack();
    const reply = parseClosedReply(clickOf(body).value);
    if (!reply) return;
    const message = await readReply(deps.client, reply);
    if (!message || message.user !== body.user.id) {
      await tellClicker(deps, body, buildRefusal('not_visible', reply.ticketId));
      return;
    }
    const permalink = await deps.client.chat
      .getPermalink({ channel: reply.channel, message_ts: reply.ts })
      .then((r) => r.permalink)
      .catch(() => undefined);
    const text = slackToPlain(message.text ?? '').trim();
    const payload: CreateTicketPayload = {
      actorUserId: body.user.id,
      requesterUserIds: [body.user.id],
      ticket: {
        title: titleFromText(text) || `Follow-up to ${reply.ticketId}`,
        description: [
          messageBody({ ...message, channel: reply.channel }),
          `— Follow-up to ${reply.ticketId}, which is closed.${permalink ? ` From Slack: ${permalink}` : ''}`,
        ]
          .filter(Boolean)
          .join('\n\n'),
      },
      reply: { kind: 'thread', channel: reply.channel, threadTs: reply.threadTs },
    };
    const outcome = await enqueueIntent(
      deps,
      messageKey(reply.channel, reply.ts),
      createTicket,
      payload,
    );
    const answer =
      !outcome.enqueued && outcome.state === 'done'
        ? buildAlreadyFiled((outcome.result as { ticketId?: string } | undefined)?.ticketId)
        : buildFilingFromPrompt(reply);
    if (body.response_url) await respond({ replace_original: true, ...answer });
    else await tellClicker(deps, body, answer);
  };
}

/** The reply as Slack has it now (edits included); the thread's parent always comes first. */
async function readReply(
  client: WebClient,
  reply: ClosedReply,
): Promise<PersonMessage | undefined> {
  const replies = await client.conversations
    .replies({
      channel: reply.channel,
      ts: reply.threadTs,
      oldest: reply.ts,
      latest: reply.ts,
      inclusive: true,
      limit: 2,
    })
    .catch(() => undefined);
  const found = replies?.messages?.find((m) => m.ts === reply.ts);
  if (!found?.user || !found.ts) return undefined;
  return { ...(found as PersonMessage), user: found.user, ts: found.ts };
}

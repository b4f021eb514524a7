/**
 * The prompts' filing buttons: a reply that could not be added becomes a ticket of its own,
 * keyed by the message as any ticket filed apart from its thread's is (the thread-taken
 * notice's button too), so a second click files nothing new.
 * - "Open a new ticket with this text" (the ticket is closed): confirms in the thread and links
 *   the thread to the new ticket, since that is where the conversation now continues.
 * - "File as my own ticket" (a colleague's reply on someone else's resolved ticket): the card
 *   goes to the colleague's direct messages, and the thread stays with the original ticket,
 *   which the new one's description links to.
 * Only the reply's author may: the prompt was theirs. The reply is read from Slack now and its
 * words go into the outbox entry, so they are kept however long the platform takes.
 */
import type { WebClient } from '@slack/web-api';
import {
  buildAlreadyFiled,
  buildFilingAsOwn,
  buildFilingFromPrompt,
  buildSlackBusyNotice,
  type ClosedReply,
  parseClosedReply,
} from '../../builders/closed-ticket-prompt-builder.ts';
import { buildRefusal } from '../../builders/refusal-builder.ts';
import type { SlackDeps } from '../../deps.ts';
import { type CreateTicketPayload, createTicket } from '../../intents/create-ticket.ts';
import { threadMessageKey } from '../../outbox/delivery-keys.ts';
import { enqueueIntent } from '../../outbox/intent-definition.ts';
import { openDm } from '../../posting/slack-posting.ts';
import {
  messageBody,
  type PersonMessage,
  slackToPlain,
  titleFromText,
} from '../../tickets/message-text.ts';
import { type ButtonArgs, clickOf, tellClicker } from './button-click.ts';

/** Why the reply could not be added: its ticket is closed, or it is someone else's. */
export type ReplyPromptKind = 'closed' | 'others';

/** Builds the handler of a prompt's filing button. */
export function closedReplyNewTicket(
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
  kind: ReplyPromptKind = 'closed',
) {
  return async ({ ack, body, respond }: ButtonArgs): Promise<void> => {
    await ack();
    const reply = parseClosedReply(clickOf(body).value);
    if (!reply) return;
    const message = await readReply(deps.client, reply);
    if (!message || message.user !== body.user.id) {
      await tellClicker(deps, body, buildRefusal('not_visible', reply.ticketId));
      return;
    }
    const permalinkOf = (ts: string) =>
      deps.client.chat
        .getPermalink({ channel: reply.channel, message_ts: ts })
        .then((r) => r.permalink)
        .catch(() => undefined);
    const text = slackToPlain(message.text ?? '').trim();
    const words = messageBody({ ...message, channel: reply.channel });
    let payload: CreateTicketPayload;
    if (kind === 'closed') {
      const permalink = await permalinkOf(reply.ts);
      payload = {
        actorUserId: body.user.id,
        requesterUserIds: [body.user.id],
        ticket: {
          title: titleFromText(text) || `Follow-up to ${reply.ticketId}`,
          description: [
            words,
            `— Follow-up to ${reply.ticketId}, which is closed.${permalink ? ` From Slack: ${permalink}` : ''}`,
          ]
            .filter(Boolean)
            .join('\n\n'),
        },
        reply: { kind: 'thread', channel: reply.channel, threadTs: reply.threadTs },
        // The requester's own choice: the closed ticket's thread follows the new one.
        moveThread: true,
      };
    } else {
      const dm = await openDm(deps.client, body.user.id).catch(() => undefined);
      if (!dm) {
        // The prompt stays as it is, their words in it, for a click once Slack answers again.
        await tellClicker(deps, body, buildSlackBusyNotice());
        return;
      }
      // The original ticket's thread, which its agents and its requester follow.
      const original = await permalinkOf(reply.threadTs);
      payload = {
        actorUserId: body.user.id,
        requesterUserIds: [body.user.id],
        ticket: {
          title: titleFromText(text) || `Same problem as ${reply.ticketId}`,
          description: [
            words,
            `— Filed from a reply on ${reply.ticketId} (someone else’s request, resolved), which looks like the same problem.${original ? ` ${reply.ticketId} in Slack: ${original}` : ''}`,
          ]
            .filter(Boolean)
            .join('\n\n'),
        },
        // The card in the person's DM: the thread stays with the ticket it belongs to.
        reply: { kind: 'card', channel: dm },
      };
    }
    const outcome = await enqueueIntent(
      deps,
      threadMessageKey(reply.channel, reply.ts),
      createTicket,
      payload,
    );
    const answer =
      !outcome.enqueued && outcome.state === 'done'
        ? buildAlreadyFiled((outcome.result as { ticketId?: string } | undefined)?.ticketId)
        : kind === 'closed'
          ? buildFilingFromPrompt(reply)
          : buildFilingAsOwn(reply);
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

import type { EnqueueOutcome } from '../../../store/types.ts';
import {
  buildAlreadyFiled,
  buildClosedTicketPrompt,
  buildFilingAsOwn,
  buildFilingFromPrompt,
  buildOthersTicketPrompt,
  buildSlackBusyNotice,
  parseClosedReply,
} from '../../builders/closed-ticket-prompt-builder.ts';
import { buildRefusal } from '../../builders/refusal-builder.ts';
import { type CreateTicketPayload, createTicket } from '../../intents/create-ticket.ts';
import { threadMessageKey } from '../../outbox/delivery-keys.ts';
import { enqueueIntent } from '../../outbox/intent-definition.ts';
import { openDm, permalinkOf } from '../../posting/slack-posting.ts';
import { readMessageAt } from '../../posting/thread-reader.ts';
import {
  messageBody,
  type PersonMessage,
  slackToPlain,
  titleFromText,
} from '../../tickets/message-text.ts';
import { type ButtonArgs, type ButtonDeps, clickOf, tellClicker } from './button-click.ts';

/** Why the reply could not be added: its ticket is closed, or it is someone else's. */
export type ReplyPromptKind = 'closed' | 'others';

/** Builds the handler of a prompt's filing button. */
export function closedReplyNewTicket(deps: ButtonDeps, kind: ReplyPromptKind = 'closed') {
  return async ({ ack, body, respond }: ButtonArgs): Promise<void> => {
    await ack();
    const reply = parseClosedReply(clickOf(body).value);
    if (!reply) return;
    const { message: found } = await readMessageAt(deps.client, reply).catch(() => ({
      message: undefined,
    }));
    const message = found?.user ? ({ ...found, user: found.user } as PersonMessage) : undefined;
    if (!message || message.user !== body.user.id) {
      await tellClicker(deps, body, buildRefusal('not_visible', reply.ticketId));
      return;
    }
    const text = slackToPlain(message.text ?? '').trim();
    const words = messageBody({ ...message, channel: reply.channel });
    let payload: CreateTicketPayload;
    if (kind === 'closed') {
      const permalink = await permalinkOf(deps.client, reply.channel, reply.ts);
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
      const original = await permalinkOf(deps.client, reply.channel, reply.threadTs);
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
    const filing = kind === 'closed' ? buildFilingFromPrompt(reply) : buildFilingAsOwn(reply);
    const prompt =
      kind === 'closed'
        ? buildClosedTicketPrompt(reply, words)
        : buildOthersTicketPrompt(reply, words);
    // "Filing…" goes first: the entry replaces it with its outcome through the same
    // response_url, and that must come after it, however soon the entry runs.
    const responseUrl = body.response_url;
    if (responseUrl) await respond({ replace_original: true, ...filing });
    let outcome: EnqueueOutcome;
    try {
      outcome = await enqueueIntent(
        deps,
        threadMessageKey(reply.channel, reply.ts),
        createTicket,
        responseUrl ? { ...payload, responseUrl } : payload,
      );
    } catch (error) {
      // Nothing was kept: the prompt comes back, their words and its button in it.
      if (responseUrl) await respond({ replace_original: true, ...prompt }).catch(() => undefined);
      throw error;
    }
    if (!outcome.enqueued && outcome.state === 'done') {
      const filed = buildAlreadyFiled(
        (outcome.result as { ticketId?: string } | undefined)?.ticketId,
      );
      if (responseUrl) await respond({ replace_original: true, ...filed });
      else await tellClicker(deps, body, filed);
      return;
    }
    if (!responseUrl) await tellClicker(deps, body, filing);
  };
}
